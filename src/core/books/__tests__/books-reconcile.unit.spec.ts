import type { InferTypeOf } from "@medusajs/framework/types"
import { Decimal } from "decimal.js"
import type { CryptoInvoice } from "../../../modules/crypto/models/crypto-invoice"
import type { CryptoWithdrawal } from "../../../modules/crypto/models/crypto-withdrawal"
import { invoiceAccount } from "../../money-out/account"
import { BooksTotals, ExchangeCosts, exchangeRows, invoiceRows, payInRows, valueOfMoneyOut, withdrawalRows, type BooksExchange, type BooksInvoice, type BooksRow, type BooksWithdrawal } from "../export"
import { journalLines } from "../journal"

// Books that reconcile (docs/books.md#fiat-values, #gain-or-loss, #journal): each amount valued in the
// store currency at the moment it moved, the exchange's realized gain, the journal balanced, and the
// totals equal to the account of the same invoices per coin and kind.

const USD = { fiat: "USD" }
const day = (d: number) => new Date(Date.UTC(2026, 10, d, 12))

const invoice = (over: Partial<BooksInvoice> = {}): BooksInvoice => ({
  id: "cinv_1",
  order_number: "cart_1",
  order_id: "order_1",
  cart_id: "cart_1",
  source_currency: "usd",
  source_amount: "100.00",
  psys_cid: "ETH",
  currency: "ETH",
  expected_amount: "0.05",
  received_amount: "0.05",
  overpaid_amount: null,
  underpaid_amount: null,
  gateway_status: "completed",
  session_status: "captured",
  source_rate: "2000",
  commission: null,
  network_fee: null,
  tx_ids: null,
  paid_at: null,
  active_txn_id: "INV-1",
  txn_id: "INV-1",
  created_at: day(1),
  ...over,
})

const moneyOut = (over: Partial<BooksWithdrawal> = {}): BooksWithdrawal => ({
  id: "cwdr_1",
  type: "cash_out",
  purpose: "refund",
  psys_cid: "ETH",
  recipients: { lines: [] },
  total_amount: "0.01",
  fee: "0.001",
  status: "completed",
  tx_urls: null,
  operation_id: "OP-1",
  order_id: "order_1",
  invoice_id: null,
  source_currency: "USD",
  source_rate: "2500",
  value_amount: null,
  value_currency: null,
  sent_at: day(5),
  created_at: day(5),
  ...over,
})

const exchange = (over: Partial<BooksExchange> = {}): BooksExchange => ({
  id: "cexc_1",
  from_currency: "ETH",
  to_currency: "USDT_TRX",
  from_amount: "0.04",
  to_amount: null,
  status: "completed",
  exchange_id: "EX-1",
  sent_at: day(10),
  result: { from_amount: "0.04", to_amount: "119.5" },
  fiat_currency: "USD",
  from_rate: "3000",
  to_rate: "1",
  rate_source: "rate_cache",
  created_at: day(10),
  ...over,
})

describe("valuing each amount at the moment it moved, in the store currency", () => {
  it("a payment is valued at the rate of the callback that reported its money, not the invoice's rate at creation", () => {
    const [row] = invoiceRows(invoice(), USD, { psys_cid: "ETH", source_currency: "USD", source_rate: "2100" })
    expect(row).toMatchObject({ fiat_currency: "USD", rate: "2100", rate_source: "callback", fiat_value: "105.00" })
  })

  it("a late payment days later keeps its own callback's rate", () => {
    const [row] = invoiceRows(invoice({ session_status: "canceled", created_at: day(1) }), USD, { psys_cid: "ETH", source_currency: "USD", source_rate: "1800" })
    expect(row).toMatchObject({ rate: "1800", rate_source: "callback", fiat_value: "90.00" })
  })

  it("without a callback (seen by polling) a payment takes its invoice's rate; a callback in another coin or fiat is not used", () => {
    expect(invoiceRows(invoice(), USD)[0]).toMatchObject({ rate: "2000", rate_source: "invoice" })
    expect(invoiceRows(invoice(), USD, { psys_cid: "BTC", source_currency: "USD", source_rate: "90000" })[0]).toMatchObject({ rate_source: "invoice" })
    expect(invoiceRows(invoice(), USD, { psys_cid: "ETH", source_currency: "EUR", source_rate: "1900" })[0]).toMatchObject({ rate_source: "invoice" })
  })

  it("an invoice priced in another fiat than the store's has no value, but says the store currency", () => {
    expect(invoiceRows(invoice({ source_currency: "eur" }), USD)[0]).toMatchObject({ fiat_currency: "USD", fiat_value: null, rate_source: null })
  })

  it("money out: its own gateway rate in the store currency, else the value the policy gave it when asked, never a USD rate in a EUR store", () => {
    expect(valueOfMoneyOut(moneyOut(), "USD")).toEqual({ times: "2500", per: "1", source: "gateway" })
    expect(valueOfMoneyOut(moneyOut({ source_rate: "2500", source_currency: "USD", value_amount: "23.10", value_currency: "EUR" }), "EUR")).toEqual({ times: "23.1", per: "0.01", source: "rate_cache" })
    expect(valueOfMoneyOut(moneyOut({ value_amount: null }), "EUR")).toBeNull()
    expect(withdrawalRows(moneyOut({ purpose: "withdrawal", value_amount: "23.10", value_currency: "EUR", source_currency: null, source_rate: null }), { fiat: "EUR" })[0]).toMatchObject({ fiat_value: "23.10", rate_source: "rate_cache" })
  })
})

