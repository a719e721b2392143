import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { revokeCryptoRefundClaimWorkflow } from "../../../../../../workflows/admin/create-crypto-refund-claim"
import type { AdminCryptoRefundClaimRevokeResponse } from "../../../types"

/** POST /admin/crypto/refund-claims/:id/revoke — the link stops working; only while it waits for the customer's address. */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminCryptoRefundClaimRevokeResponse>) => {
  const { result } = await revokeCryptoRefundClaimWorkflow(req.scope).run({ input: { id: req.params.id, revoked_by: req.auth_context?.actor_id ?? null } })
  res.json({ claim: { id: result.id, status: result.status, revoked_at: result.revoked_at, revoked_by: result.revoked_by } })
}
