import type { InferTypeOf } from "@medusajs/framework/types"
import { isDecimalString, type GatewayClient } from "../../gateway"
import type { CryptoAttention } from "../../modules/crypto/models/crypto-attention"
import type { CryptoExchange } from "../../modules/crypto/models/crypto-exchange"
import type { CryptoInvoice } from "../../modules/crypto/models/crypto-invoice"
import type { CryptoWithdrawal } from "../../modules/crypto/models/crypto-withdrawal"
import { SEND_BACK_PURPOSES } from "../money-out/withdrawal"
import { listCurrencies, type RateCacheStore } from "../payment/currency-cache"
import { payInOf, type StoredCallback } from "../payment/deposits"
import { fiatAtRate, invoiceRate, rateText, type InvoiceRate, type RateSource } from "../payment/invoice-books"
import type { Decimal } from "decimal.js"
import { exact, fiatMinorUnits, sumAmounts } from "../money"

/**
 * The accountant's export (docs/books.md#accounting-export): one row per crypto amount of a
 * period, from our own tables, with its value in the store currency at the moment it moved, then
 * totals per coin and kind. Pure row builders here; the paged reader is `export-source.ts`, the
 * CSV, JSON and journal writers `export-write.ts`.
 *
 * Rules:
 * - Every amount is an exact decimal string in its coin (`psys_cid`); fees too. Never a float.
 * - Every row's `fiat_currency` is the store currency. Its rate is the rate of the moment the money
 *   moved, in the store currency, `rate_source` saying whence (`valueOf*` below): a payment at the
 *   rate of the gateway's first callback that reported its money (`callback`), else its invoice's
 *   own (`invoice`, `derived`); a deposit at its callback's (`callback`); money out at its own
 *   gateway rate (`gateway`), else at what the money-out policy valued it when asked
 *   (`rate_cache`); an exchange's legs at the rates recorded when the gateway answered
 *   (`rate_cache`). A rate in another fiat than the store's is not converted: the row has no value.
 *   Rounded half-up to the fiat's minor units; a derived rate is shown to 8 decimal places.
 * - An exchange realizes a gain or loss (`gain_loss`): the bought leg's value minus the sold coins'
 *   average cost (`ExchangeCosts`, docs/books.md#gain-or-loss).
 * - Dates are UTC ISO 8601 (`toISOString()`).
 * - `counted` says whether a row's amount is in the totals: memo rows (an open overpayment,
 *   underpayment or late payment: parts of an amount a payment row already holds) count in their
 *   own kind only; money out and exchanges count once `completed`; a pay_in once completed.
 */

/** The row kinds, declared once. */
export const BOOKS_ROW_KINDS = [
  "payment",
  "overpayment",
  "underpayment",
  "late_payment",
  "refund",
  "send_back",
  "withdrawal",
  "mass_payout",
  "exchange",
  "exchange_in",
  "deposit",
] as const
export type BooksRowKind = (typeof BOOKS_ROW_KINDS)[number]

/** Which way the money went: in, out, or a memo of part of an amount another row holds. */
export type BooksDirection = "in" | "out" | "memo"

const DIRECTION: Record<BooksRowKind, BooksDirection> = {
  payment: "in",
  overpayment: "memo",
  underpayment: "memo",
  late_payment: "memo",
  refund: "out",
  send_back: "out",
  withdrawal: "out",
  mass_payout: "out",
  exchange: "out",
  exchange_in: "in",
  deposit: "in",
}

/** The columns of a row, in the CSV's order (also the JSON row's keys). */
export const BOOKS_COLUMNS = [
  "kind",
  "direction",
  "counted",
  "created_at",
  "paid_at",
  "reference",
  "order_display_id",
  "order_id",
  "order_number",
  "psys_cid",
  "currency",
  "amount",
  "commission",
  "network_fee",
  "net",
  "fiat_currency",
  "fiat_value",
  "rate",
  "rate_source",
  "gain_loss",
  "to_psys_cid",
  "to_amount",
  "address",
  "tx",
  "status",
  "session_status",
  "purpose",
] as const
export type BooksColumn = (typeof BOOKS_COLUMNS)[number]

