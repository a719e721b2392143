import type { InferTypeOf } from "@medusajs/framework/types"
import type { CryptoAttention } from "../../modules/crypto/models/crypto-attention"
import type { CryptoExchange } from "../../modules/crypto/models/crypto-exchange"
import type { CryptoInvoice } from "../../modules/crypto/models/crypto-invoice"
import type { CryptoWithdrawal } from "../../modules/crypto/models/crypto-withdrawal"
import { SEND_BACK_PURPOSES } from "../money-out/withdrawal"
import { payInOf, type StoredCallback } from "../payment/deposits"
import { fiatAtRate, invoiceRate, rateText, type InvoiceRate } from "../payment/invoice-books"
import { exact, fiatMinorUnits, sumAmounts } from "../money"

/**
 * The accountant's export (docs/books.md#accounting-export): one row per crypto amount of a
 * period, from our own tables, with the fiat value at the time of receipt, then totals per coin
 * and kind. Pure row builders here; the paged reader is `books-export/source.ts`, the CSV and
 * JSON writers `books-export/write.ts`.
 *
 * Rules:
 * - Every amount is an exact decimal string in its coin (`psys_cid`); fees too. Never a float.
 * - The fiat value of an invoice amount is the one rule of `invoice-books.ts` (`invoiceRate`: the
 *   gateway's `source_rate`, `rate_source` `gateway`, else `source_amount / expected_amount`,
 *   `derived`); a withdrawal's, its own `source_rate`. Rounded half-up to the fiat's minor units
 *   (2 for EUR and USD); a derived rate is shown to 8 decimal places, the value is computed exactly.
 * - Dates are UTC ISO 8601 (`toISOString()`).
 * - `counted` says whether a row's amount is in the totals: memo rows (overpayment, underpayment,
 *   late payment: parts of an amount a payment row already holds) count in their own kind only;
 *   money out and exchanges count once `completed`; a pay_in once completed.
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
  | "sent_at"
> & { created_at: Date }
export type BooksExchange = Pick<ExchangeRow, "id" | "from_currency" | "to_currency" | "from_amount" | "to_amount" | "status" | "exchange_id" | "sent_at"> & {
  created_at: Date
}
export type BooksAttention = Pick<AttentionRow, "id" | "kind" | "subject_id" | "order_id" | "psys_cid" | "currency" | "amount" | "evidence"> & { created_at: Date }
export type BooksPayIn = StoredCallback & { created_at: Date }

/** Order display ids by order id (one lookup per page). */
export type DisplayIds = ReadonlyMap<string, string>

const iso = (date: Date | string | null | undefined): string | null => (date === null || date === undefined ? null : new Date(date).toISOString())
const positive = (value: string | null | undefined): value is string => value !== null && value !== undefined && exact(value).gt(0)
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
  to_psys_cid: null,
  to_amount: null,
  address: null,
  tx: null,
  status: null,
  session_status: null,
  purpose: null,
})

function withFiat(row: BooksRow, amount: string, fiatCurrency: string | null, rate: InvoiceRate | null): BooksRow {
  if (fiatCurrency === null || rate === null) return row
  return {
    ...row,
    fiat_currency: fiatCurrency.toUpperCase(),
    fiat_value: fiatAtRate(amount, rate, fiatCurrency).toFixed(fiatMinorUnits(fiatCurrency)),
    rate: rateText(rate),
    rate_source: rate.source,
  }
}

/** An invoice's rows: its payment (what it received) and the over/underpayment it recorded. */
export function invoiceRows(invoice: BooksInvoice, displayIds: DisplayIds = new Map()): BooksRow[] {
  if (!positive(invoice.received_amount)) return []
  const rate = invoiceRate(invoice)
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
    invoice.source_currency,
    rate
  )
  const rows = [payment]
  if (positive(invoice.overpaid_amount)) {
    rows.push(withFiat({ ...base, kind: "overpayment", direction: DIRECTION.overpayment, amount: exact(invoice.overpaid_amount).toFixed() }, invoice.overpaid_amount, invoice.source_currency, rate))
  }
  if (positive(invoice.underpaid_amount)) {
    rows.push(withFiat({ ...base, kind: "underpayment", direction: DIRECTION.underpayment, amount: exact(invoice.underpaid_amount).toFixed(), purpose: "within_tolerance" }, invoice.underpaid_amount, invoice.source_currency, rate))
  }
  return rows
}

const evidenceOf = (item: BooksAttention): Record<string, unknown> => (typeof item.evidence === "object" && item.evidence !== null ? (item.evidence as Record<string, unknown>) : {})

