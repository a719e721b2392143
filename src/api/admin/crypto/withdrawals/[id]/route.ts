import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { isUnproven } from "../../../../../core/money-out/withdrawal"
import { listWithdrawalCandidates } from "../../../../../core/money-out/withdrawal-search"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import type { AdminCryptoWithdrawalResponse } from "../../types"

/**
 * GET /admin/crypto/withdrawals/:id — one recorded withdrawal; while its outcome is unknown, with
 * `candidates`: the operations that could be it (same type and coin, created at or after the
 * request), each with why, for the merchant to resolve it (POST …/resolve).
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminCryptoWithdrawalResponse>) => {
  const [withdrawal] = await resolveCryptoModule(req.scope).listCryptoWithdrawals({ id: req.params.id }, { take: 1 })
  if (withdrawal === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Withdrawal ${req.params.id} was not found`)
  }
  const candidates = isUnproven(withdrawal) ? await listWithdrawalCandidates(req.scope, withdrawal) : []
  res.json({ withdrawal, candidates })
}
