import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { listAttentionQueue } from "../../../../core/attention-queue"
import { resolveCryptoModule } from "../../../../modules/crypto"
import type { AdminCryptoAttentionQueryType } from "./validators"

/**
 * GET /admin/crypto/attention — what needs the merchant's decision: open attention items (late,
 * under- and overpayments, money on duplicate or abandoned invoices, invoices in error, unmatched
 * pay_ins, failed callbacks) and withdrawals, refunds and exchanges with an unknown outcome, each
 * with its evidence, amount and coin (docs/attention.md).
 */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoAttentionQueryType>, res: MedusaResponse) => {
  const { limit, offset } = req.validatedQuery
  const { items, count } = await listAttentionQueue(resolveCryptoModule(req.scope), { limit, offset })
  res.json({ items, count, limit, offset })
}
