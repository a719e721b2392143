import { Decimal } from "decimal.js"
import { isDecimalString, type Invoice, type Operation } from "../../gateway"
import { exact, fiatToMinorUnits } from "../money"

/**
 * What a bookkeeper needs of one invoice beyond its amounts (docs/books.md#accounting-export), kept
 * on the invoice row (`crypto_invoice.source_rate`, `commission`, `network_fee`, `tx_ids`,
 * `paid_at`): the fiat rate the gateway used (spec §2.1 `source_rate`: fiat per coin), the service
 * commission and the network fee the gateway took, the transactions that paid it, and when the
 * gateway finished it. Decimal strings in the invoice's coin; null where the gateway did not say.
 */
export interface InvoiceBooks {
  source_rate: string | null
  commission: string | null
  network_fee: string | null
  tx_ids: string[] | null
  paid_at: Date | null
}

const decimalText = (value: Decimal | null | undefined, positive = false): string | null =>
  value === null || value === undefined || value.isNaN() || (positive ? !value.gt(0) : value.isNegative()) ? null : value.toFixed()

/** At creation (spec §2.1): the rate and the commission the gateway quoted. */
export function invoiceBooksAtCreation(invoice: Pick<Invoice, "source_rate" | "invoice_commission">): Pick<InvoiceBooks, "source_rate" | "commission"> {
  return { source_rate: decimalText(invoice.source_rate, true), commission: decimalText(invoice.invoice_commission) }
}

/**
 * From the gateway's operation of the invoice that holds the money (spec §2.2): the commission and
 * fee actually taken when known (`actual_commission`, `actual_fee`), else the quoted `commission`;
 * the transaction ids from `tx_id`, else from `tx[].txid`; `finished_at_utc` as the payment's time.
 * The rate stays the invoice's own (spec §2.1, at creation: what the order's fiat total was priced
 * at); the operation's `source_rate` (at the moment of transfer) is taken only when the invoice had
 * none.
 */
export function invoiceBooksOf(operation: Operation, invoiceRate: string | null): InvoiceBooks {
  const fromTx = (operation.tx ?? []).map((tx) => tx.txid).filter((id): id is string => typeof id === "string" && id !== "")
  const txIds = operation.tx_id && operation.tx_id.length > 0 ? operation.tx_id : fromTx
  return {
    source_rate: invoiceRate === null ? decimalText(operation.source_rate, true) : null,
    commission: decimalText(operation.actual_commission ?? operation.commission),
    network_fee: decimalText(operation.actual_fee),
    tx_ids: txIds.length > 0 ? [...txIds] : null,
    paid_at: typeof operation.finished_at_utc === "number" && operation.finished_at_utc > 0 ? new Date(operation.finished_at_utc * 1000) : null,
  }
}

/** The columns to write: what the gateway did not say keeps what the row had (never erased). */
export function booksUpdate(books: InvoiceBooks): Partial<InvoiceBooks> {
  return Object.fromEntries(Object.entries(books).filter(([, value]) => value !== null)) as Partial<InvoiceBooks>
}

/** The columns of an invoice row its fiat value is read from; `source_rate` may be absent on older rows. */
export interface InvoicePricing {
  psys_cid: string | null
  source_amount: string
  expected_amount: string | null
  source_rate?: unknown
}

/**
 * An invoice's rate, fiat (its `source_currency`) per coin, as `times / per` so that a value is the
 * product before the quotient (exact, never a rounded rate): the gateway's `source_rate` of the
 * invoice (spec §2.1, `per` = 1, `invoice`) for an amount in the invoice's own coin; else `source_amount` over
 * the coins the invoice asked (`derived`: a sibling of a currency switch, or a row from before the
 * rate was kept; when the shopper pays the commission it prices the commission in too).
 */
export interface InvoiceRate {
  times: string
  per: string
  source: RateSource
}

/**
 * Where a rate came from (docs/books.md#fiat-values), the export's `rate_source` column: the gateway's
 * callback that reported the money (`callback`, spec §6.1/§6.2 `source_rate`), a money-out's own
 * gateway rate (`gateway`: the operation's or the refund quote's), the invoice's rate at creation
 * (`invoice`, spec §2.1), an invoice's price (`derived`: fiat total over coins asked), or the
 * gateway's currency list the store read at that moment (`rate_cache`, spec §4.8), or the books'
 * average cost of the coins an exchange sold (`cost`, docs/books.md#gain-or-loss).
 */
export const RATE_SOURCES = ["callback", "gateway", "invoice", "derived", "rate_cache", "cost"] as const
export type RateSource = (typeof RATE_SOURCES)[number]

const positiveDecimal = (value: unknown): value is string => typeof value === "string" && isDecimalString(value) && exact(value).gt(0)

/**
 * THE rule for what an invoice's coins are worth in fiat (docs/books.md#fiat-values): the export, the
 * charts and Needs attention all read it. `coin` is the coin of the amount (default: the invoice's),
 * `expected` what the invoice asked in that coin (default: the row's).
 */
export function invoiceRate(invoice: InvoicePricing, coin: string | null = invoice.psys_cid, expected: string | null = invoice.expected_amount): InvoiceRate | null {
  if (positiveDecimal(invoice.source_rate) && coin === invoice.psys_cid) return { times: invoice.source_rate, per: "1", source: "invoice" }
  if (positiveDecimal(invoice.source_amount) && positiveDecimal(expected)) return { times: invoice.source_amount, per: expected, source: "derived" }
  return null
}

/** A coin amount's value in `currency` at `rate`, rounded half-up to the currency's minor units (EUR: cents). */
export function fiatAtRate(amount: Decimal.Value, rate: InvoiceRate, currency: string): Decimal {
  return fiatToMinorUnits(exact(amount).times(rate.times).dividedBy(rate.per), currency)
}

/** A rate as one decimal string for a column: the gateway's as it sent it, a derived one to 8 decimal places. */
export function rateText(rate: InvoiceRate): string {
  return rate.per === "1" ? rate.times : exact(rate.times).dividedBy(rate.per).toDecimalPlaces(8, Decimal.ROUND_HALF_UP).toFixed()
}
