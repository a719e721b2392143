import { Decimal } from "decimal.js"
import { isDecimalString } from "../../gateway"

/** What we stored about an invoice when we created it (src/modules/crypto/models/crypto-invoice.ts). */
export interface InvoiceRecordForCheck {
  order_number: string
  /** The first invoice of the chain, the one we created. */
  txn_id: string | null
  /** The invoice of the chain that holds the money (after a currency switch); its coin is `psys_cid`. */
  active_txn_id?: string | null
  psys_cid: string | null
  currency: string | null
  /** `invoice_total_sum` at creation: what the shopper must send, in the invoice's coin. */
  expected_amount: string | null
  source_currency: string
  source_amount: string
}

/** One field where a verified callback disagrees with our invoice record. */
export interface CallbackDiscrepancy {
  field: string
  callback: string
  invoice: string
}

const textOf = (fields: Readonly<Record<string, unknown>>, name: string): string | undefined => {
  const value = fields[name]
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined
}

const sameText = (a: string, b: string): boolean => a.toUpperCase() === b.toUpperCase()

/** Decimal equality ("0.50" = "0.5"); text that is not a decimal never equals anything. */
const sameAmount = (a: string, b: string): boolean => isDecimalString(a) && isDecimalString(b) && new Decimal(a).eq(b)

/**
 * Checks a verified callback's coin and amounts (spec §6.1) against the invoice we created. A
 * valid signature proves the gateway sent it (spec §6.3), not that it is about what we think: a
 * discrepancy is worth a warning, and the gateway's re-read of the invoice (not the callback)
 * decides the money state.
 *
 * - Every invoice of a switch chain keeps the fiat amount and the order number (spec §2.1), so
 *   `order_number`, `source_currency` and `source_amount` are checked for all of them.
 * - The coin (`psys_cid`, white-label shops only; `currency`) and the amount asked
 *   (`invoice_total_sum`) are checked only for the invoice whose coin and amounts the record holds
 *   (the active one of the chain, else the one we created): a sibling of a switch chain asks
 *   another coin and amount by design, and two coins are never compared.
 * - `amount` (what was received) must be a decimal; how it compares with what was asked is the
 *   status map's business (under- and overpayment), not a discrepancy.
 *
 * A field missing on either side is not checked (plain shops get few fields, spec §2.2).
 */
export function checkCallbackAgainstInvoice(
  fields: Readonly<Record<string, unknown>>,
  invoice: InvoiceRecordForCheck
): CallbackDiscrepancy[] {
  const found: CallbackDiscrepancy[] = []
  const compare = (field: string, invoiceValue: string | null, same: (a: string, b: string) => boolean) => {
    const callbackValue = textOf(fields, field)
    if (callbackValue !== undefined && invoiceValue !== null && invoiceValue !== "" && !same(callbackValue, invoiceValue)) {
      found.push({ field, callback: callbackValue, invoice: invoiceValue })
    }
  }

  compare("order_number", invoice.order_number, (a, b) => a === b)
  compare("source_currency", invoice.source_currency, sameText)
  compare("source_amount", invoice.source_amount, sameAmount)

  const txnId = textOf(fields, "txn_id")
  const recorded = invoice.active_txn_id ?? invoice.txn_id
  const isOurInvoice = recorded !== null && recorded !== undefined && txnId === recorded
  if (isOurInvoice) {
    compare("psys_cid", invoice.psys_cid, sameText)
    compare("currency", invoice.currency, sameText)
    compare("invoice_total_sum", invoice.expected_amount, sameAmount)
  }

  const received = textOf(fields, "amount")
  if (received !== undefined && !isDecimalString(received)) {
    found.push({ field: "amount", callback: received, invoice: "a decimal amount" })
  }
  return found
}

/** One log line for the discrepancies (coins and amounts only: nothing secret is in them). */
export function describeDiscrepancies(discrepancies: readonly CallbackDiscrepancy[]): string {
  return discrepancies
    .map(({ field, callback, invoice }) => `${field} "${callback.slice(0, 64)}" (invoice: "${invoice.slice(0, 64)}")`)
    .join(", ")
}
