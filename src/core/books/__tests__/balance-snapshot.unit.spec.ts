import { balanceChartDays, readBalanceHistory, saveSnapshotRows, snapshotRowsOf, type BalanceSnapshotRow, type BalanceSnapshotStore } from "../balance-snapshot"
import type { CryptoBalance, CryptoBalances } from "../balances"

const PROVIDER = "pp_crypto_crypto"

function coin(fields: Partial<CryptoBalance>): CryptoBalance {
  return { psys_cid: "BTC", currency: "BTC", name: "Bitcoin", icon: null, fiat: "EUR", fiat_rate: "70000", balance: "0.5", fiat_value: "35000.00", error: null, ...fields }
}

const balances = (coins: CryptoBalance[]): CryptoBalances => ({ fiat: "EUR", balances: coins, total_fiat_value: "0" })

type Stored = BalanceSnapshotRow & { id: string }

/** Our module's snapshot table in memory, with its unique (provider_id, day, psys_cid). */
function table(options: { raceOn?: string } = {}) {
  const rows: Stored[] = []
  const insert = (row: BalanceSnapshotRow) => {
    if (rows.some((r) => r.provider_id === row.provider_id && r.day === row.day && r.psys_cid === row.psys_cid)) {
      throw new Error('duplicate key value violates unique constraint "IDX_crypto_balance_snapshot_provider_id_day_psys_cid_unique"')
    }
    const stored = { ...row, id: `cbsn_${rows.length}` }
    rows.push(stored)
    return stored
  }
  const store = {
    listCryptoBalanceSnapshots: async (filters: { provider_id: string; day: string | { $gte: string; $lte: string } }) =>
      rows.filter(
        (row) =>
          row.provider_id === filters.provider_id &&
          (typeof filters.day === "string" ? row.day === filters.day : row.day >= filters.day.$gte && row.day <= filters.day.$lte)
      ),
    createCryptoBalanceSnapshots: async (row: BalanceSnapshotRow) => {
      // Another instance inserts the same coin between our read and our insert.
      if (options.raceOn === row.psys_cid) {
        options.raceOn = undefined
        insert({ ...row, balance: "0.4" })
      }
      return insert(row)
    },
  } as unknown as BalanceSnapshotStore // A fake of the two methods the snapshot uses.
  return { rows, store }
}

describe("snapshotRowsOf", () => {
  it("is one row per coin read, on the UTC day it was taken, with its value in the reading's fiat", () => {
    const takenAt = new Date("2026-11-27T00:05:00Z")
    const rows = snapshotRowsOf(balances([coin({}), coin({ psys_cid: "ETH", currency: "ETH", balance: "1.000000000000000001", fiat_value: null, fiat_rate: null })]), PROVIDER, takenAt)
    expect(rows).toEqual([
      { provider_id: PROVIDER, day: "2026-11-27", psys_cid: "BTC", currency: "BTC", balance: "0.5", fiat_currency: "EUR", fiat_value: "35000.00", taken_at: takenAt },
      { provider_id: PROVIDER, day: "2026-11-27", psys_cid: "ETH", currency: "ETH", balance: "1.000000000000000001", fiat_currency: null, fiat_value: null, taken_at: takenAt },
    ])
  })

  it("a moment late in the evening west of Greenwich is already the next UTC day", () => {
    expect(snapshotRowsOf(balances([coin({})]), PROVIDER, new Date("2026-11-26T22:30:00-05:00"))[0].day).toBe("2026-11-27")
  })

  it("a coin whose balance could not be read has no row", () => {
    expect(snapshotRowsOf(balances([coin({ balance: null, fiat_value: null, error: "Reading the BTC balance: timeout" })]), PROVIDER, new Date())).toEqual([])
  })
})

describe("saveSnapshotRows", () => {
  const rowsOf = (takenAt: Date) => snapshotRowsOf(balances([coin({}), coin({ psys_cid: "ETH", currency: "ETH" })]), PROVIDER, takenAt)

  it("stores each coin once per day: a second run of the same day stores nothing", async () => {
    const { rows, store } = table()
    expect(await saveSnapshotRows(store, rowsOf(new Date("2026-11-27T00:05:00Z")))).toEqual({ created: ["BTC", "ETH"], existing: [] })
    expect(await saveSnapshotRows(store, rowsOf(new Date("2026-11-27T18:00:00Z")))).toEqual({ created: [], existing: ["BTC", "ETH"] })
    expect(rows.map((row) => [row.day, row.psys_cid])).toEqual([
      ["2026-11-27", "BTC"],
      ["2026-11-27", "ETH"],
    ])
  })

  it("the next day is a new snapshot", async () => {
    const { rows, store } = table()
    await saveSnapshotRows(store, rowsOf(new Date("2026-11-27T00:05:00Z")))
    expect(await saveSnapshotRows(store, rowsOf(new Date("2026-11-28T00:05:00Z")))).toEqual({ created: ["BTC", "ETH"], existing: [] })
    expect(rows).toHaveLength(4)
  })

  it("an insert refused because another instance stored the coin at the same moment counts as already taken", async () => {
    const { rows, store } = table({ raceOn: "ETH" })
    expect(await saveSnapshotRows(store, rowsOf(new Date("2026-11-27T00:05:00Z")))).toEqual({ created: ["BTC"], existing: ["ETH"] })
    expect(rows.filter((row) => row.psys_cid === "ETH")).toHaveLength(1)
  })

  it("an insert that fails for another reason is thrown", async () => {
    const store = {
      listCryptoBalanceSnapshots: async () => [],
      createCryptoBalanceSnapshots: async () => {
        throw new Error("connection lost")
      },
    } as unknown as BalanceSnapshotStore // A fake whose insert fails.
    await expect(saveSnapshotRows(store, rowsOf(new Date()))).rejects.toThrow("connection lost")
  })
})

describe("balance history", () => {
  it("gives each coin's stored days oldest first, and the days that have a snapshot", async () => {
    const { store } = table()
    await saveSnapshotRows(store, rowsOfDay("2026-11-26", "0.4"))
    await saveSnapshotRows(store, rowsOfDay("2026-11-27", "0.5"))
    await saveSnapshotRows(store, rowsOfDay("2026-10-01", "9"))
    const history = await readBalanceHistory(store, { provider_id: PROVIDER, from: "2026-11-01", to: "2026-11-30" })
    expect(history.days).toEqual(["2026-11-26", "2026-11-27"])
    expect(history.series).toEqual([
      {
        psys_cid: "BTC",
        currency: "BTC",
        points: [
          { day: "2026-11-26", balance: "0.4", fiat_currency: "EUR", fiat_value: "35000.00" },
          { day: "2026-11-27", balance: "0.5", fiat_currency: "EUR", fiat_value: "35000.00" },
        ],
      },
    ])
  })

  it("reads the last 30 UTC days, today included, unless asked", () => {
    expect(balanceChartDays(new Date("2026-11-27T10:00:00Z"))).toEqual({ from: "2026-10-29", to: "2026-11-27" })
    expect(balanceChartDays(new Date("2026-11-27T10:00:00Z"), { to: "2026-03-01" })).toEqual({ from: "2026-01-31", to: "2026-03-01" })
    expect(balanceChartDays(new Date(), { from: "2026-01-01", to: "2026-01-31" })).toEqual({ from: "2026-01-01", to: "2026-01-31" })
  })
})

function rowsOfDay(day: string, balance: string): BalanceSnapshotRow[] {
  return snapshotRowsOf(balances([coin({ balance })]), PROVIDER, new Date(`${day}T00:05:00Z`))
}
