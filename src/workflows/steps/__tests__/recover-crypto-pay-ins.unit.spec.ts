import { Decimal } from "decimal.js"
import { GatewayServerError, type Deposit, type Operation, type OperationList } from "../../../gateway"
import type { CryptoCallbackDelivery } from "../../../modules/crypto/callback-upsert"
import { PAY_IN_CURSOR, recoverPayIns as recoverPayInsAt, type PayInRecoveryDeps, type PayInRecoveryLimits } from "../recover-crypto-pay-ins"

const payInOperation = (id: string, created: number, extra: Partial<Operation> = {}): Operation => ({
  id,
  type: "pay_in",
  status: "completed",
  tx_url: [`https://x/tx/${id}`],
  psys_cid: "LTC",
  currency: "LTC",
  wallet_hash: "ltc1qcustomer",
  amount: new Decimal("1.25"),
  confirmations: 6,
  created_at_utc: created,
  ...extra,
})

/** The gateway's two lists (newest first, as the sandbox pages them) and our rows, in memory. */
function world(operations: Operation[], deposits: Deposit[] = [{ uid: "cus_1", hash: "ltc1qcustomer", psys_cid: "LTC" }]) {
  const rows: Array<CryptoCallbackDelivery & { id: string }> = []
  const pagesRead: number[] = []
  const cursors = new Map<string, string>()
  let depositsFail = false
  const deps: PayInRecoveryDeps = {
    providerId: "pp_crypto_crypto",
    operations: {
      retrieve: async (id) => {
        const found = operations.find((operation) => operation.id === id)
        if (found === undefined) throw new Error(`no operation ${id}`)
        return found
      },
      list: async ({ page = 1, limit = 20 }) => {
        pagesRead.push(page)
        const sorted = [...operations].sort((a, b) => (b.created_at_utc ?? 0) - (a.created_at_utc ?? 0))
        const pageCount = Math.max(1, Math.ceil(sorted.length / limit))
        const result: OperationList = {
          operations: sorted.slice((page - 1) * limit, page * limit),
          _links: {},
          _meta: { totalCount: sorted.length, pageCount, currentPage: page, perPage: limit },
        } as OperationList
        return result
      },
    },
    deposits: {
      list: async ({ page = 1, limit = 20 }) => {
        if (depositsFail) throw new GatewayServerError(500, { code: 108, message: "internal server error" })
        return deposits.slice((page - 1) * limit, page * limit)
      },
    },
    store: {
      readCursor: async (name) => cursors.get(name) ?? null,
      // As the module does: the larger position wins.
      advanceCursor: async (name, position) => {
        const current = cursors.get(name)
        cursors.set(name, current === undefined || BigInt(position) > BigInt(current) ? position : current)
      },
      openPayIns: async () => {
        const completed = new Set(rows.filter((row) => row.status === "completed").map((row) => row.txn_id))
        return rows.filter((row) => row.txn_id !== null && !completed.has(row.txn_id)).map((row) => ({ txn_id: row.txn_id as string, deposit_uid: (row.fields.deposit_uid as string | null) ?? null }))
      },
      storedStates: async (txnIds) => rows.filter((row) => row.txn_id !== null && txnIds.includes(row.txn_id)).map((row) => ({ txn_id: row.txn_id, status: row.status })),
      insertOnce: async (delivery) => {
        if (rows.some((row) => row.content_hash === delivery.content_hash)) return null
        const id = `ccb_${rows.length + 1}`
        rows.push({ ...delivery, id })
        return id
      },
    },
  }
  return {
    deps,
    rows,
    pagesRead,
    cursor: () => cursors.get(PAY_IN_CURSOR) ?? null,
    setCursor: (position: string) => cursors.set(PAY_IN_CURSOR, position),
    failDeposits: () => {
      depositsFail = true
    },
  }
}

const limits = { perPage: 2, maxPages: 20, overlapSeconds: 600, maxDepositPages: 5, maxOpenReads: 5 }
/** The install: before every operation of these tests but those a test makes older on purpose. */
const INSTALLED = 1_789_000_000
const recoverPayIns = (deps: PayInRecoveryDeps, at: PayInRecoveryLimits = limits, now = INSTALLED) => recoverPayInsAt(deps, at, now)

