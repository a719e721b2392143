import type { CryptoAbandonedPayment, CryptoInvoicePaymentStatus, CryptoPaymentState, CryptoPaymentStatus, CryptoPaymentStatusResponse } from "../types.js"
import { isDecimalString, isPositiveDecimal } from "./amount.js"

/** The statuses no later poll can change. */
export const FINAL_CRYPTO_STATUSES: readonly CryptoPaymentStatus[] = ["paid", "overpaid", "expired", "canceled", "error", "cart_changed"]

export function isFinalCryptoStatus(status: CryptoPaymentStatus): boolean {
  return FINAL_CRYPTO_STATUSES.includes(status)
}

const decimalOrNull = (value: string | null | undefined): string | null => (isDecimalString(value) ? value : null)

/**
 * THE kit's status model: one store status response → what the shopper is told. The store maps the
 * gateway's statuses (spec §3) and the amounts to `invoice.shopper_status` (new, detected,
 * underpaid, paid, overpaid, expired, canceled, error, pending), so the kit never reads a gateway
 * status. No current invoice after the cart changed (`cart_changed`) is `cart_changed`. Money on an
 * invoice the cart no longer uses (`abandoned_payments`) is listed apart and never makes the cart
 * paid: the store returns it.
 */
export function toCryptoPaymentState(response: CryptoPaymentStatusResponse | null | undefined): CryptoPaymentState {
  const rested = restState(response)
  if (rested !== null) return rested
  return invoiceState(response)
}

/** The top-up statuses in which it still takes the shopper's money. */
const TOP_UP_OPEN: ReadonlySet<string> = new Set(["new", "detected", "underpaid", "pending"])

/**
 * An invoice that ended short whose rest can be paid (`rest_due`), or whose top-up is being paid:
 * the top-up's payment fields, the group's received and due amounts. A paid group is the invoice's
 * own `paid` (the store answers it so), never this.
 */
function restState(response: CryptoPaymentStatusResponse | null | undefined): CryptoPaymentState | null {
  const invoice = response?.invoice ?? null
  const rest = invoice?.rest ?? null
  if (invoice === null || rest === null || !isDecimalString(rest.received_amount) || !isDecimalString(rest.due_amount)) return null
  const topUp = rest.top_up
  const topUpOpen = topUp !== null && TOP_UP_OPEN.has(topUp.shopper_status)
  if (!topUpOpen && !rest.can_pay_rest) return null
  const base = invoiceState(response)
  const restFields = { receivedAmount: rest.received_amount, dueAmount: rest.due_amount, canPayRest: rest.can_pay_rest, topUpOpen }
  if (!topUpOpen || topUp === null) {
    return { ...base, status: "rest_due", final: false, amountDue: rest.due_amount, address: null, expiresAt: null, rest: restFields }
  }
  const status: CryptoPaymentStatus = topUp.shopper_status === "new" || topUp.shopper_status === "pending" ? "rest_due" : topUp.shopper_status
  const amount = decimalOrNull(topUp.amount)
  return {
    ...base,
    status,
    final: false,
    psysCid: topUp.psys_cid ?? base.psysCid,
    currency: topUp.currency ?? base.currency,
    address: topUp.address,
    invoiceUrl: topUp.invoice_url,
    amount,
    // The top-up asks for the rest: the order's breakdown (total, rate, commission) is the first invoice's.
    commissionAmount: null,
    sourceAmount: null,
    sourceRate: null,
    amountDue: amount,
    receivedAmount: rest.received_amount,
    confirmations: null,
    expiresAt: topUp.expires_at,
    txUrls: [],
    rest: restFields,
  }
}

function invoiceState(response: CryptoPaymentStatusResponse | null | undefined): CryptoPaymentState {
  const invoice = response?.invoice ?? null
  const amount = decimalOrNull(invoice?.amount) ?? decimalOrNull(invoice?.expected_amount)
  const pendingAmount = decimalOrNull(invoice?.pending_amount)
  const commission = invoice?.commission_amount
  const status = statusOf(response)
  const amountDue =
    status === "underpaid" || status === "new" || status === "detected" ? pendingAmount ?? (status === "new" ? amount : null) : null
  return {
    status,
    final: isFinalCryptoStatus(status),
    orderId: response?.order_id ?? null,
    psysCid: invoice?.psys_cid ?? null,
    currency: invoice?.currency ?? invoice?.psys_cid ?? null,
    address: invoice?.address ?? null,
    invoiceUrl: invoice?.invoice_url ?? null,
    amount,
    commissionAmount: isPositiveDecimal(commission) ? commission : null,
    sourceAmount: decimalOrNull(invoice?.source_amount),
    sourceCurrency: typeof invoice?.source_currency === "string" && invoice.source_currency.trim() !== "" ? invoice.source_currency : null,
    sourceRate: isPositiveDecimal(invoice?.source_rate) ? invoice.source_rate : null,
    amountDue,
    receivedAmount: decimalOrNull(invoice?.received_amount),
    overpaidAmount: decimalOrNull(invoice?.overpaid_amount),
    refundDueAmount: decimalOrNull(invoice?.refund_due_amount),
    confirmations: invoice?.confirmations ?? null,
    expiresAt: invoice?.expires_at ?? null,
    txUrls: (invoice?.tx_urls ?? []).filter((url): url is string => typeof url === "string"),
    abandonedPayments: (response?.abandoned_payments ?? []).filter(
      (payment): payment is CryptoAbandonedPayment => typeof payment === "object" && payment !== null && isDecimalString(payment.received_amount)
    ),
    rest: null,
  }
}

/** The statuses the store may send as `invoice.shopper_status`. */
const INVOICE_PAYMENT_STATUSES: Record<CryptoInvoicePaymentStatus, true> = {
  new: true,
  pending: true,
  detected: true,
  underpaid: true,
  overpaid: true,
  paid: true,
  expired: true,
  canceled: true,
  error: true,
}

const isInvoicePaymentStatus = (value: unknown): value is CryptoInvoicePaymentStatus =>
  typeof value === "string" && Object.prototype.hasOwnProperty.call(INVOICE_PAYMENT_STATUSES, value)

function statusOf(response: CryptoPaymentStatusResponse | null | undefined): CryptoPaymentStatus {
  const invoice = response?.invoice ?? null
  if (invoice === null) {
    return response?.cart_changed === true ? "cart_changed" : "pending"
  }
  // A store older than `shopper_status`, or a value this kit does not know: not paid yet, never money.
  return isInvoicePaymentStatus(invoice.shopper_status) ? invoice.shopper_status : "pending"
}
