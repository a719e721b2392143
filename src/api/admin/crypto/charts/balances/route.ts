import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { readBalanceHistory } from "../../../../../core/books/balance-snapshot"
import { resolveCryptoProviderEntry } from "../../../../../core/config/provider-entry"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import { snapshotCryptoBalancesWorkflow } from "../../../../../workflows/snapshot-crypto-balances"
import type { AdminCryptoBalanceChartQueryType, AdminCryptoTakeBalanceSnapshotType } from "../validators"
import type { AdminCryptoBalanceChartResponse, AdminCryptoBalanceSnapshotResponse } from "../../types"

/**
 * GET /admin/crypto/charts/balances?from&to&provider_id — the daily balance snapshots of each coin
 * (docs/books.md#balances-over-time), from the stored rows only (no gateway call). Default: the
 * last 30 UTC days, today included; the first configured provider.
 */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoBalanceChartQueryType>, res: MedusaResponse<AdminCryptoBalanceChartResponse>) => {
  const { providerId } = resolveCryptoProviderEntry(req.scope, req.validatedQuery.provider_id)
  const history = await readBalanceHistory(resolveCryptoModule(req.scope), { ...req.validatedQuery, provider_id: providerId })
  res.json({ ...history, provider_id: providerId })
}

/**
 * POST /admin/crypto/charts/balances — takes today's balance snapshot now, as the daily job would
 * (docs/books.md#balance-snapshots): a fresh install need not wait for the first night. The same
 * workflow, so still one row per provider, UTC day and coin; a coin already taken today is left.
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCryptoTakeBalanceSnapshotType>, res: MedusaResponse<AdminCryptoBalanceSnapshotResponse>) => {
  const { providerId } = resolveCryptoProviderEntry(req.scope, req.validatedBody.provider_id)
  const { result } = await snapshotCryptoBalancesWorkflow(req.scope).run({ input: { provider_id: providerId } })
  res.json({ snapshots: result })
}
