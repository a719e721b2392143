import { Writable } from "stream"
import { parse } from "csv-parse/sync"
import {
  attentionRows,
  BOOKS_COLUMNS,
  BOOKS_ROW_KINDS,
  BooksTotals,
  exchangeRows,
  invoiceRows,
  payInRows,
  withdrawalRows,
  type BooksAttention,
  type BooksInvoice,
  type BooksWithdrawal,
} from "../export"
import { booksRows, type BooksSql } from "../export-source"
import { writeBooksCsv, writeBooksJson } from "../export-write"
import { invoiceRate } from "../../payment/invoice-books"

// The model types `recipients` (a json column) as a record; it holds an array of lines.
const lines = (list: Array<{ address: string; amount: string }>) => list as unknown as Record<string, unknown>

const at = new Date("2026-11-03T10:15:00.000Z")

const invoice = (over: Partial<BooksInvoice> = {}): BooksInvoice => ({
  id: "cinv_1",
  order_number: "cart_01",
  order_id: "order_1",
  cart_id: "cart_01",
  source_currency: "eur",
  source_amount: "100.00",
  psys_cid: "BTC",
  currency: "BTC",
  expected_amount: "0.0015",
  received_amount: "0.0015",
  overpaid_amount: null,
  underpaid_amount: null,
  gateway_status: "completed",
  session_status: "captured",
  source_rate: "66666.67",
  commission: "0.00001",
  network_fee: "0.000002",
  tx_ids: ["tx-a", "tx-b"],
  paid_at: new Date("2026-11-03T10:20:00.000Z"),
  active_txn_id: "INV-1",
  txn_id: "INV-1",
  created_at: at,
  ...over,
})

const withdrawal = (over: Partial<BooksWithdrawal> = {}): BooksWithdrawal => ({
  id: "cwdr_1",
  type: "cash_out",
  purpose: "refund",
  psys_cid: "BTC",
  recipients: lines([{ address: "bc1-shopper", amount: "0.0005" }]),
  total_amount: "0.0005",
  fee: "0.00001",
  status: "completed",
  tx_urls: ["https://explorer/tx/1"],
  operation_id: "OP-1",
  order_id: "order_1",
  invoice_id: null,
  source_currency: "EUR",
  source_rate: "60000",
  value_amount: null,
  value_currency: null,
  sent_at: at,
  ...over,
  created_at: at,
})

const EUR = { fiat: "EUR" }

