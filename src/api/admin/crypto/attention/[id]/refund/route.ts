import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { refundCryptoAttentionWorkflow } from "../../../../../../workflows/admin"
import type { AdminRefundCryptoAttentionType } from "../../validators"
import type { AdminCryptoAttentionRefundResponse } from "../../../types"

/**
 * POST /admin/crypto/attention/:id/refund — sends the item's amount, in its coin, to `address` as a
 * crypto refund (a recorded withdrawal, sent once). 200 when sent (the item is resolved), 202 when
 * the outcome is unknown (the item stays open until the withdrawal is resolved).
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminRefundCryptoAttentionType>, res: MedusaResponse<AdminCryptoAttentionRefundResponse>) => {
  const { result } = await refundCryptoAttentionWorkflow(req.scope).run({
    input: { id: req.params.id, ...req.validatedBody, requested_by: req.auth_context?.actor_id ?? null },
  })
  if (result.replayed && result.withdrawal.status === "rejected") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, result.withdrawal.error_message ?? "This refund was refused by the gateway")
  }
  res.status(result.withdrawal.status === "outcome_unknown" ? 202 : 200).json(result)
}
