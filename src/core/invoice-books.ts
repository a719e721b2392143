import type { Decimal } from "decimal.js"
import type { Invoice, Operation } from "../gateway"

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
 */
export function invoiceBooksOf(operation: Operation): InvoiceBooks {
  const fromTx = (operation.tx ?? []).map((tx) => tx.txid).filter((id): id is string => typeof id === "string" && id !== "")
  const txIds = operation.tx_id && operation.tx_id.length > 0 ? operation.tx_id : fromTx
  return {
    source_rate: decimalText(operation.source_rate, true),
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
