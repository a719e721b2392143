import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { approveCryptoWithdrawalWorkflow } from "../../../../../../workflows/admin"
import { answerWithdrawalRun } from "../../../conflict"
import type { AdminApproveCryptoWithdrawalType } from "../../../money-out/validators"
import type { AdminCryptoConflictResponse, AdminCryptoWithdrawalCreatedResponse } from "../../../types"

/**
 * POST /admin/crypto/withdrawals/:id/approve — another admin than the one who asked approves a
 * withdrawal waiting for approval (docs/money-out.md#money-out-policy); it is then sent once, and
 * answered as a new withdrawal is (200, 202 when the outcome is unknown, 4xx when the gateway
 * refused it). Approving it again answers it as recorded (`replayed: true`): nothing is sent twice.
 * 400 for the admin who asked, or a withdrawal not waiting for approval.
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminApproveCryptoWithdrawalType>, res: MedusaResponse<AdminCryptoWithdrawalCreatedResponse | AdminCryptoConflictResponse>) => {
  await answerWithdrawalRun(
    res,
    () => approveCryptoWithdrawalWorkflow(req.scope).run({ input: { id: req.params.id, actor: req.auth_context?.actor_id ?? null, note: req.validatedBody.note ?? null } }),
    "This withdrawal was refused by the gateway"
  )
}
