import type { MedusaResponse, MedusaStoreRequest } from "@medusajs/framework/http"
import { refreshCryptoPaymentSessionWorkflow } from "../../../../../workflows/refresh-crypto-payment-session"
import type { StorePostCryptoPaymentSessionRefreshType } from "../../validators"
import type { StoreCryptoPaymentStatusResponse } from "../../types"

/**
 * A new invoice for a cart whose invoice expired (or, before any payment, in another coin), keeping
 * the cart. Answers the new invoice as GET /store/crypto/payment-status does; 404 naming the cart (cartNotFound) for a
 * cart that is not ours (or outside the publishable key's sales channels), 400 not_allowed while the invoice can still be paid or holds money.
 */
export const POST = async (req: MedusaStoreRequest<StorePostCryptoPaymentSessionRefreshType>, res: MedusaResponse<StoreCryptoPaymentStatusResponse>): Promise<void> => {
  res.setHeader("Cache-Control", "no-store")
  const { result } = await refreshCryptoPaymentSessionWorkflow(req.scope).run({
    input: { ...req.validatedBody, sales_channel_ids: req.publishable_key_context.sales_channel_ids },
  })
  res.json(result)
}
