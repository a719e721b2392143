import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { balanceChartDays, readBalanceHistory } from "../../../../../core/balance-snapshot"
import { resolveCryptoProviderEntry } from "../../../../../core/provider-entry"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import type { AdminCryptoBalanceChartResponse } from "../types"
import type { AdminCryptoBalanceChartQueryType } from "../validators"

/**
 * GET /admin/crypto/charts/balances?from&to&provider_id — the daily balance snapshots of each coin
 * (docs/books.md#balances-over-time), from the stored rows only (no gateway call). Default: the
 * last 30 UTC days, today included; the first configured provider.
 */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoBalanceChartQueryType>, res: MedusaResponse<AdminCryptoBalanceChartResponse>) => {
  const { providerId } = resolveCryptoProviderEntry(req.scope, req.validatedQuery.provider_id)
  const days = balanceChartDays(new Date(), { from: req.validatedQuery.from, to: req.validatedQuery.to })
  const history = await readBalanceHistory(resolveCryptoModule(req.scope), { provider_id: providerId, ...days })
  res.json({ ...history, provider_id: providerId })
}