describe("recovering deposits whose callbacks were lost from the operations list", () => {
  it("records a pay_in no callback reported, linked to the customer its address belongs to, and moves the cursor to the newest read", async () => {
    const { deps, rows, cursor } = world([payInOperation("PI-1", 1_790_000_000)])
    const result = await recoverPayIns(deps, limits)
    expect(result).toEqual({ recorded_ids: ["ccb_1"], read: 1, complete: true })
    expect(rows).toEqual([
      expect.objectContaining({
        format: "operation",
        ipn_type: "pay_in",
        txn_id: "PI-1",
        status: "completed",
        fields: expect.objectContaining({ deposit_uid: "cus_1", amount: "1.25", psys_cid: "LTC", currency: "LTC", wallet_hash: "ltc1qcustomer" }),
      }),
    ])
    expect(cursor()).toBe("1790000000")
  })

  it("records a pay_in once however often it is read (a second run, another instance)", async () => {
    const { deps, rows } = world([payInOperation("PI-1", 1_790_000_000)])
    await recoverPayIns(deps, limits)
    const again = await recoverPayIns(deps, limits)
    expect(again.recorded_ids).toEqual([])
    expect(rows).toHaveLength(1)
  })

  it("does not record a pay_in whose callback with that state is stored", async () => {
    const { deps, rows } = world([payInOperation("PI-1", 1_790_000_000)])
    rows.push({ id: "ccb_cb", provider_id: "pp_crypto_crypto", content_hash: "delivered", format: "json", fields: {}, ipn_type: "pay_in", txn_id: "PI-1", order_number: null, switch_id: null, status: "completed" })
    expect((await recoverPayIns(deps, limits)).recorded_ids).toEqual([])
  })

  it("records a pay_in whose address no deposit of the shop has without a uid (raised as unmatched_pay_in when processed)", async () => {
    const { deps, rows } = world([payInOperation("PI-9", 1_790_000_000, { wallet_hash: "ltc1qstranger" })])
    await recoverPayIns(deps, limits)
    expect(rows[0].fields).toMatchObject({ deposit_uid: null, wallet_hash: "ltc1qstranger" })
  })

  it("reads from the newest back to the cursor only, not the whole history, on the next run", async () => {
    const old = Array.from({ length: 6 }, (_, i) => payInOperation(`PI-OLD-${i}`, 1_790_000_000 + i * 3600))
    const w = world(old)
    await recoverPayIns(w.deps, limits)
    w.pagesRead.length = 0
    old.push(payInOperation("PI-NEW", 1_790_000_000 + 48 * 3600))
    const next = await recoverPayIns(w.deps, limits)
    expect(next.recorded_ids).toHaveLength(1)
    expect(w.rows.at(-1)?.txn_id).toBe("PI-NEW")
    expect(w.pagesRead).toEqual([1, 2])
    expect(w.cursor()).toBe(String(1_790_000_000 + 48 * 3600))
  })

  it("records nothing and keeps the cursor when the deposit list cannot be read (an unknown answer is no evidence of a stranger)", async () => {
    const w = world([payInOperation("PI-1", 1_790_000_000)])
    w.failDeposits()
    await expect(recoverPayIns(w.deps, limits)).rejects.toThrow()
    expect(w.rows).toEqual([])
    // Where the first read starts (the install), not moved by what it read.
    expect(w.cursor()).toBe(String(INSTALLED - limits.overlapSeconds))
  })

  it("records the completion of a pay_in seen pending, whose completed callback was lost, once the list no longer reaches it", async () => {
    const operations = [payInOperation("PI-SLOW", 1_790_000_000, { status: "pending", confirmations: 0 }), payInOperation("PI-MID", 1_790_000_000 + 24 * 3600)]
    const w = world(operations)
    await recoverPayIns(w.deps, limits)
    operations.push(payInOperation("PI-LATER", 1_790_000_000 + 48 * 3600))
    Object.assign(operations[0], { status: "completed", confirmations: 6 })
    const result = await recoverPayIns(w.deps, limits)
    expect(w.rows.map((row) => `${row.txn_id} ${row.status}`)).toEqual(["PI-MID completed", "PI-SLOW pending", "PI-LATER completed", "PI-SLOW completed"])
    expect(w.rows.at(-1)?.fields).toMatchObject({ deposit_uid: "cus_1", amount: "1.25" })
    expect(result.recorded_ids).toHaveLength(2)
  })

  it("keeps the cursor when a run stops at its page limit before reaching it", async () => {
    const w = world(Array.from({ length: 5 }, (_, i) => payInOperation(`PI-${i}`, 1_790_000_000 + i)))
    w.setCursor(String(1_780_000_000))
    const result = await recoverPayIns(w.deps, { ...limits, maxPages: 2 })
    expect(result.complete).toBe(false)
    expect(w.cursor()).toBe(String(1_780_000_000))
  })

  it("starts at the install: the first read records no pay_in from before it, the next one what came after", async () => {
    const operations = [payInOperation("PI-HISTORY", INSTALLED - 86_400)]
    const w = world(operations)
    expect(await recoverPayIns(w.deps)).toMatchObject({ recorded_ids: [], complete: true })
    expect(w.cursor()).toBe(String(INSTALLED - limits.overlapSeconds))
    operations.push(payInOperation("PI-AFTER", INSTALLED + 60))
    await recoverPayIns(w.deps, limits, INSTALLED + 120)
    expect(w.rows.map((row) => row.txn_id)).toEqual(["PI-AFTER"])
  })

  it("goes on with a read longer than one run's pages over the next runs, then moves the cursor, however long the history", async () => {
    const operations = Array.from({ length: 9 }, (_, i) => payInOperation(`PI-${i}`, 1_790_000_000 + i * 60))
    const w = world(operations)
    w.setCursor(String(1_780_000_000))
    const short = { ...limits, maxPages: 2 }
    const runs: number[][] = []
    let complete = false
    for (let run = 0; run < 4 && !complete; run += 1) {
      w.pagesRead.length = 0
      // A new deposit arrives between runs: it pushes the rest of the read a place further.
      if (run === 1) operations.push(payInOperation("PI-NEW", 1_790_000_000 + 3600))
      complete = (await recoverPayIns(w.deps, short)).complete
      runs.push([...w.pagesRead])
    }
    expect(runs).toEqual([[1, 2], [3, 4], [5]])
    expect(new Set(w.rows.map((row) => row.txn_id))).toEqual(new Set(operations.filter((o) => o.id !== "PI-NEW").map((o) => o.id)))
    expect(w.cursor()).toBe(String(1_790_000_000 + 8 * 60))
    // The deposit that came during the read is the next read's.
    await recoverPayIns(w.deps, short)
    expect(w.rows.map((row) => row.txn_id)).toContain("PI-NEW")
  })
})
