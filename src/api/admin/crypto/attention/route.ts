import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { attentionFactsReaders, listAttentionQueue, withAttentionFacts } from "../../../../core/books/attention-queue"
import { resolveCryptoModule } from "../../../../modules/crypto"
import type { AdminCryptoAttentionQueryType } from "./validators"
import type { AdminCryptoAttentionResponse } from "../types"

/**
 * GET /admin/crypto/attention — what needs the merchant's decision: open attention items (late,
 * under- and overpayments, money on duplicate or abandoned invoices, invoices in error, unmatched
 * pay_ins, failed callbacks, payments on orders a person changed) and withdrawals, refunds and
 * exchanges with an unknown outcome, each with its evidence, amount and coin, and `facts`: the
 * order, the invoice's amounts in its coin and in the store's currency, the gateway's status in
 * words, when (docs/attention.md#reading-an-item).
 */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoAttentionQueryType>, res: MedusaResponse<AdminCryptoAttentionResponse>) => {
  const { limit, offset } = req.validatedQuery
  const { items, count } = await listAttentionQueue(resolveCryptoModule(req.scope), { limit, offset })
  res.json({ items: await withAttentionFacts(items, attentionFactsReaders(req.scope)), count, limit, offset })
}