describe("the accounting export's rows", () => {
  it("a payment row carries the amount, the fiat value at the gateway's rate, fees, net and transactions", () => {
    const [row] = invoiceRows(invoice(), { fiat: "EUR", displayIds: new Map([["order_1", "42"]]) })
    expect(row).toMatchObject({
      kind: "payment",
      direction: "in",
      counted: "yes",
      order_display_id: "42",
      order_number: "cart_01",
      psys_cid: "BTC",
      amount: "0.0015",
      fiat_currency: "EUR",
      fiat_value: "100.00",
      rate: "66666.67",
      rate_source: "invoice",
      commission: "0.00001",
      network_fee: "0.000002",
      net: "0.001488",
      tx: "tx-a tx-b",
      status: "completed",
      session_status: "captured",
      created_at: "2026-11-03T10:15:00.000Z",
      paid_at: "2026-11-03T10:20:00.000Z",
    })
  })

  it("without the gateway's rate the rate is source_amount / expected_amount, said to be derived", () => {
    expect(invoiceRate(invoice({ source_rate: null, source_amount: "100", expected_amount: "0.003" }))).toEqual({ times: "100", per: "0.003", source: "derived" })
    const [row] = invoiceRows(invoice({ source_rate: null, source_amount: "100", expected_amount: "0.003", received_amount: "0.003" }), EUR)
    expect(row).toMatchObject({ rate_source: "derived", rate: "33333.33333333", fiat_value: "100.00" })
  })

  it("fiat values round half-up to the currency's minor units, exactly", () => {
    const [half] = invoiceRows(invoice({ source_rate: "1", received_amount: "0.125", source_currency: "usd" }), { fiat: "USD" })
    expect(half.fiat_value).toBe("0.13")
    const [yen] = invoiceRows(invoice({ source_rate: "1000", received_amount: "1.2345", source_currency: "jpy" }), { fiat: "JPY" })
    expect(yen.fiat_value).toBe("1235")
  })

  it("net is blank when neither the commission nor the network fee is known", () => {
    const [row] = invoiceRows(invoice({ commission: null, network_fee: null }), EUR)
    expect(row.net).toBeNull()
  })

  it("an invoice that received nothing has no row", () => {
    expect(invoiceRows(invoice({ received_amount: "0" }), EUR)).toEqual([])
    expect(invoiceRows(invoice({ received_amount: null }), EUR)).toEqual([])
  })

  it("a payment is one row; what is still open of it is a memo row of its attention item", () => {
    expect(invoiceRows(invoice({ received_amount: "0.002", overpaid_amount: "0.0005" }), EUR).map((row) => [row.kind, row.direction, row.amount])).toEqual([["payment", "in", "0.002"]])
  })

  it("memo rows come from open attention items only: late payments, overpayments, shortfalls within and beyond the tolerance", () => {
    const item = (over: Partial<BooksAttention>): BooksAttention => ({
      id: "catt_1",
      kind: "late_payment",
      subject_id: "cinv_1",
      order_id: null,
      psys_cid: "LTC",
      currency: "LTC",
      amount: "1.5",
      evidence: {},
      status: "open",
      created_at: at,
      ...over,
    })
    expect(attentionRows(item({}), EUR)[0]).toMatchObject({ kind: "late_payment", direction: "memo", psys_cid: "LTC", amount: "1.5", fiat_currency: "EUR" })
    expect(attentionRows(item({ kind: "underpaid", evidence: { within_tolerance: false } }), EUR)[0]).toMatchObject({ kind: "underpayment", purpose: "beyond_tolerance" })
    expect(attentionRows(item({ kind: "underpaid", evidence: { within_tolerance: true } }), EUR)[0]).toMatchObject({ kind: "underpayment", purpose: "within_tolerance" })
    expect(attentionRows(item({ kind: "overpaid" }), EUR)[0]).toMatchObject({ kind: "overpayment", direction: "memo" })
    expect(attentionRows(item({ kind: "invoice_error" }), EUR)).toEqual([])
  })

  it("a resolved item (the rest paid, sent back, kept) has no memo row", () => {
    const resolved: BooksAttention = { id: "catt_2", kind: "underpaid", subject_id: "cinv_1", order_id: null, psys_cid: "ETH", currency: "ETH", amount: "0.1", evidence: { within_tolerance: false }, status: "resolved", created_at: at }
    expect(attentionRows(resolved, EUR)).toEqual([])
  })

  it("a refund is one row valued at its own rate; a send-back is its own kind", () => {
    expect(withdrawalRows(withdrawal(), EUR)).toEqual([
      expect.objectContaining({ kind: "refund", direction: "out", amount: "0.0005", network_fee: "0.00001", fiat_value: "30.00", address: "bc1-shopper", tx: "https://explorer/tx/1" }),
    ])
    expect(withdrawalRows(withdrawal({ purpose: "overpayment", source_rate: null }), EUR)[0]).toMatchObject({ kind: "send_back", purpose: "overpayment", fiat_value: null })
  })

  it("a mass payout is one row per recipient line, the fee on the first", () => {
    const rows = withdrawalRows(
      withdrawal({
        purpose: "withdrawal",
        type: "mass_cash_out",
        recipients: lines([
          { address: "a1", amount: "1" },
          { address: "a2", amount: "2.5" },
        ]),
        total_amount: "3.5",
        fee: "0.1",
        source_rate: null,
      }),
      EUR
    )
    expect(rows.map((row) => [row.kind, row.address, row.amount, row.network_fee])).toEqual([
      ["mass_payout", "a1", "1", "0.1"],
      ["mass_payout", "a2", "2.5", null],
    ])
  })

  it("money out that has not completed is listed but not counted", () => {
    expect(withdrawalRows(withdrawal({ status: "outcome_unknown" }), EUR)[0].counted).toBe("no")
  })

  it("a pay_in is a deposit valued at its callback's rate when the callback is in the store currency", () => {
    const fields = { psys_cid: "ETH", currency: "ETH", amount: "0.2", wallet_hash: "0xabc", tx_urls: ["u"], source_currency: "USD", source_rate: "3000.5" }
    const callback = { id: "ccb_1", created_at: at, delivery_count: 1, status: "completed", txn_id: "PI-1", fields }
    expect(payInRows(callback, { fiat: "USD" })[0]).toMatchObject({
      kind: "deposit",
      direction: "in",
      psys_cid: "ETH",
      amount: "0.2",
      address: "0xabc",
      reference: "PI-1",
      counted: "yes",
      fiat_currency: "USD",
      fiat_value: "600.10",
      rate: "3000.5",
      rate_source: "callback",
    })
    // A rate in another fiat is not converted: the row is listed in the store currency without a value.
    expect(payInRows(callback, EUR)[0]).toMatchObject({ fiat_currency: "EUR", fiat_value: null, rate_source: null })
  })
  it("every row has every column, and the kinds are the declared vocabulary", () => {
    const rows = [...invoiceRows(invoice({ overpaid_amount: "0.1" }), EUR), ...withdrawalRows(withdrawal(), EUR)]
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual([...BOOKS_COLUMNS].sort())
      expect(BOOKS_ROW_KINDS).toContain(row.kind)
    }
  })
})

