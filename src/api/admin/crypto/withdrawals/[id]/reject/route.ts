import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { rejectCryptoWithdrawalWorkflow } from "../../../../../../workflows/admin"
import type { AdminRejectCryptoWithdrawalType } from "../../../money-out/validators"
import type { AdminCryptoWithdrawalRejectResponse } from "../../../types"

/** POST /admin/crypto/withdrawals/:id/reject — reject a withdrawal waiting for approval, with a note: nothing is sent (docs/money-out.md#money-out-policy). */
export const POST = async (req: AuthenticatedMedusaRequest<AdminRejectCryptoWithdrawalType>, res: MedusaResponse<AdminCryptoWithdrawalRejectResponse>) => {
  const { result } = await rejectCryptoWithdrawalWorkflow(req.scope).run({ input: { id: req.params.id, actor: req.auth_context?.actor_id ?? null, note: req.validatedBody.note } })
  res.json({ withdrawal: result })
}
