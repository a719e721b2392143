import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { resolveCryptoModuleService } from "../../../../../workflows/admin/lib/gateway"

/** GET /admin/crypto/withdrawals/:id — one recorded withdrawal. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const [withdrawal] = await resolveCryptoModuleService(req.scope).listCryptoWithdrawals({ id: req.params.id }, { take: 1 })
  if (withdrawal === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Withdrawal ${req.params.id} was not found`)
  }
  res.json({ withdrawal })
}
