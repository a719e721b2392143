import type { CryptoAbandonedPayment, CryptoPaymentState, CryptoPaymentStatus, CryptoPaymentStatusResponse } from "../types.js"
import { compareDecimal, isDecimalString, isPositiveDecimal } from "./amount.js"

/** The statuses no later poll can change. */
export const FINAL_CRYPTO_STATUSES: readonly CryptoPaymentStatus[] = ["paid", "overpaid", "expired", "canceled", "error", "cart_changed"]

export function isFinalCryptoStatus(status: CryptoPaymentStatus): boolean {
  return FINAL_CRYPTO_STATUSES.includes(status)
}

const decimalOrNull = (value: string | null | undefined): string | null => (isDecimalString(value) ? value : null)

/**
 * THE kit's status model: one store status response → what the shopper is told. Gateway statuses
 * (spec §3): `new` nothing seen; `pending` / `pending internal` seen, waiting for confirmations;
 * `completed` paid; `mismatch` overpaid; `expired` (paid when the store accepted it within its
 * underpayment tolerance: session `captured`); `cancelled`; `cancelled duplicate` (paid in another
 * coin of the same chain: the store's active invoice decides, so it is not final here); `error`.
 * While the invoice is open, a `pending_amount` below the amount asked means part was received.
 * No current invoice after the cart changed (`cart_changed`) is `cart_changed`. Money on an
 * invoice the cart no longer uses (`abandoned_payments`) is listed apart and never makes the cart
 * paid: the store returns it.
 */
export function toCryptoPaymentState(response: CryptoPaymentStatusResponse | null | undefined): CryptoPaymentState {
  const invoice = response?.invoice ?? null
  const amount = decimalOrNull(invoice?.amount) ?? decimalOrNull(invoice?.expected_amount)
  const pendingAmount = decimalOrNull(invoice?.pending_amount)
  const status = statusOf(response, amount, pendingAmount)
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
  }
}

function statusOf(
  response: CryptoPaymentStatusResponse | null | undefined,
  amount: string | null,
  pendingAmount: string | null
): CryptoPaymentStatus {
  const invoice = response?.invoice ?? null
  if (invoice === null) {
    return response?.cart_changed === true ? "cart_changed" : "pending"
  }
  const partlyPaid =
    (isPositiveDecimal(pendingAmount) && amount !== null && compareDecimal(pendingAmount, amount) < 0) ||
    (isPositiveDecimal(invoice.received_amount) && amount !== null && compareDecimal(invoice.received_amount, amount) < 0)
  switch ((invoice.status ?? "").trim().toLowerCase()) {
    case "new":
      return partlyPaid ? "underpaid" : "new"
    case "pending":
    case "pending internal":
      return partlyPaid ? "underpaid" : "detected"
    case "completed":
      return isPositiveDecimal(invoice.overpaid_amount) ? "overpaid" : "paid"
    case "mismatch":
      return "overpaid"
    case "expired":
      // Within the store's underpayment tolerance the plugin captures the session: it counts as paid.
      return invoice.session_status === "captured" || invoice.session_status === "authorized" ? "paid" : "expired"
    case "cancelled":
      return "canceled"
    case "error":
      return "error"
    default:
      return "pending"
  }
}