describe("the realized gain or loss of an exchange (weighted average cost of acquisitions)", () => {
  it("the sold coins leave at their average cost; the gain is the bought leg's value minus that cost, exactly", () => {
    // 0.05 ETH at 2100 (105.00) and 0.05 ETH at 1800 (90.00): 195.00 / 0.1 = 1950 per ETH.
    const costs = new ExchangeCosts([{ psys_cid: "ETH", at: day(10) }])
    for (const row of [
      ...invoiceRows(invoice({ created_at: day(1) }), USD, { psys_cid: "ETH", source_currency: "USD", source_rate: "2100" }),
      ...invoiceRows(invoice({ id: "cinv_2", created_at: day(3) }), USD, { psys_cid: "ETH", source_currency: "USD", source_rate: "1800" }),
      // After the sale: not part of its cost.
      ...invoiceRows(invoice({ id: "cinv_3", created_at: day(11) }), USD, { psys_cid: "ETH", source_currency: "USD", source_rate: "5000" }),
    ]) {
      costs.acquire(row)
    }
    const [sold, bought] = exchangeRows(exchange(), USD, costs)
    expect(sold).toMatchObject({ kind: "exchange", direction: "out", psys_cid: "ETH", amount: "0.04", fiat_value: "78.00", rate_source: "cost", to_psys_cid: "USDT_TRX", to_amount: "119.5", gain_loss: "41.50" })
    expect(bought).toMatchObject({ kind: "exchange_in", direction: "in", psys_cid: "USDT_TRX", amount: "119.5", fiat_value: "119.50", rate_source: "rate_cache" })
  })

  it("coins never acquired with a value leave at their value when exchanged; a loss is negative", () => {
    const [sold] = exchangeRows(exchange({ result: { from_amount: "0.04", to_amount: "110" } }), USD)
    expect(sold).toMatchObject({ fiat_value: "120.00", rate_source: "rate_cache", gain_loss: "-10.00" })
  })

  it("an exchange without recorded rates is listed in coins, without a value or a gain", () => {
    const [sold, bought] = exchangeRows(exchange({ fiat_currency: null, from_rate: null, to_rate: null }), USD)
    expect([sold.fiat_value, sold.gain_loss, bought.fiat_value]).toEqual([null, null, null])
  })
})

/** Σ debit − Σ credit per currency of the journal lines. */
function imbalance(rows: readonly BooksRow[]): Record<string, string> {
  const sums = new Map<string, Decimal>()
  for (const line of rows.flatMap(journalLines)) {
    const sum = (sums.get(line.currency) ?? new Decimal(0)).plus(line.debit || "0").minus(line.credit || "0")
    sums.set(line.currency, sum)
  }
  return Object.fromEntries([...sums].map(([currency, sum]) => [currency, sum.toFixed()]))
}

// The model types `recipients` (a json column) as a record and the rows carry columns the export does not read.
const asInvoiceRow = (row: BooksInvoice, over: Record<string, unknown> = {}) => ({ attempt: 1, superseded_by: null, refund_due_amount: null, ...row, ...over }) as unknown as InferTypeOf<typeof CryptoInvoice>
const asWithdrawalRow = (row: BooksWithdrawal) => ({ ...row }) as unknown as InferTypeOf<typeof CryptoWithdrawal>