/** One export row: every value a string (decimals exact) or null. `counted` is `yes` / `no`. */
export type BooksRow = { kind: BooksRowKind; direction: BooksDirection } & { [K in Exclude<BooksColumn, "kind" | "direction">]: string | null }

type InvoiceRow = InferTypeOf<typeof CryptoInvoice>
type WithdrawalRow = InferTypeOf<typeof CryptoWithdrawal>
type ExchangeRow = InferTypeOf<typeof CryptoExchange>
type AttentionRow = InferTypeOf<typeof CryptoAttention>

/** The invoice columns the export reads. */
export type BooksInvoice = Pick<
  InvoiceRow,
  | "id"
  | "order_number"
  | "order_id"
  | "cart_id"
  | "source_currency"
  | "source_amount"
  | "psys_cid"
  | "currency"
  | "expected_amount"
  | "received_amount"
  | "overpaid_amount"
  | "underpaid_amount"
  | "gateway_status"
  | "session_status"
  | "source_rate"
  | "commission"
  | "network_fee"
  | "tx_ids"
  | "paid_at"
  | "active_txn_id"
  | "txn_id"
> & { created_at: Date }
export type BooksWithdrawal = Pick<
  WithdrawalRow,
  | "id"
  | "type"
  | "purpose"
  | "psys_cid"
  | "recipients"
  | "total_amount"
  | "fee"
  | "status"
  | "tx_urls"
  | "operation_id"
  | "order_id"
  | "invoice_id"
  | "source_currency"
  | "source_rate"
  | "value_amount"
  | "value_currency"
  | "sent_at"
> & { created_at: Date }
export type BooksExchange = Pick<
  ExchangeRow,
  "id" | "from_currency" | "to_currency" | "from_amount" | "to_amount" | "status" | "exchange_id" | "sent_at" | "result" | "fiat_currency" | "from_rate" | "to_rate" | "rate_source"
> & {
  created_at: Date
}
export type BooksAttention = Pick<AttentionRow, "id" | "kind" | "subject_id" | "order_id" | "psys_cid" | "currency" | "amount" | "evidence" | "status"> & { created_at: Date }
export type BooksPayIn = StoredCallback & { created_at: Date }

/** Order display ids by order id (one lookup per page). */
export type DisplayIds = ReadonlyMap<string, string>

/** The gateway's rate in the callback that first reported an invoice's money (spec §6.1 `source_rate`, fiat per coin). */
export interface ReceiptRate {
  psys_cid: string | null
  source_currency: string | null
  source_rate: string | null
}

/** What every row builder needs besides its record: the store currency rows are valued in, and the orders' display ids. */
export interface BooksContext {
  fiat: string
  displayIds?: DisplayIds
}

const iso = (date: Date | string | null | undefined): string | null => (date === null || date === undefined ? null : new Date(date).toISOString())
const positive = (value: string | null | undefined): value is string => typeof value === "string" && isDecimalString(value) && exact(value).gt(0)
const decimalOrNull = (value: string | null | undefined): string | null => (value === null || value === undefined ? null : exact(value).toFixed())

const empty = (kind: BooksRowKind): BooksRow => ({
  kind,
  direction: DIRECTION[kind],
  counted: "yes",
  created_at: null,
  paid_at: null,
  reference: null,
  order_display_id: null,
  order_id: null,
  order_number: null,
  psys_cid: null,
  currency: null,
  amount: null,
  commission: null,
  network_fee: null,
  net: null,
  fiat_currency: null,
  fiat_value: null,
  rate: null,
  rate_source: null,
  gain_loss: null,
  to_psys_cid: null,
  to_amount: null,
  address: null,
  tx: null,
  status: null,
  session_status: null,
  purpose: null,
})

