import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { getCryptoPaymentStatusWorkflow } from "../../../../workflows/get-crypto-payment-status"
import type { StoreGetCryptoPaymentStatusType } from "../validators"

/**
 * Where the cart's active crypto invoice stands, for the storefront's payment view and return page:
 * the white-label fields, the status, and the order id once placed. Read from our mirror, re-read
 * from the gateway only when stale (docs/storefront.md, "How fresh is the payment status"). Never
 * cached: a shopper's browser or a CDN must not answer a poll with an old status.
 * 404 "Not found" for an unknown cart and a cart without a crypto invoice alike.
 */
export const GET = async (req: MedusaRequest<unknown, StoreGetCryptoPaymentStatusType>, res: MedusaResponse): Promise<void> => {
  res.setHeader("Cache-Control", "no-store")
  const { result } = await getCryptoPaymentStatusWorkflow(req.scope).run({ input: { cart_id: req.validatedQuery.cart_id as string } })
  res.json(result)
}
