import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { reconcileCryptoWithdrawalWorkflow } from "../../../../../../workflows/admin"
import type { AdminCryptoWithdrawalReconcileResponse } from "../../../types"

/**
 * POST /admin/crypto/withdrawals/:id/reconcile — settle it from the gateway's operations; never
 * resends. Answers `{ withdrawal, candidates }`: the candidates while the outcome stays unknown.
 */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminCryptoWithdrawalReconcileResponse>) => {
  const { result } = await reconcileCryptoWithdrawalWorkflow(req.scope).run({ input: { id: req.params.id } })
  res.json(result)
}