/** A row valued in the store currency `fiat` at `rate` (fiat per coin); without a rate, the currency only. */
function withFiat(row: BooksRow, amount: string, fiat: string, rate: InvoiceRate | null): BooksRow {
  const currency = fiat.toUpperCase()
  if (rate === null) return { ...row, fiat_currency: currency }
  return { ...row, fiat_currency: currency, fiat_value: fiatAtRate(amount, rate, currency).toFixed(fiatMinorUnits(currency)), rate: rateText(rate), rate_source: rate.source }
}

const sameFiat = (a: string | null | undefined, b: string): boolean => typeof a === "string" && a.toUpperCase() === b.toUpperCase()
const gatewayRate = (times: string | null | undefined, currency: string | null | undefined, fiat: string, source: RateSource): InvoiceRate | null =>
  positive(times) && sameFiat(currency, fiat) ? { times: exact(times).toFixed(), per: "1", source } : null

/**
 * What a payment's coins are worth in the store currency `fiat` at the moment they arrived: the rate
 * of the gateway's first callback that reported them (`callback`); else, when no callback said (a
 * payment seen by the reconciliation job), the invoice's own (`invoice`, `derived`). Null when
 * neither is in `fiat`.
 */
export function valueOfPayment(invoice: BooksInvoice, receipt: ReceiptRate | null, fiat: string): InvoiceRate | null {
  const fromCallback = receipt !== null && receipt.psys_cid === invoice.psys_cid ? gatewayRate(receipt.source_rate, receipt.source_currency, fiat, "callback") : null
  if (fromCallback !== null) return fromCallback
  return sameFiat(invoice.source_currency, fiat) ? invoiceRate(invoice) : null
}

/**
 * Money out in the store currency at the moment it left: its own gateway rate (spec §2.2/§2.3
 * `source_rate`, a refund's quoted rate: `gateway`), else the value the money-out policy gave it
 * when asked (the gateway's currency list of that moment, `rate_cache`).
 */
export function valueOfMoneyOut(withdrawal: Pick<BooksWithdrawal, "source_rate" | "source_currency" | "value_amount" | "value_currency" | "total_amount">, fiat: string): InvoiceRate | null {
  const own = gatewayRate(withdrawal.source_rate, withdrawal.source_currency, fiat, "gateway")
  if (own !== null) return own
  if (positive(withdrawal.value_amount) && sameFiat(withdrawal.value_currency, fiat) && positive(withdrawal.total_amount)) {
    return { times: exact(withdrawal.value_amount).toFixed(), per: exact(withdrawal.total_amount).toFixed(), source: "rate_cache" }
  }
  return null
}

/**
 * An invoice's row: its payment (what it received: a payment, a top-up, late money), valued at the
 * moment it arrived (valueOfPayment). What of it is still open (an overpayment, a shortfall, late
 * money) is a memo row of its attention item (attentionRows).
 */
export function invoiceRows(invoice: BooksInvoice, context: BooksContext, receipt: ReceiptRate | null = null): BooksRow[] {
  if (!positive(invoice.received_amount)) return []
  const displayIds = context.displayIds ?? new Map<string, string>()
  const rate = valueOfPayment(invoice, receipt, context.fiat)
  const base: BooksRow = {
    ...empty("payment"),
    created_at: iso(invoice.created_at),
    paid_at: iso(invoice.paid_at),
    reference: invoice.active_txn_id ?? invoice.txn_id ?? invoice.id,
    order_display_id: invoice.order_id === null ? null : (displayIds.get(invoice.order_id) ?? null),
    order_id: invoice.order_id,
    order_number: invoice.order_number,
    psys_cid: invoice.psys_cid,
    currency: invoice.currency,
    status: invoice.gateway_status,
    session_status: invoice.session_status,
  }
  const received = exact(invoice.received_amount).toFixed()
  const known = [invoice.commission, invoice.network_fee].filter((fee): fee is string => fee !== null)
  const payment = withFiat(
    {
      ...base,
      amount: received,
      commission: decimalOrNull(invoice.commission),
      network_fee: decimalOrNull(invoice.network_fee),
      net: known.length === 0 ? null : exact(received).minus(sumAmounts(known)).toFixed(),
      tx: invoice.tx_ids && invoice.tx_ids.length > 0 ? invoice.tx_ids.join(" ") : null,
    },
    received,
    context.fiat,
    rate
  )
  return [payment]
}