describe("the export's totals", () => {
  it("sum counted rows per kind, coin and fiat, exactly", () => {
    const totals = new BooksTotals()
    for (const row of [
      ...invoiceRows(invoice({ received_amount: "0.1", source_rate: "3" }), EUR),
      ...invoiceRows(invoice({ received_amount: "0.2", source_rate: "3" }), EUR),
      ...withdrawalRows(withdrawal({ status: "error" }), EUR),
    ]) {
      totals.add(row)
    }
    expect(totals.list()).toEqual([
      expect.objectContaining({ kind: "payment", psys_cid: "BTC", fiat_currency: "EUR", count: 2, amount: "0.3", fiat_value: "0.90", commission: "0.00002" }),
    ])
  })
})

/** A fake database: the rows of each table, answered by keyset like PostgreSQL would. */
function fakeSql(tables: Record<string, Array<Record<string, unknown> & { id: string; created_at: Date }>>): BooksSql & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    async raw(sql, bindings) {
      const table = /from (\w+) t/.exec(sql)?.[1] ?? ""
      calls.push(table)
      const limit = bindings[bindings.length - 1] as number
      const after = sql.includes("> (?::timestamptz, ?)") ? { at: String(bindings[bindings.length - 3]), id: String(bindings[bindings.length - 2]) } : null
      const rows = (tables[table] ?? [])
        .map((row) => ({ ...row, cursor_at: row.created_at.toISOString() }))
        .sort((a, b) => a.cursor_at.localeCompare(b.cursor_at) || a.id.localeCompare(b.id))
        .filter((row) => after === null || row.cursor_at > after.at || (row.cursor_at === after.at && row.id > after.id))
      return { rows: rows.slice(0, limit) }
    },
  }
}

class Sink extends Writable {
  chunks: string[] = []
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.chunks.push(chunk.toString())
    done()
  }
}

