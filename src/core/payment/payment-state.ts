import { Decimal } from "decimal.js"
import { GatewayStatus, INVOICE_STATUSES, type KnownStatus } from "../../gateway"
import { exact, ExactDecimal } from "../money"
import { DEFAULT_ORDER_OUTCOMES, type OrderOutcomeRules } from "../config/order-rules"
import { knownStatusOf } from "./shopper-status"

/**
 * THE status map: gateway invoice status (spec §3) → what the Medusa payment session and order
 * become. Pure; every path (initiate, authorize, callbacks, the reconciliation job) goes through
 * it. Amounts are compared with decimal.js in the invoice's coin.
 */

// The statuses the gateway documents (spec §3) are the client's: one vocabulary for the whole plugin.
export { GatewayStatus, INVOICE_STATUSES, type KnownStatus }
export { isKnownStatus, knownStatusOf, shopperStatusOf, type ShopperInvoiceFacts, type ShopperPaymentStatus } from "./shopper-status"

/** What we know about one invoice at one moment. Amounts are in the invoice's coin. */
export interface InvoiceObservation {
  status: string
  /** What the shopper sent so far (spec §3: for `expired`, "the amount field shows what was received"). */
  received?: Decimal | undefined
  /** What the invoice asks for. */
  expected?: Decimal | undefined
}

export interface StatusPolicy {
  orderOnDetection: boolean
  /** Percent below `expected` an expired invoice may be and still count as paid. */
  underpaidTolerancePercent: Decimal
  /**
   * What an overpaid, underpaid-beyond-the-tolerance or `error` invoice makes of its session
   * (docs/books.md#order-rules); absent = today's behaviour (`DEFAULT_ORDER_OUTCOMES`). What an
   * expired unpaid or underpaid invoice does to an order that already waits is the apply step's
   * (`orderEndAction`): the session's status is the same either way.
   */
  outcomes?: Readonly<OrderOutcomeRules>
}

/** The Medusa payment session statuses this plugin uses (what the status map gives). */
export type CryptoSessionStatus = "pending" | "pending_authorization" | "captured" | "canceled" | "error"

/**
 * What an invoice mirror row's `session_status` holds: the session status applied, or `abandoned`:
 * Medusa deleted the invoice's payment session (the cart changed) while the invoice was open. Such
 * an invoice is never captured; the gateway's reading stays on the row and its money is raised as
 * `abandoned_invoice_payment` (docs/attention.md).
 */
export type CryptoInvoiceSessionState = CryptoSessionStatus | "abandoned"

export type SessionOutcome =
  /** `new`: nothing seen yet. */
  | { kind: "awaiting_payment"; sessionStatus: "pending" }
  /** `pending` / `pending internal`: money seen, not final. */
  | { kind: "detected"; sessionStatus: "pending_authorization" | "pending" }
  /**
   * `completed`, `mismatch`, or `expired` within the tolerance: captured for the session amount.
   * Under the merchant's outcome rules: an overpaid one held for review (`pending_authorization`,
   * overpaid `wait`); one expired beyond the tolerance captured for what arrived (`capture:
   * "received"`, underpaid `capture_received`).
   */
  | {
      kind: "paid"
      sessionStatus: "captured" | "pending_authorization"
      overpaid: Decimal | undefined
      underpaid: Decimal | undefined
      /** What Medusa captures: the session amount, or the fiat value of what arrived (`receivedFiatValue`). */
      capture: "session" | "received"
    }
  /** `cancelled`, `expired` with nothing, or `expired` beyond the tolerance. */
  | {
      kind: "failed"
      sessionStatus: "canceled"
      reason: "expired" | "cancelled" | "underpaid"
      /** What was received and must go back to the shopper (underpaid beyond the tolerance). */
      refundDue: Decimal | undefined
    }
  /** `error`: kept open for a manual check, or canceled (error `cancel`). */
  | { kind: "error"; sessionStatus: "error" | "canceled" }
  /** `cancelled duplicate`: says nothing about the session, which follows its switch chain. */
  | { kind: "duplicate" }
  /** A status the spec does not list: treated as not paid yet, never as money. */
  | { kind: "unknown"; sessionStatus: "pending"; status: string }

const isPositive = (value: Decimal | undefined): value is Decimal => value !== undefined && value.gt(0)

type StatusRule = (observation: InvoiceObservation, policy: StatusPolicy) => SessionOutcome

