import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { resolveCryptoWithdrawalWorkflow } from "../../../../../../workflows/admin"
import type { AdminResolveCryptoWithdrawalType } from "../../../validators"
import type { AdminCryptoWithdrawalResolveResponse } from "../../../types"

/**
 * POST /admin/crypto/withdrawals/:id/resolve — the merchant settles a withdrawal or crypto refund
 * whose outcome the gateway did not prove: `{ resolution: "operation", operation_id }` (this
 * operation is it) or `{ resolution: "not_sent", note }` (confirmed not sent after checking the
 * gateway; only this allows the same payment again after an unknown outcome), or, for a withdrawal
 * that failed at the gateway (status `error`, guard kept), `{ resolution: "failed", note }`: allow
 * sending the same payment again (docs/money-out.md#failed-at-the-gateway). Recorded with the
 * admin user and the time.
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminResolveCryptoWithdrawalType>, res: MedusaResponse<AdminCryptoWithdrawalResolveResponse>) => {
  const { result } = await resolveCryptoWithdrawalWorkflow(req.scope).run({
    input: { ...req.validatedBody, id: req.params.id, resolved_by: req.auth_context?.actor_id ?? null },
  })
  res.json({ withdrawal: result })
}
