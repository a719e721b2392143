import { Decimal } from "decimal.js"
import { invoiceBooksOf, type InvoiceBooks } from "./invoice-books"
import { assessInvoiceChain, assessmentFields, type AssessmentFields, type CallbackSource, type OperationReader } from "./invoice-chain"
import { isDecimalString } from "../../gateway"
import { exact, sumAmounts } from "../money"
import { GatewayStatus, knownStatusOf, mapInvoiceStatus, statusFacts, type CryptoSessionStatus, type SessionOutcome, type StatusPolicy } from "./payment-state"

/**
 * Paying the rest (docs/attention.md#paying-the-rest): an invoice that ended short beyond the
 * tolerance gets, when the shopper asks, a top-up invoice for the shortfall in the same coin and
 * for the same payment session. The first invoice (the root) and its top-ups decide the session
 * together: what they received is added up and compared with what the root asked for, through the
 * one status map (payment-state.ts), at the status of the latest top-up. Each invoice keeps its own
 * amounts, so the account stays one per invoice (account.ts). Pure, except `assessInvoiceGroup`.
 */

/** The invoice mirror's fields these rules read (root and top-ups alike). */
export interface TopUpGroupRow {
  id: string
  order_number: string
  topup_of: string | null
  superseded_by: string | null
  session_status: string
  gateway_status: string | null
  psys_cid: string | null
  currency: string | null
  expected_amount: string | null
  received_amount: string | null
  txn_id: string | null
  created_at?: Date | string | null
}

/** The order number of a root's n-th top-up (spec §8: unique per shop): `<root>-rest`, `<root>-rest-2`… */
export function topUpOrderNumber(rootOrderNumber: string, n: number): string {
  return n <= 1 ? `${rootOrderNumber}-rest` : `${rootOrderNumber}-rest-${n}`
}

/** Whether a top-up can still receive its money (created at the gateway or not yet answered). */
export function isOpenTopUp(row: Pick<TopUpGroupRow, "gateway_status" | "session_status" | "superseded_by">): boolean {
  if (row.superseded_by !== null) return false
  if (row.session_status === "captured" || row.session_status === "abandoned") return false
  return !statusFacts(row.gateway_status).settled
}

/**
 * Why money received on an invoice is not sent back while a top-up of it is open: the shopper is
 * paying the rest, and that money counts toward the order (docs/attention.md#paying-the-rest).
 */
export function payingTheRestRefusal(open: Pick<TopUpGroupRow, "order_number" | "gateway_status">): string {
  return `The shopper is paying the rest of this invoice (top-up ${open.order_number}, ${open.gateway_status ?? "being created"}): refund once it has ended unpaid`
}

/** What else the decision to open a top-up needs: the merchant's decisions on the root's money, the order. */
export interface TopUpFacts {
  /** The root's open `underpaid` attention item (money owed back), if any. */
  underpaidItemOpen: boolean
  /** Any withdrawal (sent, in flight or unknown) names the root or one of its top-ups. */
  moneySentBack: boolean
  /** The cart's order (placed on detection) was canceled. */
  orderCanceled: boolean
  /** The time an order placed on detection waits for the rest (`rest_until`) has passed. */
  restExpired: boolean
}

/**
 * Whether an order placed on detection whose invoice ended short beyond the tolerance is kept
 * waiting for the rest instead of canceled, and until when: the first time it ended short starts
 * `hours` (the `payRestHours` option); once they passed, or with 0, the order is canceled as any
 * other (null).
 */
export function restHoldUntil(
  seen: { kind: string | null; gateway_status: string | null; refund_due_amount: string | null },
  restUntil: Date | null,
  now: Date,
  hours: number
): Date | null {
  if (hours <= 0 && restUntil === null) return null
  const endedShort =
    seen.kind === "failed" && knownStatusOf(seen.gateway_status) === GatewayStatus.Expired && seen.refund_due_amount !== null && exact(seen.refund_due_amount).gt(0)
  if (!endedShort) return null
  const until = restUntil ?? new Date(now.getTime() + hours * 3600 * 1000)
  return now.getTime() < until.getTime() ? until : null
}