/** The map itself: one rule per documented status (a status added to the vocabulary fails the build here). */
const STATUS_RULES: Record<KnownStatus, StatusRule> = {
  [GatewayStatus.New]: () => ({ kind: "awaiting_payment", sessionStatus: "pending" }),
  [GatewayStatus.Pending]: (_, policy) => detected(policy),
  [GatewayStatus.PendingInternal]: (_, policy) => detected(policy),
  [GatewayStatus.Completed]: paid,
  [GatewayStatus.Mismatch]: paid,
  [GatewayStatus.Expired]: ({ received, expected }, policy) => mapExpired(received, expected, policy),
  [GatewayStatus.Cancelled]: ({ received }) => ({ kind: "failed", sessionStatus: "canceled", reason: "cancelled", refundDue: isPositive(received) ? received : undefined }),
  [GatewayStatus.CancelledDuplicate]: () => ({ kind: "duplicate" }),
  [GatewayStatus.Error]: (_, policy) => ({ kind: "error", sessionStatus: outcomesOf(policy).error === "cancel" ? "canceled" : "error" }),
}

/** What a gateway status (spec §3) says of an invoice, whatever the session: one row per status in `STATUS_FACTS`. */
export interface StatusFacts {
  /** Moves no more on its own (only `new`, `pending`, `pending internal` still do): the reconciliation job, a poll and a top-up stop at it. */
  settled: boolean
  /** The gateway's `amount` is final, so `received` counts as confirmed. Unlike `settled`, not `error`: a later `completed` has been seen. */
  amountFinal: boolean
  /** Takes no more money, even before its session moves: a new session gets a new invoice. Unlike `settled`, not `completed`, `mismatch`, `cancelled duplicate`: those are reused (spec §4.1 `return_existing`). */
  closed: boolean
  /** Closed before it was paid, so an abandoned invoice's cart got a newer one. Unlike `closed`, not `error`: it may still complete. */
  closedUnpaid: boolean
  /** Saw money, even before it is counted in `received_amount`. */
  moneySeen: boolean
}

export const STATUS_FACTS: Record<KnownStatus, Readonly<StatusFacts>> = {
  [GatewayStatus.New]: { settled: false, amountFinal: false, closed: false, closedUnpaid: false, moneySeen: false },
  [GatewayStatus.Pending]: { settled: false, amountFinal: false, closed: false, closedUnpaid: false, moneySeen: true },
  [GatewayStatus.PendingInternal]: { settled: false, amountFinal: false, closed: false, closedUnpaid: false, moneySeen: true },
  [GatewayStatus.Completed]: { settled: true, amountFinal: true, closed: false, closedUnpaid: false, moneySeen: true },
  [GatewayStatus.Mismatch]: { settled: true, amountFinal: true, closed: false, closedUnpaid: false, moneySeen: true },
  [GatewayStatus.Expired]: { settled: true, amountFinal: true, closed: true, closedUnpaid: true, moneySeen: false },
  [GatewayStatus.Cancelled]: { settled: true, amountFinal: true, closed: true, closedUnpaid: true, moneySeen: false },
  [GatewayStatus.CancelledDuplicate]: { settled: true, amountFinal: true, closed: false, closedUnpaid: false, moneySeen: false },
  [GatewayStatus.Error]: { settled: true, amountFinal: false, closed: true, closedUnpaid: false, moneySeen: false },
}
const NO_FACTS: Readonly<StatusFacts> = { settled: false, amountFinal: false, closed: false, closedUnpaid: false, moneySeen: false }

/** `STATUS_FACTS` for a status as stored; a status spec §3 does not list (or none) says nothing: all false. */
export function statusFacts(status: string | null | undefined): Readonly<StatusFacts> {
  const known = knownStatusOf(status)
  return known === undefined ? NO_FACTS : STATUS_FACTS[known]
}

function detected(policy: StatusPolicy): SessionOutcome {
  return { kind: "detected", sessionStatus: policy.orderOnDetection ? "pending_authorization" : "pending" }
}

const outcomesOf = (policy: StatusPolicy): Readonly<OrderOutcomeRules> => policy.outcomes ?? DEFAULT_ORDER_OUTCOMES

function paid({ received, expected }: InvoiceObservation, policy: StatusPolicy): SessionOutcome {
  const overpaid = received !== undefined && expected !== undefined && received.gt(expected) ? exact(received).minus(expected) : undefined
  return paidOutcome(policy, overpaid, undefined, "session")
}

/** A paid outcome: an overpaid one waits for the merchant's review under overpaid `wait`. */
function paidOutcome(policy: StatusPolicy, overpaid: Decimal | undefined, underpaid: Decimal | undefined, capture: "session" | "received"): SessionOutcome {
  const held = overpaid !== undefined && outcomesOf(policy).overpaid === "wait"
  return { kind: "paid", sessionStatus: held ? "pending_authorization" : "captured", overpaid, underpaid, capture }
}

/** Maps one invoice observation. */
export function mapInvoiceStatus(observation: InvoiceObservation, policy: StatusPolicy): SessionOutcome {
  const status = knownStatusOf(observation.status)
  return status === undefined ? { kind: "unknown", sessionStatus: "pending", status: observation.status } : STATUS_RULES[status](observation, policy)
}

