import { MedusaError } from "@medusajs/framework/utils"
import { Decimal } from "decimal.js"
import { invoiceBooksOf, type InvoiceBooks } from "./invoice-books"
import { assessInvoiceChain, assessmentFields, type AssessmentFields, type CallbackSource, type OperationReader } from "./invoice-chain"
import { isDecimalString } from "../../gateway"
import { exact, sumAmounts } from "../money"
import type { CryptoTransaction, CryptoWithdrawalRecord } from "../../modules/crypto/service"
import type { ReservationStore } from "./invoice-reservation"
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
    capture_received: false,
  })
  return {
    root: {
      ...shared(root),
      underpaid_amount: outcome.kind === "paid" ? outcome.underpaid?.toFixed() ?? null : null,
      // The session is captured once, on the root (docs/books.md#order-rules: `capture_received`).
      capture_received: outcome.kind === "paid" && outcome.capture === "received",
    },
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

/**
 * Opens the top-up of an invoice that ended short, in one transaction of our module under the lock
 * of its cart (the lock order numbers and send-backs share): decides with `topUpPlan` (an open
 * top-up is answered again), records the new top-up row for the root's session and reopens the root
 * (`canceled` → `pending`, nothing owed back while the shopper pays the rest). The gateway is asked
 * afterwards, with the row's order number.
 */
export function reserveCryptoTopUp(
  store: ReservationStore,
  input: { root_id: string; base: string; order_canceled: boolean }
): Promise<TopUpPlan & { id?: string }> {
  return store.inCryptoTransaction(async (tx) => {
    await tx.lockReservations(input.base)
    const root = await tx.invoices.retrieve(input.root_id)
    const topUps = await tx.invoices.list({ topup_of: root.id }, { order: { created_at: "ASC" } })
    const [items, withdrawals] = await Promise.all([
      tx.attentions.list({ kind: "underpaid", subject_id: root.id, status: "open" }, { take: 1 }),
      tx.withdrawals.list({ invoice_id: [root.id, ...topUps.map((row) => row.id)] }, { take: 1 }),
    ])
    const plan = topUpPlan(root, topUps, {
      underpaidItemOpen: items.length > 0,
      moneySentBack: withdrawals.length > 0,
      orderCanceled: input.order_canceled,
      restExpired: root.rest_until !== null && new Date(root.rest_until).getTime() <= Date.now(),
    })
    if (plan.kind !== "new") {
      return plan.kind === "existing" ? { ...plan, id: plan.topUp.id } : plan
    }
    const created = await tx.invoices.create({
      provider_id: root.provider_id,
      order_number: plan.orderNumber,
      attempt: root.attempt,
      cart_id: root.cart_id,
      payment_collection_id: root.payment_collection_id,
      session_id: root.session_id,
      source_currency: root.source_currency,
      source_amount: fiatShare(root.source_amount, plan.shortfall, plan.expected),
      psys_cid: plan.psys_cid,
      currency: plan.currency,
      expected_amount: plan.shortfall,
      session_status: "pending",
      topup_of: root.id,
    })
    await tx.invoices.update({ id: root.id, session_status: "pending", refund_due_amount: null })
    return { ...plan, id: created.id }
  })
}

/**
 * Takes back a top-up the gateway clearly refused (spec §7: 4xx), under the same lock: the row goes
 * and the root is as it was (ended short, its receipt owed back). Never for an unknown outcome: a
 * retry asks for the same order number.
 */
export function releaseCryptoTopUp(store: ReservationStore, input: { id: string; base: string }): Promise<void> {
  return store.inCryptoTransaction(async (tx) => {
    await tx.lockReservations(input.base)
    const topUp = await tx.invoices.retrieve(input.id)
    if (topUp.topup_of === null || topUp.txn_id !== null) return
    const root = await tx.invoices.retrieve(topUp.topup_of)
    await tx.invoices.delete(topUp.id)
    await tx.invoices.update({ id: root.id, session_status: "canceled", refund_due_amount: root.received_amount })
  })
}

/**
 * Records the send-back of an underpayment (a withdrawal naming the invoice, not yet sent) under the
 * lock top-ups are opened under (`reserveCryptoTopUp`), in one transaction: while a top-up of the
 * invoice's root is open the shopper is paying the rest, that money counts toward the order, and
 * nothing is recorded (NOT_ALLOWED, `payingTheRestRefusal`). A top-up opened after this commits sees
 * the withdrawal and is refused in turn, so the money is never both sent back and counted.
 */
export function createCryptoSendBack(store: ReservationStore, data: Partial<CryptoWithdrawalRecord> & { invoice_id: string }): Promise<CryptoWithdrawalRecord> {
  return store.inCryptoTransaction(async (tx: CryptoTransaction) => {
    const invoice = await tx.invoices.retrieve(data.invoice_id)
    const root = invoice.topup_of === null ? invoice : await tx.invoices.retrieve(invoice.topup_of)
    const base = root.cart_id ?? root.payment_collection_id
    if (base !== null) await tx.lockReservations(base)
    const open = (await tx.invoices.list({ topup_of: root.id })).find(isOpenTopUp)
    if (open !== undefined) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, payingTheRestRefusal(open))
    }
    return tx.withdrawals.create(data)
  })
}

/**
 * The fiat share of a top-up, for the gateway's records and the admin: `source` × `part` / `whole`,
 * rounded up to the places the root's fiat amount has (what the cart's currency uses).
 */
function fiatShare(source: string, part: string, whole: string): string {
  const places = source.split(".")[1]?.length ?? 0
  return exact(source).times(part).dividedBy(whole).toDecimalPlaces(places, Decimal.ROUND_UP).toFixed(places)
}