/**
 * The attention items that are amounts of their own: a late payment, and an underpayment beyond
 * the tolerance (what is due back). Others are already rows: an overpayment or an accepted
 * shortfall comes from the invoice row (invoiceRows).
 */
export function attentionRows(item: BooksAttention, displayIds: DisplayIds = new Map()): BooksRow[] {
  if (!positive(item.amount)) return []
  const evidence = evidenceOf(item)
  let kind: BooksRowKind
  if (item.kind === "late_payment") kind = "late_payment"
  else if (item.kind === "underpaid" && evidence.within_tolerance === false) kind = "underpayment"
  else return []
  return [
    {
      ...empty(kind),
      created_at: iso(item.created_at),
      reference: item.subject_id,
      order_display_id: item.order_id === null ? null : (displayIds.get(item.order_id) ?? null),
      order_id: item.order_id,
      psys_cid: item.psys_cid,
      currency: item.currency,
      amount: exact(item.amount).toFixed(),
      purpose: kind === "underpayment" ? "beyond_tolerance" : null,
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
export function withdrawalRows(withdrawal: BooksWithdrawal, displayIds: DisplayIds = new Map()): BooksRow[] {
  const kind: BooksRowKind =
    withdrawal.purpose === "refund" ? "refund" : SEND_BACK_PURPOSES.has(withdrawal.purpose) ? "send_back" : withdrawal.type === "mass_cash_out" ? "mass_payout" : "withdrawal"
  // A withdrawal's own rate at the moment of transfer (spec §2.2 `source_rate`).
  const rate: InvoiceRate | null = positive(withdrawal.source_rate) ? { times: withdrawal.source_rate, per: "1", source: "gateway" } : null
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
      withdrawal.source_currency,
      rate
    )
  })
}

/** An exchange's row: the `from` amount out, the `to` amount it bought. */
export function exchangeRows(exchange: BooksExchange): BooksRow[] {
  return [
    {
      ...empty("exchange"),
      counted: exchange.status === "completed" ? "yes" : "no",
      created_at: iso(exchange.created_at),
      paid_at: iso(exchange.sent_at),
      reference: exchange.exchange_id ?? exchange.id,
      psys_cid: exchange.from_currency,
      amount: decimalOrNull(exchange.from_amount),
      to_psys_cid: exchange.to_currency,
      to_amount: decimalOrNull(exchange.to_amount),
      status: exchange.status,
    },
  ]
}

/** A pay_in to a customer's deposit address (spec §6.2), counted once completed. */
export function payInRows(callback: BooksPayIn): BooksRow[] {
  const payIn = payInOf(callback)
  if (!positive(payIn.amount)) return []
  return [
    {
      ...empty("deposit"),
      counted: payIn.status === "completed" ? "yes" : "no",
      created_at: iso(callback.created_at),
      reference: payIn.txn_id ?? payIn.id,
      order_number: payIn.deposit_uid,
      psys_cid: payIn.psys_cid,
      currency: payIn.currency,
      amount: exact(payIn.amount).toFixed(),
      address: payIn.wallet_hash,
      tx: payIn.tx_urls.length > 0 ? payIn.tx_urls.join(" ") : null,
      status: payIn.status,
    },
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
}

/**
 * Totals as the rows stream by: bounded by kinds × coins × fiats, whatever the row count. Sums
 * stay `Decimal`s until read.
 */
export class BooksTotals {
  private readonly totals = new Map<string, { total: Omit<BooksTotal, "amount" | "commission" | "network_fee" | "fiat_value" | "to_amount">; sums: Record<"amount" | "commission" | "network_fee" | "fiat_value" | "to_amount", ReturnType<typeof exact>>; fiatMissing: boolean }>()

  add(row: BooksRow): void {
    if (row.counted !== "yes") return
    const key = JSON.stringify([row.kind, row.psys_cid, row.fiat_currency, row.to_psys_cid])
    let entry = this.totals.get(key)
    if (entry === undefined) {
      entry = {
        total: { kind: row.kind, psys_cid: row.psys_cid, fiat_currency: row.fiat_currency, count: 0, to_psys_cid: row.to_psys_cid },
        sums: { amount: exact(0), commission: exact(0), network_fee: exact(0), fiat_value: exact(0), to_amount: exact(0) },
        fiatMissing: false,
      }
      this.totals.set(key, entry)
    }
    entry.total.count += 1
    for (const field of ["amount", "commission", "network_fee", "fiat_value", "to_amount"] as const) {
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
  }
}
