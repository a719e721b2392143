import type { CryptoPaymentStatusResponse } from "../types.js"
import { isPositiveDecimal } from "./amount.js"
import { toCryptoPaymentState } from "./status.js"

/**
 * What the return page does, decided from the store's payment status only. The return URL's own
 * query (`?status=success`, a gateway flag) is never trusted: a shopper can type it.
 * - `order`: an order exists (the callback placed it, or an earlier return): show it.
 * - `complete`: paid (or authorized) and no order yet: complete the cart (`sdk.store.cart.complete`).
 * - `not_received`: the invoice is open and nothing was sent to it yet (`shopper_status` `new`): say
 *   so, not "being confirmed", keep polling (money on its way shows up), and offer the way back to
 *   the invoice or the checkout.
 * - `pending`: money seen and not settled yet, or nothing known yet: show a waiting page that polls.
 * - `rest_due`: the invoice ended short and the rest can be paid (a top-up is offered or open), also
 *   when an order placed on detection waits for it: offer "Pay the rest" (the store's
 *   docs/attention.md, "Paying the rest"), not the order or a failure.
 * - `failed`: the invoice expired, was canceled or failed, or the cart changed since it was made
 *   (`cart_changed`: money sent to that invoice is returned by the store, never completes the cart):
 *   back to checkout for a new invoice.
 */
export type CryptoReturnDecision =
  | { kind: "order"; orderId: string }
  | { kind: "complete" }
  | { kind: "not_received" }
  | { kind: "rest_due" }
  | { kind: "pending" }
  | { kind: "failed"; reason: CryptoFailureReason }

/** `underpaid`: expired with only part of the amount received (a refund is due). */
export type CryptoFailureReason = "expired" | "underpaid" | "canceled" | "error" | "cart_changed"

// "pending_authorization": the store places orders on detection, so completing the cart places the order.
const AUTHORIZED_SESSION = new Set(["pending_authorization", "authorized", "captured"])
const AUTHORIZED_COLLECTION = new Set(["authorized", "partially_authorized", "completed", "partially_captured"])

export function resolveCryptoReturn(status: CryptoPaymentStatusResponse): CryptoReturnDecision {
  const state = toCryptoPaymentState(status)
  // Before the order: an order placed on detection waits for the rest, and the shopper pays it here.
  if (state.status === "rest_due") {
    return { kind: "rest_due" }
  }
  if (status.order_id) {
    return { kind: "order", orderId: status.order_id }
  }
  switch (state.status) {
    case "paid":
    case "overpaid":
      return { kind: "complete" }
    case "expired":
      return { kind: "failed", reason: isPositiveDecimal(state.refundDueAmount) || isPositiveDecimal(state.receivedAmount) ? "underpaid" : "expired" }
    case "canceled":
      return { kind: "failed", reason: "canceled" }
    case "error":
      return { kind: "failed", reason: "error" }
    case "cart_changed":
      return { kind: "failed", reason: "cart_changed" }
    case "new":
      // Nothing sent to the invoice yet (a session the store already authorized still completes).
      return isAuthorized(status) ? { kind: "complete" } : { kind: "not_received" }
    default:
      // No current invoice: nothing of this cart is paid (money on an earlier invoice never is).
      if (status.invoice === null) {
        return { kind: "pending" }
      }
      // Detected with the store placing orders on detection: the session is authorized, so the
      // cart can be completed now.
      return isAuthorized(status) ? { kind: "complete" } : { kind: "pending" }
  }
}

function isAuthorized(status: CryptoPaymentStatusResponse): boolean {
  return AUTHORIZED_SESSION.has(status.invoice?.session_status ?? "") || AUTHORIZED_COLLECTION.has(status.payment_collection_status ?? "")
}
