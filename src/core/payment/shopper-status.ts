import { Decimal } from "decimal.js"
import { isDecimalString } from "../../gateway/core/money"
import { GatewayStatus, INVOICE_STATUSES, type KnownStatus } from "../../gateway/types/common"

/**
 * The gateway's statuses (spec §3) read by the plugin, and what the shopper is told about an
 * invoice. No Medusa import: the storefront kit's tests run this mapping in a browser-like
 * environment. src/core/payment/payment-state.ts re-exports all of it.
 */

/** Whether a string is one of the statuses spec §3 documents (exact, lower case). */
export function isKnownStatus(value: string): value is KnownStatus {
  return (INVOICE_STATUSES as readonly string[]).includes(value)
}

/** A status as the gateway sent it, trimmed and lower-cased, when spec §3 documents it; else undefined. */
export function knownStatusOf(value: string | null | undefined): KnownStatus | undefined {
  const status = (value ?? "").trim().toLowerCase()
  return isKnownStatus(status) ? status : undefined
}

/**
 * What the shopper is told about the cart's current invoice (GET /store/crypto/payment-status,
 * `invoice.shopper_status`), so the storefront kit never reads a gateway status: `new` nothing seen;
 * `detected` money seen, waiting for confirmations; `underpaid` part of the amount received while
 * the invoice is open; `paid` (also an `expired` invoice the store accepted within its underpaid
 * tolerance: session captured); `overpaid` (`mismatch`, or `completed` with more than asked);
 * `expired`; `canceled`; `error`; `pending` nothing known yet (no sync, a status spec §3 does not
 * list, or `cancelled duplicate`: the chain's paid invoice decides, docs/storefront.md).
 */
export type ShopperPaymentStatus = "new" | "pending" | "detected" | "underpaid" | "overpaid" | "paid" | "expired" | "canceled" | "error"

/** The invoice as the status route shows it: amounts are decimal strings in the invoice's coin. */
export interface ShopperInvoiceFacts {
  status: string | null
  session_status: string | null
  /** What the invoice asks for. */
  amount: string | null
  /** What is still to pay (white-label). */
  pending_amount: string | null
  received_amount: string | null
  overpaid_amount: string | null
}

const decimalOf = (value: string | null): Decimal | undefined => (value !== null && isDecimalString(value) ? new Decimal(value) : undefined)
const positive = (value: string | null): Decimal | undefined => {
  const decimal = decimalOf(value)
  return decimal !== undefined && decimal.gt(0) ? decimal : undefined
}

/** Part of the amount received, not all: still due below what is asked, or received below it. */
function partlyPaid(invoice: ShopperInvoiceFacts): boolean {
  const amount = decimalOf(invoice.amount)
  if (amount === undefined) return false
  const due = positive(invoice.pending_amount)
  const received = positive(invoice.received_amount)
  return (due !== undefined && due.lt(amount)) || (received !== undefined && received.lt(amount))
}

const SHOPPER_STATUS: Record<KnownStatus, (invoice: ShopperInvoiceFacts) => ShopperPaymentStatus> = {
  [GatewayStatus.New]: (invoice) => (partlyPaid(invoice) ? "underpaid" : "new"),
  [GatewayStatus.Pending]: (invoice) => (partlyPaid(invoice) ? "underpaid" : "detected"),
  [GatewayStatus.PendingInternal]: (invoice) => (partlyPaid(invoice) ? "underpaid" : "detected"),
  [GatewayStatus.Completed]: (invoice) => (positive(invoice.overpaid_amount) !== undefined ? "overpaid" : "paid"),
  [GatewayStatus.Mismatch]: () => "overpaid",
  // Within the store's underpaid tolerance the plugin captures the session: it counts as paid.
  [GatewayStatus.Expired]: (invoice) => (invoice.session_status === "captured" || invoice.session_status === "authorized" ? "paid" : "expired"),
  [GatewayStatus.Cancelled]: () => "canceled",
  [GatewayStatus.CancelledDuplicate]: () => "pending",
  [GatewayStatus.Error]: () => "error",
}

/** Maps the current invoice to what the shopper is told (see {@link ShopperPaymentStatus}). */
export function shopperStatusOf(invoice: ShopperInvoiceFacts): ShopperPaymentStatus {
  const status = knownStatusOf(invoice.status)
  return status === undefined ? "pending" : SHOPPER_STATUS[status](invoice)
}