describe("a mixed history: the totals equal the account, the journal balances", () => {
  const payment = invoice({ received_amount: "0.055", overpaid_amount: "0.005" })
  const late = invoice({ id: "cinv_late", order_number: "cart_2", order_id: null, session_status: "canceled", received_amount: "0.02", created_at: day(4) })
  const topUp = invoice({ id: "cinv_top", order_number: "cart_1-2", received_amount: "0.01", created_at: day(2) })
  const sentBack = moneyOut({ id: "cwdr_2", purpose: "overpayment", invoice_id: payment.id, order_id: null, total_amount: "0.005", fee: "0.0001", source_rate: "2300", value_amount: null })
  const refund = moneyOut({ total_amount: "0.01" })
  const unsure = moneyOut({ id: "cwdr_3", status: "outcome_unknown", total_amount: "0.02" })
  const withdrawal = moneyOut({ id: "cwdr_4", purpose: "withdrawal", order_id: null, recipients: { lines: [] }, total_amount: "0.003", value_amount: "7.50", value_currency: "USD", source_rate: null })
  const deposit = { id: "ccb_1", created_at: day(6), delivery_count: 1, status: "completed", txn_id: "PI-1", fields: { psys_cid: "ETH", amount: "0.1", source_currency: "USD", source_rate: "2400", tx_urls: [] } }
  const receipts = { psys_cid: "ETH", source_currency: "USD", source_rate: "2200" }
  const rows: BooksRow[] = [
    ...[payment, late, topUp].flatMap((row) => invoiceRows(row, USD, receipts)),
    ...[sentBack, refund, unsure, withdrawal].flatMap((row) => withdrawalRows(row, USD)),
    ...exchangeRows(exchange(), USD),
    ...payInRows(deposit, USD),
  ]
  const totals = new BooksTotals()
  rows.forEach((row) => totals.add(row))
  const total = (kind: string, coin = "ETH") => totals.list().find((entry) => entry.kind === kind && entry.psys_cid === coin)

  it("per coin and kind: received, refunded and sent back equal the account of the same invoices", () => {
    const withdrawals = [sentBack, refund, unsure, withdrawal].map(asWithdrawalRow)
    const accounts = [asInvoiceRow(payment), asInvoiceRow(late), asInvoiceRow(topUp)].map((row) => invoiceAccount(row, withdrawals, row.id === payment.id))
    const sum = (field: "received" | "refunded" | "sent_back") => accounts.reduce((acc, account) => acc.plus(account[field]), new Decimal(0)).toFixed()
    expect(total("payment")?.amount).toBe(sum("received"))
    expect(total("refund")?.amount).toBe(sum("refunded"))
    expect(total("send_back")?.amount).toBe(sum("sent_back"))
    // Every counted row has a value in the one store currency: no total splits by fiat.
    expect(new Set(totals.list().map((entry) => entry.fiat_currency))).toEqual(new Set(["USD"]))
    expect(totals.list().every((entry) => entry.fiat_value !== null)).toBe(true)
    expect(total("deposit")).toMatchObject({ amount: "0.1", fiat_value: "240.00" })
    expect(total("exchange")).toMatchObject({ amount: "0.04", to_amount: "119.5", gain_loss: "-0.50" })
    expect(total("exchange_in", "USDT_TRX")).toMatchObject({ amount: "119.5", fiat_value: "119.50" })
  })

  it("the journal: debits equal credits per currency, one line pair per movement and fee", () => {
    expect(Object.values(imbalance(rows)).every((sum) => sum === "0")).toBe(true)
    const lines = rows.flatMap(journalLines)
    expect(lines.filter((line) => line.reference === "EX-1").map((line) => [line.account, line.debit, line.credit])).toEqual([
      ["Exchange clearing", "119.50", ""],
      ["Crypto:ETH", "", "120.00"],
      ["Realized gain/loss", "0.50", ""],
      ["Crypto:USDT_TRX", "119.50", ""],
      ["Exchange clearing", "", "119.50"],
    ])
    expect(lines.find((line) => line.account === "Crypto sales")).toMatchObject({ credit: "121.00", currency: "USD", date: "2026-11-01", reference: "INV-1" })
    // Not counted (outcome unknown): no lines.
    expect(lines.filter((line) => line.reference === "OP-1" && line.account === "Refunds")).toHaveLength(1)
  })
})
