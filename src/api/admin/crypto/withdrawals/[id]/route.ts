import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { resolveCryptoModule } from "../../../../../modules/crypto"

/** GET /admin/crypto/withdrawals/:id — one recorded withdrawal. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const [withdrawal] = await resolveCryptoModule(req.scope).listCryptoWithdrawals({ id: req.params.id }, { take: 1 })
  if (withdrawal === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Withdrawal ${req.params.id} was not found`)
  }
  res.json({ withdrawal })
}