const evidenceOf = (item: BooksAttention): Record<string, unknown> => (typeof item.evidence === "object" && item.evidence !== null ? (item.evidence as Record<string, unknown>) : {})

/**
 * The memo rows: what is still open of a payment, one per OPEN attention item (docs/attention.md):
 * an overpayment, a shortfall (accepted within the tolerance, or beyond it: the coins due back), a
 * late payment. An item the merchant or the shopper settled (sent back, the rest paid, kept) has
 * no row: its money is in the payment and money-out rows.
 */
export function attentionRows(item: BooksAttention, context: BooksContext): BooksRow[] {
  if (!positive(item.amount) || item.status !== "open") return []
  const displayIds = context.displayIds ?? new Map<string, string>()
  const evidence = evidenceOf(item)
  let kind: BooksRowKind
  if (item.kind === "late_payment") kind = "late_payment"
  else if (item.kind === "overpaid") kind = "overpayment"
  else if (item.kind === "underpaid") kind = "underpayment"
  else return []
  return [
    {
      ...empty(kind),
      fiat_currency: context.fiat.toUpperCase(),
      created_at: iso(item.created_at),
      reference: item.subject_id,
      order_display_id: item.order_id === null ? null : (displayIds.get(item.order_id) ?? null),
      order_id: item.order_id,
      psys_cid: item.psys_cid,
      currency: item.currency,
      amount: exact(item.amount).toFixed(),
      purpose: kind === "underpayment" ? (evidence.within_tolerance === false ? "beyond_tolerance" : "within_tolerance") : null,
    },
  ]
}

interface Recipient {
  address: string | null
  amount: string | null
}
function recipientsOf(value: unknown): Recipient[] {
  if (!Array.isArray(value)) return []
  return value.map((line: unknown) => {
    const record = typeof line === "object" && line !== null ? (line as Record<string, unknown>) : {}
    return { address: typeof record.address === "string" ? record.address : null, amount: typeof record.amount === "string" ? record.amount : null }
  })
}

/**
 * A withdrawal's rows: a refund or a send-back (its total), a withdrawal, or a mass payout (one
 * row per recipient line; the fee on the first line, so the fees sum to the withdrawal's).
 */
export function withdrawalRows(withdrawal: BooksWithdrawal, context: BooksContext): BooksRow[] {
  const displayIds = context.displayIds ?? new Map<string, string>()
  const kind: BooksRowKind =
    withdrawal.purpose === "refund" ? "refund" : SEND_BACK_PURPOSES.has(withdrawal.purpose) ? "send_back" : withdrawal.type === "mass_cash_out" ? "mass_payout" : "withdrawal"
  const rate = valueOfMoneyOut(withdrawal, context.fiat)
  const base: BooksRow = {
    ...empty(kind),
    counted: withdrawal.status === "completed" ? "yes" : "no",
    created_at: iso(withdrawal.created_at),
    paid_at: iso(withdrawal.sent_at),
    reference: withdrawal.operation_id ?? withdrawal.id,
    order_display_id: withdrawal.order_id === null ? null : (displayIds.get(withdrawal.order_id) ?? null),
    order_id: withdrawal.order_id,
    order_number: withdrawal.invoice_id,
    psys_cid: withdrawal.psys_cid,
    tx: withdrawal.tx_urls && withdrawal.tx_urls.length > 0 ? withdrawal.tx_urls.join(" ") : null,
    status: withdrawal.status,
    purpose: withdrawal.purpose,
  }
  const lines = kind === "mass_payout" || kind === "withdrawal" ? recipientsOf(withdrawal.recipients) : []
  const parts = lines.length > 0 ? lines : [{ address: recipientsOf(withdrawal.recipients)[0]?.address ?? null, amount: withdrawal.total_amount }]
  return parts.map((line, index) => {
    const amount = exact(line.amount ?? "0").toFixed()
    return withFiat(
      { ...base, amount, address: line.address, network_fee: index === 0 ? decimalOrNull(withdrawal.fee) : null },
      amount,
      context.fiat,
      rate
    )
  })
}

