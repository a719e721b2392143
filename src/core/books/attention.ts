import type { RaiseCryptoAttentionInput } from "../../modules/crypto/service"
import type { AssessmentFields } from "../payment/invoice-chain"
import { exact } from "../money"
import type { CryptoInvoiceSessionState } from "../payment/payment-state"
import type { OrderOutcome } from "../config/order-rules"

/**
 * What of one invoice sync needs the merchant's decision (docs/attention.md): pure, so every case
 * of money received is decided in one place and unit-tested.
 */

/** The invoice mirror as it was before this sync. */
export interface InvoiceBeforeSync {
  id: string
  provider_id: string
  cart_id: string | null
  order_id: string | null
  order_number: string
  session_status: CryptoInvoiceSessionState
  refund_due_amount: string | null
}

export interface SyncResult {
  /** What the sync did: `applied`, `ignored_backward`, `session_gone` (the cart changed), `superseded`, `incomplete`. */
  outcome: string
  /** The session status after the sync. */
  session_status: CryptoInvoiceSessionState
  order_id: string | null
}

const positive = (value: string | null | undefined): value is string => value !== null && value !== undefined && exact(value).gt(0)

export function invoiceAttentions(before: InvoiceBeforeSync, seen: AssessmentFields, result: SyncResult): RaiseCryptoAttentionInput[] {
  const items: RaiseCryptoAttentionInput[] = []
  const coin = { psys_cid: seen.psys_cid, currency: seen.currency }
  const base = { provider_id: before.provider_id, subject_id: before.id, order_id: result.order_id ?? before.order_id, cart_id: before.cart_id, ...coin }
  const evidence = (extra: Record<string, unknown> = {}) => ({
    order_number: before.order_number,
    txn_id: seen.active_txn_id,
    gateway_status: seen.gateway_status,
    expected: seen.expected_amount,
    received: seen.received_amount,
    session_status: result.session_status,
    ...extra,
  })
  const received = seen.received_amount

  if (result.outcome === "session_gone" || result.outcome === "superseded") {
    // The shopper paid an invoice the cart no longer uses: nobody's order holds this money.
    if (positive(received)) {
      items.push({ ...base, kind: "abandoned_invoice_payment", amount: received, evidence: evidence({ reason: result.outcome }) })
    }
  } else if (before.session_status === "canceled" && positive(received)) {
    // Money on an invoice whose order was already canceled (expired or cancelled, then paid).
    const late = exact(received).minus(before.refund_due_amount ?? "0")
    if (late.gt(0)) {
      items.push({ ...base, kind: "late_payment", amount: late.toFixed(), evidence: evidence({ canceled_before: true, refund_due_before: before.refund_due_amount }) })
    }
  } else {
    if (positive(seen.underpaid_amount)) {
      items.push({ ...base, kind: "underpaid", amount: seen.underpaid_amount, evidence: evidence({ within_tolerance: true, shortfall: seen.underpaid_amount }) })
    }
    if (seen.kind === "failed" && positive(seen.refund_due_amount)) {
      items.push({ ...base, kind: "underpaid", amount: seen.refund_due_amount, evidence: evidence({ within_tolerance: false, refund_due: seen.refund_due_amount }) })
    }
    if (positive(seen.overpaid_amount)) {
      items.push({ ...base, kind: "overpaid", amount: seen.overpaid_amount, evidence: evidence({ overpaid: seen.overpaid_amount }) })
    }
    if (seen.kind === "error") {
      items.push({ ...base, kind: "invoice_error", amount: positive(received) ? received : null, evidence: evidence() })
    }
  }
  for (const sibling of seen.siblings_with_money) {
    if (!positive(sibling.received)) continue
    items.push({
      ...base,
      kind: "duplicate_invoice_payment",
      subject_id: `${before.id}:${sibling.txn_id}`,
      psys_cid: sibling.psys_cid,
      currency: sibling.currency,
      amount: sibling.received,
      evidence: {
        order_number: before.order_number,
        invoice_id: before.id,
        txn_id: sibling.txn_id,
        gateway_status: sibling.status,
        expected: sibling.expected,
        received: sibling.received,
        paid_invoice_txn_id: seen.active_txn_id,
      },
    })
  }
  return items
}

/** Why a sync left an order as it was (docs/books.md#protect-order-status): a person canceled or edited it by hand. */
export interface HandChange {
  reason: "canceled" | "edited"
  /** The order's status as Medusa had it. */
  order_status: string
}

/** The fields an item about one invoice's order shares: where it is, the order, the coin and what the gateway said. */
function orderItem(before: InvoiceBeforeSync, seen: AssessmentFields, orderId: string) {
  return {
    provider_id: before.provider_id,
    subject_id: before.id,
    order_id: orderId,
    cart_id: before.cart_id,
    psys_cid: seen.psys_cid,
    currency: seen.currency,
    evidence: {
      order_number: before.order_number,
      gateway_status: seen.gateway_status,
      txn_id: seen.active_txn_id,
      received: seen.received_amount,
      expected: seen.expected_amount,
    },
  }
}

/**
 * The `protected_order` item of a sync that left an order a person canceled or edited by hand as
 * it was (docs/books.md#protect-order-status): one per invoice, its amount the money received in
 * the invoice's coin, for the merchant to keep (with the order) or send back.
 */
export function protectedOrderAttention(before: InvoiceBeforeSync, seen: AssessmentFields, orderId: string, change: HandChange): RaiseCryptoAttentionInput {
  const item = orderItem(before, seen, orderId)
  return {
    ...item,
    kind: "protected_order",
    amount: positive(seen.received_amount) ? seen.received_amount : null,
    evidence: { reason: change.reason, order_status: change.order_status, ...item.evidence },
  }
}

/**
 * The `order_waiting` item of an order the merchant's outcome rules keep waiting
 * (docs/books.md#order-rules): an expired unpaid or underpaid invoice's order not canceled, an
 * overpaid one's payment not captured. One per invoice, holding no money: the money items
 * (`underpaid`, `overpaid`) are raised beside it as always. The merchant captures, cancels or keeps
 * the order in Medusa's admin, then marks the item resolved.
 */
export function orderWaitingAttention(before: InvoiceBeforeSync, seen: AssessmentFields, orderId: string, outcome: Exclude<OrderOutcome, "error">): RaiseCryptoAttentionInput {
  const item = orderItem(before, seen, orderId)
  // No amount: the money is the `underpaid` / `overpaid` item's, counted there once.
  return { ...item, kind: "order_waiting", amount: null, evidence: { outcome, rule: "wait", ...item.evidence } }
}
