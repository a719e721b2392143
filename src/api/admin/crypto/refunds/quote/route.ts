import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { quoteCryptoRefund } from "../../../../../core/money-out/refund"
import type { AdminCryptoRefundQuoteType } from "../../validators"
import type { AdminCryptoRefundQuoteResponse } from "../../types"

/** POST /admin/crypto/refunds/quote — the coin amount a fiat refund sends at the current rate. Sends nothing. */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCryptoRefundQuoteType>, res: MedusaResponse<AdminCryptoRefundQuoteResponse>) => {
  res.json({ quote: await quoteCryptoRefund(req.scope, req.validatedBody) })
}