const resultAmount = (result: unknown, key: "from_amount" | "to_amount"): string | null => {
  const value = typeof result === "object" && result !== null ? (result as Record<string, unknown>)[key] : undefined
  return typeof value === "string" && positive(value) ? exact(value).toFixed() : null
}

/** An exchange's legs as they happened: the gateway's answered amounts (spec §4.11), else the ones asked. */
export function exchangeLegs(exchange: Pick<BooksExchange, "from_amount" | "to_amount" | "result">): { from: string | null; to: string | null } {
  return { from: resultAmount(exchange.result, "from_amount") ?? decimalOrNull(exchange.from_amount), to: resultAmount(exchange.result, "to_amount") ?? decimalOrNull(exchange.to_amount) }
}

/**
 * The average cost of the coins an exchange sells (docs/books.md#gain-or-loss): per coin, the
 * store-currency value of every valued amount of it that came in (payments, deposits, bought legs
 * of exchanges: counted `in` rows) recorded strictly before the exchange, divided by those coins
 * (weighted average cost of acquisitions; exact, decimal.js). Fed in any order: each acquisition
 * lands in the bucket of the first sale after it, and a sale's cost sums the buckets up to it, so
 * memory is one bucket per sale whatever the history's length.
 */
export class ExchangeCosts {
  private readonly sales = new Map<string, { at: number[]; coins: Decimal[]; fiat: Decimal[] }>()

  constructor(sales: Iterable<{ psys_cid: string; at: Date }>) {
    for (const sale of sales) {
      const coin = this.sales.get(sale.psys_cid) ?? { at: [], coins: [], fiat: [] }
      this.sales.set(sale.psys_cid, coin)
      coin.at.push(sale.at.getTime())
    }
    for (const coin of this.sales.values()) {
      coin.at = [...new Set(coin.at)].sort((a, b) => a - b)
      coin.coins = coin.at.map(() => exact(0))
      coin.fiat = coin.at.map(() => exact(0))
    }
  }

  /** Whether any sale needs costs (else the history need not be read). */
  get empty(): boolean {
    return this.sales.size === 0
  }

  /** One row of the books: an acquisition when it is a counted `in` row with a value. */
  acquire(row: BooksRow): void {
    if (row.direction !== "in" || row.counted !== "yes" || row.psys_cid === null || row.amount === null || row.fiat_value === null || row.created_at === null) return
    const coin = this.sales.get(row.psys_cid)
    if (coin === undefined) return
    const at = Date.parse(row.created_at)
    const index = coin.at.findIndex((sale) => sale > at)
    if (index < 0) return
    coin.coins[index] = coin.coins[index].plus(row.amount)
    coin.fiat[index] = coin.fiat[index].plus(row.fiat_value)
  }

  /** The average cost (store currency per coin, as `times / per`) of `psys_cid` sold at `at`; null when none was acquired with a value before. */
  costOf(psysCid: string, at: Date): InvoiceRate | null {
    const coin = this.sales.get(psysCid)
    if (coin === undefined) return null
    let coins = exact(0)
    let fiat = exact(0)
    for (let index = 0; index < coin.at.length && coin.at[index] <= at.getTime(); index += 1) {
      coins = coins.plus(coin.coins[index])
      fiat = fiat.plus(coin.fiat[index])
    }
    return coins.gt(0) ? { times: fiat.toFixed(), per: coins.toFixed(), source: "cost" } : null
  }
}

/**
 * What an exchange records of its legs' value when it is sent (crypto_exchange `fiat_currency`,
 * `from_rate`, `to_rate`, `rate_source`): each coin's rate in the store currency `fiat` from the
 * gateway's currency list of that moment (spec §4.8, our cache of it: `rate_cache`). A list that
 * cannot be read leaves them null: the exchange is never held up by its books.
 */
