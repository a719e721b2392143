import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { payInOf } from "../../../../../core/payment/deposits"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import type { AdminCryptoDepositCallbacksQueryType } from "../../validators"
import type { AdminCryptoDepositCallbacksResponse } from "../../types"

/**
 * GET /admin/crypto/deposits/callbacks — the verified `pay_in` callbacks recorded by the callback
 * route (spec §6.2), newest first; `uid` filters by the deposit's uid in the database.
 */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoDepositCallbacksQueryType>, res: MedusaResponse<AdminCryptoDepositCallbacksResponse>) => {
  const { uid, limit, offset } = req.validatedQuery
  const [rows, count] = await resolveCryptoModule(req.scope).listAndCountCryptoCallbacks(
    { ipn_type: "pay_in", ...(uid ? { deposit_uid: uid } : {}) },
    { take: limit, skip: offset, order: { created_at: "DESC" } }
  )
  res.json({ callbacks: rows.map(payInOf), count, limit, offset })
}
