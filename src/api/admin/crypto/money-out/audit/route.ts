import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { resolveCryptoProviderEntry } from "../../../../../core/config/provider-entry"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import type { AdminCryptoMoneyOutAuditResponse } from "../../types"
import type { AdminCryptoMoneyOutAuditQueryType } from "../validators"

/** GET /admin/crypto/money-out/audit — every decision of the money-out policy, newest first: who, when, what, which rule, which address-book entries (History). */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoMoneyOutAuditQueryType>, res: MedusaResponse<AdminCryptoMoneyOutAuditResponse>) => {
  const { provider_id, subject_id, limit, offset } = req.validatedQuery
  const entry = resolveCryptoProviderEntry(req.scope, provider_id)
  const [entries, count] = await resolveCryptoModule(req.scope).listAndCountCryptoMoneyOutAudits(
    { provider_id: entry.providerId, ...(subject_id === undefined ? {} : { subject_id }) },
    { take: limit, skip: offset, order: { created_at: "DESC" } }
  )
  res.json({ entries, count, limit, offset })
}