export async function exchangeRatesNow(
  client: { currencies: Pick<GatewayClient["currencies"], "list"> },
  store: RateCacheStore,
  fiat: string,
  coins: { from: string; to: string }
): Promise<Pick<BooksExchange, "fiat_currency" | "from_rate" | "to_rate" | "rate_source">> {
  const none = { fiat_currency: null, from_rate: null, to_rate: null, rate_source: null }
  const list = await listCurrencies(client, store, fiat).catch(() => null)
  if (list === null) return none
  const rateOf = (coin: string): string | null => {
    const rate = list.find((entry) => entry.psys_cid === coin)?.fiat_rate ?? null
    return positive(rate) ? rate : null
  }
  return { fiat_currency: fiat.toUpperCase(), from_rate: rateOf(coins.from), to_rate: rateOf(coins.to), rate_source: "rate_cache" }
}

/**
 * An exchange's two rows: the coins sold (`exchange`, out, `to_psys_cid` / `to_amount` the bought
 * side) and the coins bought (`exchange_in`, in). The bought leg is valued at its coin's rate
 * recorded when the gateway answered; the sold leg at the books' value of those coins, their
 * average cost (`costs`, rate_source `cost`), or at their own recorded rate when none was acquired
 * with a value before. The sold row carries the realized `gain_loss`: the bought leg's value minus
 * the sold leg's.
 */
export function exchangeRows(exchange: BooksExchange, context: BooksContext, costs: ExchangeCosts | null = null): BooksRow[] {
  const legs = exchangeLegs(exchange)
  const recorded = (rate: string | null): InvoiceRate | null => gatewayRate(rate, exchange.fiat_currency, context.fiat, "rate_cache")
  const base: BooksRow = {
    ...empty("exchange"),
    counted: exchange.status === "completed" ? "yes" : "no",
    created_at: iso(exchange.created_at),
    paid_at: iso(exchange.sent_at),
    reference: exchange.exchange_id ?? exchange.id,
    status: exchange.status,
  }
  const cost = legs.from === null ? null : (costs?.costOf(exchange.from_currency, new Date(exchange.created_at)) ?? recorded(exchange.from_rate))
  const sold = withFiat({ ...base, psys_cid: exchange.from_currency, amount: legs.from, to_psys_cid: exchange.to_currency, to_amount: legs.to }, legs.from ?? "0", context.fiat, cost)
  const bought = withFiat({ ...base, kind: "exchange_in", direction: DIRECTION.exchange_in, psys_cid: exchange.to_currency, amount: legs.to }, legs.to ?? "0", context.fiat, legs.to === null ? null : recorded(exchange.to_rate))
  if (sold.fiat_value !== null && bought.fiat_value !== null) sold.gain_loss = exact(bought.fiat_value).minus(sold.fiat_value).toFixed(fiatMinorUnits(context.fiat))
  return legs.to === null ? [sold] : [sold, bought]
}

/** A pay_in to a customer's deposit address (spec §6.2), counted once completed, valued at its callback's rate (`source_rate` in `source_currency`). */
export function payInRows(callback: BooksPayIn, context: BooksContext): BooksRow[] {
  const payIn = payInOf(callback)
  if (!positive(payIn.amount)) return []
  const fields = typeof callback.fields === "object" && callback.fields !== null ? (callback.fields as Record<string, unknown>) : {}
  const text = (key: string): string | null => (typeof fields[key] === "string" ? (fields[key] as string) : null)
  const amount = exact(payIn.amount).toFixed()
  return [
    withFiat(
      {
        ...empty("deposit"),
        counted: payIn.status === "completed" ? "yes" : "no",
        created_at: iso(callback.created_at),
        reference: payIn.txn_id ?? payIn.id,
        order_number: payIn.deposit_uid,
        psys_cid: payIn.psys_cid,
        currency: payIn.currency,
        amount,
        address: payIn.wallet_hash,
        tx: payIn.tx_urls.length > 0 ? payIn.tx_urls.join(" ") : null,
        status: payIn.status,
      },
      amount,
      context.fiat,
      gatewayRate(text("source_rate"), text("source_currency"), context.fiat, "callback")
    ),
  ]
}