describe("streaming the export", () => {
  const period = { from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-12-01T00:00:00Z") }
  const invoices = Array.from({ length: 25 }, (_, i) => ({ ...invoice({ id: `cinv_${String(i).padStart(2, "0")}`, received_amount: "0.01", order_id: `order_${i}` }) }))

  it("reads every row once, page by page by keyset, with one display-id lookup per page", async () => {
    const sql = fakeSql({ crypto_invoice: invoices })
    const lookups: string[][] = []
    const rows = []
    for await (const row of booksRows(sql, period, { fiat: "EUR", pageSize: 10, displayIds: async (ids) => (lookups.push(ids), new Map(ids.map((id) => [id, id.replace("order_", "#")]))) })) {
      rows.push(row)
    }
    expect(rows.map((row) => row.order_display_id)).toEqual(invoices.map((_, i) => `#${i}`))
    expect(sql.calls.filter((table) => table === "crypto_invoice")).toHaveLength(3)
    expect(lookups.map((ids) => ids.length)).toEqual([10, 10, 5])
  })

  it("reads only the period's rows of the provider asked for, from every table", async () => {
    const seen: Array<{ sql: string; bindings: ReadonlyArray<string | number> }> = []
    const sql: BooksSql = {
      async raw(text, bindings) {
        seen.push({ sql: text, bindings })
        return { rows: [] }
      },
    }
    for await (const row of booksRows(sql, { ...period, provider_id: "pp_crypto_other" }, EUR)) expect(row).toBeUndefined()
    // The exchanges are read twice: the sales whose average cost is needed, then the rows.
    expect(seen.map((call) => /from (\w+) t/.exec(call.sql)?.[1])).toEqual(["crypto_invoice", "crypto_attention", "crypto_withdrawal", "crypto_exchange", "crypto_exchange", "crypto_callback"])
    for (const call of seen) {
      expect(call.sql).toContain("t.created_at >= ? and t.created_at < ?")
      expect(call.sql).toContain("t.provider_id = ?")
      expect(call.sql).toContain("order by t.created_at, t.id limit ?")
      expect(call.bindings).toEqual(["2026-11-01T00:00:00.000Z", "2026-12-01T00:00:00.000Z", "pp_crypto_other", 1000])
    }
  })

  it("CSV: a header, the rows, then totals as closing rows", async () => {
    const sink = new Sink()
    await writeBooksCsv(fakeSql({ crypto_invoice: invoices, crypto_withdrawal: [withdrawal()] }), period, sink, { fiat: "EUR", pageSize: 7 })
    const records = parse(sink.chunks.join(""), { columns: true }) as Array<Record<string, string>>
    expect(records).toHaveLength(25 + 1 + 2)
    expect(records.at(-2)).toMatchObject({ kind: "total:payment", psys_cid: "BTC", counted: "25", amount: "0.25" })
    expect(records.at(-1)).toMatchObject({ kind: "total:refund", amount: "0.0005" })
  })

  it("JSON: one document with the period, the rows and the totals", async () => {
    const sink = new Sink()
    await writeBooksJson(fakeSql({ crypto_invoice: invoices.slice(0, 3) }), period, sink, EUR)
    const doc = JSON.parse(sink.chunks.join("")) as { from: string; to: string; rows: unknown[]; totals: Array<Record<string, unknown>> }
    expect(doc.from).toBe("2026-11-01T00:00:00.000Z")
    expect(doc.rows).toHaveLength(3)
    expect(doc.totals).toEqual([expect.objectContaining({ kind: "payment", amount: "0.03", count: 3 })])
  })

  it("waits for drain when the reader is slow", async () => {
    let drains = 0
    const slow = new Writable({
      highWaterMark: 16,
      write(_chunk, _encoding, done) {
        setImmediate(done)
      },
    })
    slow.on("drain", () => (drains += 1))
    await writeBooksJson(fakeSql({ crypto_invoice: invoices }), period, slow, EUR)
    expect(drains).toBeGreaterThan(10)
  })
})
