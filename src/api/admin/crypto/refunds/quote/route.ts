import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { quoteCryptoRefund } from "../../../../../core/money-out/refund"
import type { AdminCryptoRefundQuoteType } from "../../validators"

/** POST /admin/crypto/refunds/quote — the coin amount a fiat refund sends at the current rate. Sends nothing. */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCryptoRefundQuoteType>, res: MedusaResponse) => {
  res.json({ quote: await quoteCryptoRefund(req.scope, req.validatedBody) })
}
