import type { MedusaResponse, MedusaStoreRequest } from "@medusajs/framework/http"
import { openCryptoTopUpWorkflow } from "../../../../../workflows/open-crypto-top-up"
import type { StorePostCryptoTopUpType } from "../../validators"
import type { StoreCryptoPaymentStatusResponse } from "../../types"

/**
 * Pay the rest of a cart's invoice that ended short (docs/attention.md#paying-the-rest): opens a
 * top-up invoice for the shortfall in the same coin, or answers the open one again. Answers as
 * GET /store/crypto/payment-status does, the top-up in `invoice.rest`; 404 naming the cart (cartNotFound) for a cart
 * that is not ours (or outside the publishable key's sales channels), 400 not_allowed with the
 * reason when there is no rest to pay.
 */
export const POST = async (req: MedusaStoreRequest<StorePostCryptoTopUpType>, res: MedusaResponse<StoreCryptoPaymentStatusResponse>): Promise<void> => {
  res.setHeader("Cache-Control", "no-store")
  const { result } = await openCryptoTopUpWorkflow(req.scope).run({
    input: { cart_id: req.validatedBody.cart_id, sales_channel_ids: req.publishable_key_context.sales_channel_ids },
  })
  res.json(result)
}
