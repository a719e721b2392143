import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { requestCryptoReconcileWorkflow } from "../../../../workflows/admin/request-crypto-reconcile"
import type { AdminCryptoReconcileResponse } from "../types"

/**
 * POST /admin/crypto/reconcile — **Reconcile now**: the reconciliation the job runs every minute, at
 * once and for every pending invoice and unprocessed delivery however recent (docs/production.md#reconciliation).
 * It runs on a worker; the answer (202) says when it was asked for. It reads no body.
 */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminCryptoReconcileResponse>) => {
  const { result } = await requestCryptoReconcileWorkflow(req.scope).run({ input: { older_than_seconds: 0, requested_by: req.auth_context?.actor_id ?? null } })
  res.status(202).json(result)
}
