import type CryptoModuleService from "../../modules/crypto/service"
import type { CryptoBalances } from "./balances"
import { DEFAULT_BUCKETS, utcDay } from "./charts"

/**
 * The daily balance snapshot (docs/books.md#balance-snapshots): one row per provider, UTC day and
 * coin in `crypto_balance_snapshot`, whose unique (`provider_id`, `day`, `psys_cid`) makes the
 * daily job idempotent per day and safe when two instances run it at once.
 */

/** One coin's row of a day's snapshot, as stored. */
export interface BalanceSnapshotRow {
  provider_id: string
  /** The UTC day the balance was read on, `YYYY-MM-DD`. */
  day: string
  psys_cid: string
  currency: string | null
  /** A decimal string in the coin `psys_cid`. */
  balance: string
  fiat_currency: string | null
  /** `balance` in `fiat_currency` at the gateway's rate of that moment (rounded down, src/core/books/balances.ts); null without a rate. */
  fiat_value: string | null
  taken_at: Date
}

/**
 * The rows of the snapshot of `takenAt`'s UTC day from a reading of the balances
 * (`readCryptoBalances`): one per coin whose balance was read; a coin whose reading failed has no
 * row (the next run of the same day may still take it).
 */
export function snapshotRowsOf(balances: CryptoBalances, providerId: string, takenAt: Date): BalanceSnapshotRow[] {
  const day = utcDay(takenAt)
  return balances.balances.flatMap((coin) =>
    coin.balance === null || coin.error !== null
      ? []
      : [
          {
            provider_id: providerId,
            day,
            psys_cid: coin.psys_cid,
            currency: coin.currency,
            balance: coin.balance,
            fiat_currency: coin.fiat_value === null ? null : balances.fiat,
            fiat_value: coin.fiat_value,
            taken_at: takenAt,
          },
        ]
  )
}

/** The reads and the insert the snapshot needs of our module (a fake in unit tests). */
export type BalanceSnapshotStore = Pick<CryptoModuleService, "listCryptoBalanceSnapshots" | "createCryptoBalanceSnapshots">

export interface SavedSnapshot {
  /** Coins this call stored. */
  created: string[]
  /** Coins whose row of that day was already there (an earlier run, or another instance at the same moment). */
  existing: string[]
}

/** The coins of a provider's day that already have a row. */
export async function snapshotCoinsOf(store: Pick<BalanceSnapshotStore, "listCryptoBalanceSnapshots">, providerId: string, day: string): Promise<Set<string>> {
  const rows = await store.listCryptoBalanceSnapshots({ provider_id: providerId, day }, { select: ["psys_cid"] })
  return new Set(rows.map((row) => row.psys_cid))
}

/**
 * Stores the rows whose (provider, day, coin) has none yet, one insert per coin. An insert that
 * fails is looked up again: when the row is there now (another instance inserted it at the same
 * moment, the unique index refused ours) it counts as already taken; otherwise the error is thrown.
 */
export async function saveSnapshotRows(store: BalanceSnapshotStore, rows: readonly BalanceSnapshotRow[]): Promise<SavedSnapshot> {
  const saved: SavedSnapshot = { created: [], existing: [] }
  const known = new Map<string, Set<string>>()
  for (const row of rows) {
    const key = `${row.provider_id}\u0000${row.day}`
    const coins = known.get(key) ?? (await snapshotCoinsOf(store, row.provider_id, row.day))
    known.set(key, coins)
    if (coins.has(row.psys_cid)) {
      saved.existing.push(row.psys_cid)
      continue
    }
    try {
      await store.createCryptoBalanceSnapshots(row)
      saved.created.push(row.psys_cid)
    } catch (error) {
      if (!(await snapshotCoinsOf(store, row.provider_id, row.day)).has(row.psys_cid)) throw error
      saved.existing.push(row.psys_cid)
    }
    coins.add(row.psys_cid)
  }
  return saved
}

/** One coin's balance on one day, for the balances chart. */
export interface BalanceHistoryPoint {
  day: string
  balance: string
  fiat_currency: string | null
  fiat_value: string | null
}

export interface BalanceHistorySeries {
  psys_cid: string
  currency: string | null
  points: BalanceHistoryPoint[]
}

export interface BalanceHistory {
  from: string
  to: string
  /** Every UTC day of the period that has at least one snapshot row, oldest first. */
  days: string[]
  series: BalanceHistorySeries[]
}

/** The most days the balances chart reads at once (two years). */
export const MAX_BALANCE_DAYS = 732

/**
 * The stored snapshots of a provider from `from` to `to` (UTC days, inclusive), per coin, oldest
 * first. Bounded by the period (at most MAX_BALANCE_DAYS days, checked by the route's validator).
 */
export async function readBalanceHistory(
  store: Pick<BalanceSnapshotStore, "listCryptoBalanceSnapshots">,
  input: { provider_id: string; from: string; to: string }
): Promise<BalanceHistory> {
  const rows = await store.listCryptoBalanceSnapshots(
    { provider_id: input.provider_id, day: { $gte: input.from, $lte: input.to } },
    { order: { day: "ASC", psys_cid: "ASC" } }
  )
  const byCoin = new Map<string, BalanceHistorySeries>()
  const days = new Set<string>()
  for (const row of rows) {
    const series = byCoin.get(row.psys_cid) ?? { psys_cid: row.psys_cid, currency: row.currency, points: [] }
    byCoin.set(row.psys_cid, series)
    series.points.push({ day: row.day, balance: row.balance, fiat_currency: row.fiat_currency, fiat_value: row.fiat_value })
    days.add(row.day)
  }
  return { from: input.from, to: input.to, days: [...days].sort(), series: [...byCoin.values()].sort((a, b) => a.psys_cid.localeCompare(b.psys_cid)) }
}

/** The days the balances chart reads: what was asked, else the last 30 UTC days up to `to` (default today). */
export function balanceChartDays(now: Date, asked: { from?: string; to?: string } = {}): { from: string; to: string } {
  const to = asked.to ?? utcDay(now)
  const from = asked.from ?? utcDay(new Date(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_BUCKETS.day - 1) * 24 * 3600 * 1000))
  return { from, to }
}
