import type { ConfigModule, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { saveSnapshotRows, snapshotRowsOf } from "../../core/books/balance-snapshot"
import { readCryptoBalances } from "../../core/books/balances"
import { storeDefaultCurrency, utcDay, utcMomentOf } from "../../core/books/charts"
import { failureReason } from "../../core/errors"
import { listCryptoProviderEntries, resolveCryptoProvider } from "../../core/config/provider-entry"
import { resolveCryptoModule } from "../../modules/crypto"

export interface SnapshotCryptoBalancesStepInput {
  /** Only this provider (`pp_crypto_<id>` or `<id>`); every configured crypto provider when absent. */
  provider_id?: string
  /** The snapshot's moment, ISO 8601 (`2026-11-01T00:05:00Z`); its UTC day is the rows' day. The workflow's default: its start. */
  taken_at: string
}

export interface SnapshottedProvider {
  provider_id: string
  day: string
  /** Coins stored by this run. */
  created: string[]
  /** Coins whose row of the day was already there. */
  existing: string[]
  /** Coins whose balance could not be read (no row; a later run of the same day may take it). */
  unread: string[]
  /** Why the provider was skipped (its coin list could not be read), or null. */
  error: string | null
}

export const snapshotCryptoBalancesStepId = "snapshot-crypto-balances"

/**
 * Reads every crypto provider's balances from the gateway (spec §4.8, §4.9) and stores the row of
 * `taken_at`'s UTC day of each coin that has none (docs/books.md#balance-snapshots). Idempotent and
 * forward-only, so no compensation: a second run of the same UTC day, on this or another
 * instance, finds the rows (or loses the insert to the unique index) and stores nothing new. One
 * provider failing is logged and does not stop the others.
 */
export const snapshotCryptoBalancesStep = createStep(snapshotCryptoBalancesStepId, async (input: SnapshotCryptoBalancesStepInput, { container }) => {
  const takenAt = utcMomentOf(input.taken_at)
  if (takenAt === null) throw new MedusaError(MedusaError.Types.INVALID_DATA, 'taken_at must be an ISO 8601 UTC date such as "2026-11-01T00:05:00Z"')
  const day = utcDay(takenAt)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const store = resolveCryptoModule(container)
  const entries = listCryptoProviderEntries(container.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)).filter(
    (entry) => input.provider_id === undefined || entry.providerId === input.provider_id || entry.entryId === input.provider_id
  )
  const fiat = await storeDefaultCurrency(container)
  const results: SnapshottedProvider[] = []
  for (const entry of entries) {
    try {
      const { options, client } = await resolveCryptoProvider(container, entry.providerId)
      const balances = await readCryptoBalances(client, options, fiat)
      const saved = await saveSnapshotRows(store, snapshotRowsOf(balances, entry.providerId, takenAt))
      const unread = balances.balances.filter((coin) => coin.balance === null || coin.error !== null).map((coin) => coin.psys_cid)
      results.push({ provider_id: entry.providerId, day, ...saved, unread, error: null })
    } catch (error) {
      const reason = failureReason(error)
      logger.warn(`crypto balance snapshot: ${entry.providerId} skipped: ${reason}`)
      results.push({ provider_id: entry.providerId, day, created: [], existing: [], unread: [], error: reason })
    }
  }
  return new StepResponse(results)
})
