import { Decimal } from "decimal.js"
import { compareDecimal, isDecimalString, isPositiveDecimal, toPlainDecimal } from "./amount.js"

/** What an order page shows about a crypto payment. */
export interface CryptoPaymentSummaryData {
  psysCid: string | null
  currency: string | null
  /** What the shopper was asked to send, in the coin: the invoice's total, the gateway's commission included. */
  amount: string | null
  /** The gateway's commission the shopper pays, included in `amount`; null when none was added (the shop pays it, or unknown). */
  commissionAmount: string | null
  /** What was received, in the coin. */
  receivedAmount: string | null
  /** Received beyond `amount`, in the coin, as the store recorded it. */
  overpaidAmount: string | null
  /** The shortfall the store accepted within its underpaid tolerance, in the coin (status route only): nothing more is due. */
  underpaidAmount: string | null
  txnId: string | null
  invoiceUrl: string | null
  txUrls: string[]
}

const text = (record: Record<string, unknown>, key: string): string | null => {
  const value = record[key]
  return typeof value === "string" && value.trim() !== "" ? value : null
}
const decimal = (record: Record<string, unknown>, ...keys: string[]): string | null => {
  for (const key of keys) {
    const value = record[key]
    if (isDecimalString(value)) return value
  }
  return null
}

/**
 * Reads a crypto payment from what an order page has: the `data` of the order's payment (the
 * provider's session data: `psys_cid`, `currency`, `amount`, `invoice_total_sum`, `received_amount`,
 * `txn_id`, ...) or an invoice of the payment-status route. Unknown or malformed fields become
 * `null`, never a guess; a number where an amount belongs is dropped (a float is not an amount).
 *
 * One amount: what the shopper sends. In the session data `amount` is the invoice before the
 * commission a shopper-paid commission adds and `invoice_total_sum` the total to send (spec §2.1,
 * §4.1); the status route's `amount` is already that total. So the total comes first, and the
 * commission (`commission_amount`, kept by the store) is shown beside it, never a second "amount".
 */
export function readCryptoPaymentData(data: unknown): CryptoPaymentSummaryData {
  const record = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {}
  const urls = record.tx_urls
  const total = decimal(record, "invoice_total_sum", "expected_amount", "amount")
  return {
    psysCid: text(record, "psys_cid"),
    currency: text(record, "currency"),
    amount: total,
    commissionAmount: positive(decimal(record, "commission_amount")),
    receivedAmount: decimal(record, "received_amount"),
    overpaidAmount: positive(decimal(record, "overpaid_amount")),
    underpaidAmount: positive(decimal(record, "underpaid_amount")),
    txnId: text(record, "active_txn_id") ?? text(record, "txn_id"),
    invoiceUrl: text(record, "invoice_url"),
    txUrls: Array.isArray(urls) ? urls.filter((url): url is string => typeof url === "string" && /^https?:\/\//i.test(url)) : [],
  }
}

const positive = (value: string | null): string | null => (value !== null && isPositiveDecimal(value) ? value : null)

/**
 * "Paid X of Y", in one coin: `received` (X) of `amount` (Y, the amount to send, commission
 * included), and what the difference means.
 * - `paid`: X equals Y.
 * - `underpaid`: X below Y; `due` is Y − X (exact), still to pay.
 * - `short_accepted`: X below Y and the store accepted the shortfall within its underpaid tolerance
 *   (`underpaid_amount`, status route): `shortfall` is it, nothing more is due.
 * - `overpaid`: X above Y; `excess` is the store's `overpaid_amount`, else X − Y (exact).
 * Null when either figure is unknown: nothing is guessed.
 */
export type CryptoPaymentProgress =
  | { kind: "paid"; received: string; amount: string }
  | { kind: "underpaid"; received: string; amount: string; due: string }
  | { kind: "short_accepted"; received: string; amount: string; shortfall: string }
  | { kind: "overpaid"; received: string; amount: string; excess: string }

/** decimal.js rounds to 20 significant digits by default; 200 keep any difference of two amounts exact. */
const ExactDecimal = Decimal.clone({ precision: 200 })

export function cryptoPaymentProgress(payment: CryptoPaymentSummaryData): CryptoPaymentProgress | null {
  const { amount, receivedAmount: received } = payment
  if (amount === null || received === null) return null
  const order = compareDecimal(received, amount)
  if (order === 0) return { kind: "paid", received, amount }
  const difference = new ExactDecimal(toPlainDecimal(amount)).minus(new ExactDecimal(toPlainDecimal(received))).abs().toFixed()
  if (order < 0) {
    return payment.underpaidAmount !== null
      ? { kind: "short_accepted", received, amount, shortfall: payment.underpaidAmount }
      : { kind: "underpaid", received, amount, due: difference }
  }
  return { kind: "overpaid", received, amount, excess: payment.overpaidAmount ?? difference }
}