/** One total: per kind and coin (and fiat currency), of the counted rows. */
export interface BooksTotal {
  kind: BooksRowKind
  psys_cid: string | null
  fiat_currency: string | null
  count: number
  amount: string
  commission: string
  network_fee: string
  /** Null when a counted row of this total had no fiat value. */
  fiat_value: string | null
  /** Exchanges: what they bought, in `to_psys_cid`. */
  to_psys_cid: string | null
  to_amount: string | null
  /** Exchanges: the realized gain (negative: loss) in `fiat_currency`. */
  gain_loss: string | null
}

const SUMMED_FIELDS = ["amount", "commission", "network_fee", "fiat_value", "to_amount", "gain_loss"] as const
type SummedField = (typeof SUMMED_FIELDS)[number]

/**
 * Totals as the rows stream by: bounded by kinds × coins × fiats, whatever the row count. Sums
 * stay `Decimal`s until read.
 */
export class BooksTotals {
  private readonly totals = new Map<string, { total: Omit<BooksTotal, SummedField>; sums: Record<SummedField, Decimal>; fiatMissing: boolean }>()

  add(row: BooksRow): void {
    if (row.counted !== "yes") return
    const key = JSON.stringify([row.kind, row.psys_cid, row.fiat_currency, row.to_psys_cid])
    let entry = this.totals.get(key)
    if (entry === undefined) {
      entry = {
        total: { kind: row.kind, psys_cid: row.psys_cid, fiat_currency: row.fiat_currency, count: 0, to_psys_cid: row.to_psys_cid },
        sums: { amount: exact(0), commission: exact(0), network_fee: exact(0), fiat_value: exact(0), to_amount: exact(0), gain_loss: exact(0) },
        fiatMissing: false,
      }
      this.totals.set(key, entry)
    }
    entry.total.count += 1
    for (const field of SUMMED_FIELDS) {
      const value = row[field]
      if (value !== null) entry.sums[field] = entry.sums[field].plus(value)
    }
    if (row.fiat_value === null) entry.fiatMissing = true
  }

  /** The totals, by kind (vocabulary order), then coin, then fiat. */
  list(): BooksTotal[] {
    const order = (kind: BooksRowKind) => BOOKS_ROW_KINDS.indexOf(kind)
    return [...this.totals.values()]
      .map(({ total, sums, fiatMissing }) => ({
        ...total,
        amount: sums.amount.toFixed(),
        commission: sums.commission.toFixed(),
        network_fee: sums.network_fee.toFixed(),
        fiat_value: fiatMissing || total.fiat_currency === null ? null : sums.fiat_value.toFixed(fiatMinorUnits(total.fiat_currency)),
        to_amount: total.kind === "exchange" ? sums.to_amount.toFixed() : null,
        gain_loss: total.kind === "exchange" && total.fiat_currency !== null ? sums.gain_loss.toFixed(fiatMinorUnits(total.fiat_currency)) : null,
      }))
      .sort((a, b) => order(a.kind) - order(b.kind) || (a.psys_cid ?? "").localeCompare(b.psys_cid ?? "") || (a.fiat_currency ?? "").localeCompare(b.fiat_currency ?? ""))
  }
}

/** A total as a closing CSV row (`kind` `total:<kind>`, `counted` = the number of rows). */
export function totalAsRow(total: BooksTotal): Record<BooksColumn, string | null> {
  return {
    ...empty(total.kind),
    kind: `total:${total.kind}`,
    counted: String(total.count),
    psys_cid: total.psys_cid,
    amount: total.amount,
    commission: total.commission,
    network_fee: total.network_fee,
    fiat_currency: total.fiat_currency,
    fiat_value: total.fiat_value,
    to_psys_cid: total.to_psys_cid,
    to_amount: total.to_amount,
    gain_loss: total.gain_loss,
  }
}