export type TopUpRefusalReason = "not_underpaid" | "decided" | "order_canceled" | "too_late" | "coin_unknown"

export type TopUpPlan =
  /** An open top-up exists: the shopper pays that one (asking twice opens one). */
  | { kind: "existing"; topUp: TopUpGroupRow }
  /** A new top-up for `shortfall` (in `psys_cid`), numbered `orderNumber`. */
  | { kind: "new"; orderNumber: string; shortfall: string; psys_cid: string; currency: string | null; received: string; expected: string }
  | { kind: "refused"; reason: TopUpRefusalReason; message: string }

/** What the group received, in the root's coin: the root's and every top-up's `received_amount`. */
export function groupReceived(root: TopUpGroupRow, topUps: readonly TopUpGroupRow[]): Decimal {
  return sumAmounts([root.received_amount ?? "0", ...topUps.filter((row) => row.psys_cid === root.psys_cid).map((row) => row.received_amount ?? "0")])
}

/**
 * Whether the shopper may pay the rest of `root`, and how much. Allowed while the root ended short
 * beyond the tolerance (its session `canceled` with money on it, less than it asked for), its order,
 * if one was placed on detection, still waits (not canceled, `rest_until` not passed), and the
 * merchant has decided nothing about that money (its `underpaid` item is open and nothing was sent
 * back). A top-up that is still open is answered again instead of a second one.
 */
export function topUpPlan(root: TopUpGroupRow, topUps: readonly TopUpGroupRow[], facts: TopUpFacts): TopUpPlan {
  const open = topUps.find(isOpenTopUp)
  if (open !== undefined) {
    return { kind: "existing", topUp: open }
  }
  if (facts.orderCanceled) {
    return { kind: "refused", reason: "order_canceled", message: "This order was canceled: the rest can no longer be paid." }
  }
  if (facts.restExpired) {
    return { kind: "refused", reason: "too_late", message: "The time to pay the rest has passed: the order is being canceled and the amount received returned." }
  }
  const expected = root.expected_amount
  const received = groupReceived(root, topUps)
  if (root.topup_of !== null || root.superseded_by !== null || root.session_status !== "canceled" || expected === null || !received.gt(0) || !received.lt(expected)) {
    return { kind: "refused", reason: "not_underpaid", message: "This payment is not short of its amount: there is no rest to pay." }
  }
  if (!facts.underpaidItemOpen || facts.moneySentBack) {
    return {
      kind: "refused",
      reason: "decided",
      message: "The shop has already taken care of the amount received (a refund or another decision): the rest can no longer be paid.",
    }
  }
  if (root.psys_cid === null) {
    return { kind: "refused", reason: "coin_unknown", message: "The coin of this payment is not known yet; try again in a minute." }
  }
  return {
    kind: "new",
    orderNumber: topUpOrderNumber(root.order_number, topUps.length + 1),
    shortfall: exact(expected).minus(received).toFixed(),
    psys_cid: root.psys_cid,
    currency: root.currency,
    received: received.toFixed(),
    expected,
  }
}

/** A top-up's commission as its row keeps it (`topup_details.commission`), else null. */
export function topUpCommission(details: unknown): string | null {
  const value = typeof details === "object" && details !== null ? (details as Record<string, unknown>).commission : undefined
  return typeof value === "string" && isDecimalString(value) ? value : null
}

/** One top-up's own assessment, by mirror row. */
export interface TopUpAssessment {
  invoice_id: string
  fields: AssessmentFields
  /**
   * The gateway's commission the shopper pays on this top-up (spec §2.1: `invoice_total_sum` −
   * `amount`), in its coin: it adds to what the group must receive, so it is never counted as an
   * overpayment.
   */
  commission?: string | null
}

/** The verdict on a root and its top-ups, and the fields each row keeps (its own amounts). */
export interface GroupFields {
  root: AssessmentFields
  topUps: TopUpAssessment[]
  /** Received by the whole group, in the root's coin. */
  received: string
  /** Still due (the root's amount minus what the group received, never below zero). */
  due: string
}

const positive = (value: string | null): value is string => value !== null && exact(value).gt(0)

