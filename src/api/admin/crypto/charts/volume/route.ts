import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { readVolumeChart, storeDefaultCurrency } from "../../../../../core/books/charts"
import { resolveCryptoProviderEntry } from "../../../../../core/config/provider-entry"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import type { AdminCryptoVolumeChartQueryType } from "../validators"
import type { AdminCryptoVolumeChartResponse } from "../../types"

/**
 * GET /admin/crypto/charts/volume?interval=day|week|month&from&to&provider_id&currency — the coins
 * the books count as received (invoices that received coins, completed deposits) per coin and UTC
 * bucket, and their value in the store's currency (docs/books.md#received-volume). Default period: the last 30 days,
 * 26 weeks or 12 months; every provider unless one is named.
 */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoVolumeChartQueryType>, res: MedusaResponse<AdminCryptoVolumeChartResponse>) => {
  const { interval, period, provider_id, currency } = req.validatedQuery
  const providerId = provider_id === undefined ? undefined : resolveCryptoProviderEntry(req.scope, provider_id).providerId
  const chart = await readVolumeChart(resolveCryptoModule(req.scope), {
    interval,
    period,
    fiat_currency: currency ?? (await storeDefaultCurrency(req.scope)),
    provider_id: providerId,
  })
  res.json({ ...chart, provider_id: providerId ?? null })
}
