import type { MedusaResponse, MedusaStoreRequest } from "@medusajs/framework/http"
import { getCryptoPaymentStatusWorkflow } from "../../../../workflows/get-crypto-payment-status"
import type { StoreGetCryptoPaymentStatusType } from "../validators"
import type { StoreCryptoPaymentStatusResponse } from "../types"

/**
 * Where the cart's current crypto invoice stands, for the storefront's payment view and return page:
 * the white-label fields, the status, the order id once placed, and money on invoices the cart no
 * longer uses (`abandoned_payments`, never the cart's payment). Read from our mirror, re-read
 * from the gateway only when stale (docs/storefront.md, "How fresh is the payment status"). Never
 * cached: a shopper's browser or a CDN must not answer a poll with an old status.
 * 404 naming the cart (cartNotFound) for an unknown cart, a cart outside the publishable key's sales channels and a
 * cart without a crypto invoice alike.
 */
export const GET = async (req: MedusaStoreRequest<unknown, StoreGetCryptoPaymentStatusType>, res: MedusaResponse<StoreCryptoPaymentStatusResponse>): Promise<void> => {
  res.setHeader("Cache-Control", "no-store")
  const { result } = await getCryptoPaymentStatusWorkflow(req.scope).run({
    input: { cart_id: req.validatedQuery.cart_id as string, sales_channel_ids: req.publishable_key_context.sales_channel_ids },
  })
  res.json(result)
}