/** The session status a group outcome gives (a `duplicate` latest top-up leaves it awaiting payment). */
function sessionStatusOf(outcome: SessionOutcome): CryptoSessionStatus {
  return outcome.kind === "duplicate" ? "pending" : outcome.sessionStatus
}

/**
 * Maps a root and its top-ups (oldest first) through the status map: the latest top-up's status,
 * the group's money (top-ups in another coin are not added, their money stays theirs), the root's
 * amount. Each row keeps its own amounts; the group's surplus is the latest top-up's (it came last),
 * an accepted shortfall the root's, and money owed back after a failure each row's own receipt.
 */
export function topUpGroupFields(root: AssessmentFields, topUps: readonly TopUpAssessment[], policy: StatusPolicy): GroupFields {
  const same = topUps.filter((topUp) => topUp.fields.psys_cid === null || root.psys_cid === null || topUp.fields.psys_cid === root.psys_cid)
  const received = sumAmounts([root.received_amount ?? "0", ...same.map((topUp) => topUp.fields.received_amount ?? "0")])
  const commissions = same.map((topUp) => topUp.commission ?? "0").filter((value) => isDecimalString(value))
  const expected = root.expected_amount === null ? null : sumAmounts([root.expected_amount, ...commissions]).toFixed()
  const due = expected === null ? "0" : Decimal.max(0, exact(expected).minus(received)).toFixed()
  const latest = topUps[topUps.length - 1]
  if (latest === undefined) {
    return { root, topUps: [], received: received.toFixed(), due }
  }
  const outcome = mapInvoiceStatus(
    { status: latest.fields.gateway_status, received, expected: expected === null ? undefined : exact(expected) },
    policy
  )
  const sessionStatus = sessionStatusOf(outcome)
  const failed = outcome.kind === "failed"
  const shared = (own: AssessmentFields) => ({
    ...own,
    kind: outcome.kind,
    session_status: sessionStatus,
    overpaid_amount: null,
    underpaid_amount: null,
    refund_due_amount: failed && positive(own.received_amount) ? own.received_amount : null,
  })
  return {
    root: { ...shared(root), underpaid_amount: outcome.kind === "paid" ? outcome.underpaid?.toFixed() ?? null : null },
    topUps: topUps.map((topUp) => ({
      invoice_id: topUp.invoice_id,
      fields: {
        ...shared(topUp.fields),
        overpaid_amount: topUp === latest && outcome.kind === "paid" ? outcome.overpaid?.toFixed() ?? null : null,
      },
    })),
    received: received.toFixed(),
    due,
  }
}

/** An invoice of a group as the gateway knows it. */
export interface GroupInvoice {
  invoice_id: string
  txn_id: string
  order_number: string | undefined
  /** The invoice's own rate at creation (src/core/payment/invoice-books.ts), if known. */
  source_rate?: string | null
  /** A top-up's commission (see TopUpAssessment). */
  commission?: string | null
}

/**
 * Asks the gateway where a root and its top-ups stand (one chain read each, spec §4.4) and maps the
 * group. Without top-ups it is the root's own assessment.
 */
export async function assessInvoiceGroup(
  client: OperationReader,
  callbacks: CallbackSource | undefined,
  root: GroupInvoice,
  topUps: readonly GroupInvoice[],
  policy: StatusPolicy
): Promise<GroupFields & { books: Array<{ invoice_id: string; books: InvoiceBooks }> }> {
  const [rootAssessment, ...topUpAssessments] = await Promise.all(
    [root, ...topUps].map((invoice) => assessInvoiceChain(client, callbacks, { txn_id: invoice.txn_id, order_number: invoice.order_number }, policy))
  )
  const fields = topUpGroupFields(
    assessmentFields(rootAssessment),
    topUpAssessments.map((assessment, i) => ({ invoice_id: topUps[i].invoice_id, fields: assessmentFields(assessment), commission: topUps[i].commission ?? null })),
    policy
  )
  // Each invoice's books (src/core/payment/invoice-books.ts) from its own deciding operation.
  const books = [rootAssessment, ...topUpAssessments].map((assessment, i) => ({ invoice_id: [root, ...topUps][i].invoice_id, books: invoiceBooksOf(assessment.active, [root, ...topUps][i].source_rate ?? null) }))
  return { ...fields, books }
}