function mapExpired(received: Decimal | undefined, expected: Decimal | undefined, policy: StatusPolicy): SessionOutcome {
  if (!isPositive(received)) {
    return { kind: "failed", sessionStatus: "canceled", reason: "expired", refundDue: undefined }
  }
  if (expected === undefined) {
    // Some money but no amount to compare with: it cannot be called paid.
    return { kind: "failed", sessionStatus: "canceled", reason: "underpaid", refundDue: received }
  }
  if (received.gte(expected)) {
    return paidOutcome(policy, received.gt(expected) ? exact(received).minus(expected) : undefined, undefined, "session")
  }
  if (received.gte(minimumAccepted(expected, policy.underpaidTolerancePercent))) {
    return paidOutcome(policy, undefined, exact(expected).minus(received), "session")
  }
  if (outcomesOf(policy).underpaid === "capture_received") {
    // The merchant takes what arrived as payment: captured for its fiat value, the shortfall shown.
    return paidOutcome(policy, undefined, exact(expected).minus(received), "received")
  }
  return { kind: "failed", sessionStatus: "canceled", reason: "underpaid", refundDue: received }
}

/** The least an expired invoice must have received to count as paid: expected × (100 − t) / 100. */
export function minimumAccepted(expected: Decimal, tolerancePercent: Decimal): Decimal {
  // Exact: a product of two finite decimals, divided by 100, has a finite expansion that fits
  // the clone's 200 digits.
  return exact(expected).times(new ExactDecimal(100).minus(tolerancePercent)).dividedBy(100)
}

const CHAIN_RANK: Record<SessionOutcome["kind"], number> = {
  paid: 6,
  detected: 5,
  awaiting_payment: 4,
  unknown: 3,
  error: 2,
  failed: 1,
  duplicate: 0,
}

/**
 * Maps a switch chain (spec §2.1: the first invoice and the ones a currency switch created). The
 * `cancelled duplicate` invoices are ignored; the session follows the most advanced of the rest,
 * so the paid invoice of the chain decides. Returns the index of the deciding invoice.
 */
export function mapInvoiceChain(
  observations: readonly InvoiceObservation[],
  policy: StatusPolicy
): { outcome: SessionOutcome; index: number } {
  let best: { outcome: SessionOutcome; index: number } | undefined
  observations.forEach((observation, index) => {
    const outcome = mapInvoiceStatus(observation, policy)
    if (best === undefined || CHAIN_RANK[outcome.kind] > CHAIN_RANK[best.outcome.kind]) {
      best = { outcome, index }
    }
  })
  if (best === undefined || best.outcome.kind === "duplicate") {
    // Only duplicates (or nothing): the paid sibling is not visible yet, so nothing is settled.
    return { outcome: { kind: "awaiting_payment", sessionStatus: "pending" }, index: best?.index ?? -1 }
  }
  return best
}

const SESSION_RANK: Record<CryptoInvoiceSessionState, number> = {
  abandoned: -1,
  pending: 0,
  pending_authorization: 1,
  error: 2,
  captured: 3,
  canceled: 3,
}

/**
 * How long an invoice the gateway reported in `error` is still polled (docs/attention.md#error-invoices):
 * `error` is not final at the gateway (spec §3 lists no transition out of it, yet a later
 * `completed` has been seen), so for 72 hours the reconciliation job keeps asking and a later
 * `completed` still captures the payment.
 */
export const ERROR_POLL_HOURS = 72

/** Terminal session statuses: once applied, nothing the gateway says later moves them. */
export function isTerminalSessionStatus(status: CryptoInvoiceSessionState): boolean {
  return SESSION_RANK[status] === 3
}

/**
 * Whether moving a session from `from` to `to` goes forward. A late `pending` after `completed`,
 * or any change after a terminal status, does not. `error` is not terminal: money the gateway
 * later reports as received (`captured`) goes forward; nothing else leaves `error`. `abandoned` is
 * not terminal either: an invoice that pays a live session again may move anywhere.
 */
export function isForwardMove(from: CryptoInvoiceSessionState, to: CryptoInvoiceSessionState): boolean {
  if (from === to) {
    return false
  }
  if (isTerminalSessionStatus(from)) {
    return false
  }
  if (from === "error") {
    return to === "captured"
  }
  if (from === "abandoned") {
    // Only a live session moves it (an invoice reused for the cart's session again); the apply
    // step checks the session exists before moving anything.
    return true
  }
  return SESSION_RANK[to] > SESSION_RANK[from]
}

export function isCryptoSessionStatus(value: string): value is CryptoSessionStatus {
  return value in SESSION_RANK && value !== "abandoned"
}

/** Whether a mirror row's `session_status` is one this plugin writes (a session status or `abandoned`). */
export function isCryptoInvoiceSessionState(value: string): value is CryptoInvoiceSessionState {
  return value in SESSION_RANK
}
