import type { BigNumberInput, IEventBusModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, PaymentActions } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cancelOrderWorkflow, processPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { resolveCryptoModule } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { sessionAmountToDecimalString } from "../../core/money"
import { isCryptoInvoiceSessionState, isForwardMove, isTerminalSessionStatus, type CryptoInvoiceSessionState } from "../../core/payment/payment-state"
import { invoiceAttentions, orderWaitingAttention, protectedOrderAttention, type HandChange, type InvoiceBeforeSync } from "../../core/books/attention"
import { failureReason } from "../../core/errors"
import { CRYPTO_SETTLEMENT_REQUESTED, CryptoEvents, type CryptoMoneyEvent } from "../../core/events"
import { receivedFiatValue, waitingOutcome, type AssessmentFields } from "../../core/payment/invoice-chain"
import type { OrderOutcome } from "../../core/config/order-rules"
import type { AssessedCryptoInvoice, CryptoInvoiceAssessment, CryptoInvoiceState } from "./assess-crypto-invoice"
import { DEFAULT_PAY_REST_HOURS } from "../../core/config/options"
import { restHoldUntil } from "../../core/payment/top-up"
import { applyCryptoTopUps } from "./apply-crypto-top-ups"
import { markCryptoCallbackProcessed } from "./mark-crypto-callback-processed"
import { raiseCryptoAttentions } from "./raise-crypto-attention"

export interface AppliedCryptoInvoice {
  invoice_id: string
  /**
   * `applied`: Medusa was moved (or checked and already there) to the gateway's state;
   * `ignored_backward`: the gateway's state is behind what was applied (a late `pending` after
   * `completed`), nothing moved; `not_created`: the invoice never reached the gateway;
   * `session_gone`: the payment session was deleted (cart changed), only recorded;
   * `superseded`: a new invoice pays the session now (a new amount), only recorded;
   * `incomplete`: the money is there but the cart could not be completed yet (retried later);
   * `protected`: a person canceled or edited the order by hand and protect order status is on
   * (docs/books.md#protect-order-status): the order was left as it is, `protected_order` raised.
   * An order the merchant's outcome rules keep waiting (docs/books.md#order-rules) is `applied`
   * with `waiting` set.
   * Money nobody's order explains is raised in the attention queue (src/core/books/attention.ts).
   */
  outcome: "applied" | "ignored_backward" | "not_created" | "session_gone" | "superseded" | "incomplete" | "protected"
  session_status: CryptoInvoiceSessionState
  order_id: string | null
  /** For `protected`: what the person did to the order. */
  hand_change?: HandChange
  /** The outcome whose rule keeps the order waiting for the merchant (`order_waiting` raised). */
  waiting?: Exclude<OrderOutcome, "error">
}

/** The part of Query this step reads: payment sessions, payments, the order of a cart, an order. */
export interface ApplyQuery {
  graph(input: { entity: string; fields: string[]; filters: Record<string, unknown> }): Promise<{ data: Array<Record<string, unknown> | undefined> }>
}

/**
 * What applying an assessment needs from the application: our invoice mirror's writes, Query, the
 * logger, and Medusa's own workflows that move the payment and the order. Built from the step's
 * container (`applyDepsOf`); unit tests pass fakes. The invoice row itself is the one the assess step
 * read under the lock: nothing here reads it again.
 */
export interface ApplyDeps {
  cryptoModule: Pick<CryptoModuleService, "updateCryptoInvoices">
  query: ApplyQuery
  logger: Pick<Logger, "warn">
  /**
   * `processPaymentWorkflow` for the session amount (major units, decimal string): `captured`
   * captures and places the order; `authorized` completes the session's cart, whose authorization
   * (the provider answers `pending_authorization`) places the order with the payment awaiting
   * (order on detection).
   */
  processPayment(action: PaymentActions.SUCCESSFUL | PaymentActions.AUTHORIZED, sessionId: string, amount: string): Promise<void>
  /** `cancelOrderWorkflow`: cancels the order and releases its reservations. */
  cancelOrder(orderId: string): Promise<void>
}

export function applyDepsOf(container: MedusaContainer): ApplyDeps {
  return {
    cryptoModule: resolveCryptoModule(container),
    query: container.resolve(ContainerRegistrationKeys.QUERY),
    logger: container.resolve<Logger>(ContainerRegistrationKeys.LOGGER),
    // Medusa's own webhook path, one workflow for both moves; docs/workflows.md says why it runs in
    // this step, on its own, and not as a step of the sync.
    processPayment: async (action, sessionId, amount) => {
      await processPaymentWorkflow(container).run({ input: { action, data: { session_id: sessionId, amount } } })
    },
    cancelOrder: async (orderId) => {
      await cancelOrderWorkflow(container).run({ input: { order_id: orderId } })
    },
  }
}

async function orderIdForCart(query: ApplyQuery, cartId: string): Promise<string | null> {
  const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  const orderId: unknown = data[0]?.order_id
  return typeof orderId === "string" ? orderId : null
}

/** The order changes a person confirms by hand in Medusa's admin: an order edit, a claim, an exchange. */
export const HAND_CHANGE_TYPES = ["edit", "claim", "exchange"] as const

/**
 * Whether a person changed order `orderId` by hand (docs/books.md#protect-order-status): canceled it
 * while our invoice (`current`) did not, or confirmed an edit, claim or exchange of it (Medusa
 * records each as a confirmed `order_change` of that `change_type`). Null when neither.
 */
export async function handChangeOf(query: ApplyQuery, orderId: string, current: CryptoInvoiceSessionState): Promise<HandChange | null> {
  const { data: orders } = await query.graph({ entity: "order", fields: ["id", "status"], filters: { id: orderId } })
  const status: unknown = orders[0]?.status
  if (typeof status !== "string") return null
  // We cancel an order only when the invoice ends canceled, and record it under this lock.
  if (status === "canceled" && current !== "canceled") return { reason: "canceled", order_status: status }
  const { data: changes } = await query.graph({
    entity: "order_change",
    fields: ["id", "change_type", "status"],
    filters: { order_id: orderId, change_type: [...HAND_CHANGE_TYPES], status: "confirmed" },
  })
  return changes.some((change) => change !== undefined) ? { reason: "edited", order_status: status } : null
}

/** Whether the session's payment is captured: in full (`captured_at`), or, for a capture of what arrived, by any capture. */
async function capturedPaymentExists(query: ApplyQuery, sessionId: string, partial: boolean): Promise<boolean> {
  const { data } = await query.graph({ entity: "payment", fields: ["id", "captured_at", "captures.id"], filters: { payment_session_id: sessionId } })
  return data.some(
    (payment) => (payment?.captured_at !== null && payment?.captured_at !== undefined) || (partial && Array.isArray(payment?.captures) && payment.captures.length > 0)
  )
}

export const applyCryptoInvoiceStepId = "apply-crypto-invoice"

/** The assess step's hand-over, and the delivery this sync answers (null when asked for an invoice). */
export type ApplyCryptoInvoiceInput = AssessedCryptoInvoice & { callback_id: string | null }

/**
 * Moves the Medusa payment and order to what the gateway says, through Medusa's own workflows:
 * - captured: `processPaymentWorkflow` with `captured` (captures, places the order if needed,
 *   docs/architecture.md#medusa-workflows);
 * - pending_authorization (order on detection): `processPaymentWorkflow` with `authorized`, which
 *   completes the cart; its authorization returns `pending_authorization` and places the order
 *   with the payment awaiting;
 * - canceled: `cancelOrderWorkflow` for an order placed on detection (releases reservations);
 * - pending / error: nothing moves in Medusa; the mirror records it.
 * Never backwards: a terminal state stays; each branch checks Medusa's state first, so running
 * it twice does nothing the second time. It decides from the row the assess step read under the
 * lock, and reads it no second time. Last, it marks the delivery it answers processed with the
 * outcome (the callback's last write, docs/architecture.md#the-callback-path).
 */
export const applyCryptoInvoiceStep = createStep(applyCryptoInvoiceStepId, async (input: ApplyCryptoInvoiceInput, { container }) => {
  if (input.invoice === null) {
    // The delivery names an order number that is none of ours.
    if (input.callback_id !== null) await markCryptoCallbackProcessed(resolveCryptoModule(container), input.callback_id, "unmatched")
    return new StepResponse<AppliedCryptoInvoice | null>(null)
  }
  const deps = applyDepsOf(container)
  const { assessment, invoice } = input
  const before: InvoiceBeforeSync = {
    id: invoice.id,
    provider_id: invoice.provider_id,
    cart_id: invoice.cart_id,
    order_id: invoice.order_id,
    order_number: invoice.order_number,
    session_status: isCryptoInvoiceSessionState(invoice.session_status) ? invoice.session_status : "pending",
    refund_due_amount: invoice.refund_due_amount,
  }
  const applied = await applyCryptoInvoice(assessment, invoice, deps)
  // Its top-ups follow it (docs/attention.md#paying-the-rest).
  const topUpItems = assessment.top_ups === undefined ? [] : await applyCryptoTopUps(resolveCryptoModule(container), invoice, assessment.top_ups, input.top_up_rows, applied)
  const seen = seenFields(assessment)
  const protectedItems =
    seen !== undefined && applied.hand_change !== undefined && applied.order_id !== null ? [protectedOrderAttention(before, seen, applied.order_id, applied.hand_change)] : []
  const waitingItems = seen !== undefined && applied.waiting !== undefined && applied.order_id !== null ? [orderWaitingAttention(before, seen, applied.order_id, applied.waiting)] : []
  if (seen !== undefined || topUpItems.length > 0) {
    await raiseCryptoAttentions(container, [...(seen === undefined ? [] : invoiceAttentions(before, seen, applied)), ...protectedItems, ...waitingItems, ...topUpItems])
  }
  // The payment is captured now (the order placed): `crypto.payment.received` (docs/events.md), once,
  // on this move under the invoice's lock; a later sync of the captured invoice emits nothing. A
  // failure to emit is logged, never thrown: the capture stays, only the shopper's message is missed.
  const capturedNow = applied.outcome === "applied" && applied.session_status === "captured" && before.session_status !== "captured"
  if (capturedNow) {
    const data: CryptoMoneyEvent = {
      id: invoice.id,
      provider_id: invoice.provider_id,
      order_id: applied.order_id,
      psys_cid: assessment.psys_cid ?? invoice.psys_cid,
      currency: assessment.currency ?? invoice.currency,
      amount: assessment.received_amount,
      subject_id: invoice.id,
    }
    await container
      .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
      .emit({ name: CryptoEvents.PAYMENT_RECEIVED, data })
      .catch((error: unknown) => deps.logger.warn(`crypto invoice ${invoice.order_number}: could not emit ${CryptoEvents.PAYMENT_RECEIVED}: ${failureReason(error)}`))
  }
  // The order took its money: the merchant's settlement rules apply on a worker (docs/money-out.md#settlement), once, on this move.
  if (capturedNow && assessment.settlement !== undefined) {
    await container
      .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
      .emit({ name: CRYPTO_SETTLEMENT_REQUESTED, data: assessment.settlement })
      .catch((error: unknown) => deps.logger.warn(`crypto invoice ${invoice.order_number}: could not emit ${CRYPTO_SETTLEMENT_REQUESTED}: ${failureReason(error)}`))
  }
  if (input.callback_id !== null) {
    await markCryptoCallbackProcessed(resolveCryptoModule(container), input.callback_id, applied.outcome)
  }
  return new StepResponse<AppliedCryptoInvoice | null>(applied)
})

/** The assessment of an invoice that exists at the gateway (every field set), else undefined. */
function seenFields(input: CryptoInvoiceAssessment): AssessmentFields | undefined {
  const { kind, session_status, gateway_status, active_txn_id, siblings_with_money, capture_received, top_ups: _topUps, pay_rest_hours: _hours, protect_order_status: _protect, order_outcomes: _outcomes, settlement: _settlement, ...amounts } = input
  if (kind === null || session_status === null || gateway_status === null || active_txn_id === null) return undefined
  return { ...amounts, kind, session_status, gateway_status, active_txn_id, capture_received: capture_received ?? false, siblings_with_money: siblings_with_money ?? [] }
}

/**
 * The step's work, on its collaborators (see {@link applyCryptoInvoiceStep}): `invoice` is the row
 * as read under the lock, the state it moves from.
 */
export async function applyCryptoInvoice(input: CryptoInvoiceAssessment, invoice: CryptoInvoiceState, deps: ApplyDeps): Promise<AppliedCryptoInvoice> {
  const { cryptoModule, logger, query } = deps
  const current: CryptoInvoiceSessionState = isCryptoInvoiceSessionState(invoice.session_status) ? invoice.session_status : "pending"
  const respond = (outcome: AppliedCryptoInvoice["outcome"], sessionStatus: CryptoInvoiceSessionState, orderId: string | null): AppliedCryptoInvoice => ({
    invoice_id: invoice.id,
    outcome,
    session_status: sessionStatus,
    order_id: orderId,
  })

  if (input.session_status === null) {
    return respond("not_created", current, invoice.order_id)
  }
  const target = input.session_status
  // Every amount is stored with the coin of the invoice that holds it (the switched invoice after a
  // currency switch, the coin picked on the hosted page): a null coin keeps the one we had.
  const observed = {
    gateway_status: input.gateway_status,
    active_txn_id: input.active_txn_id,
    received_amount: input.received_amount,
    expected_amount: input.expected_amount ?? invoice.expected_amount,
    overpaid_amount: input.overpaid_amount,
    underpaid_amount: input.underpaid_amount,
    // What was owed back when the invoice was canceled stays as it was: money arriving after that
    // is late money (src/core/books/attention.ts counts it from this figure, once, however often synced).
    refund_due_amount: current === "canceled" ? invoice.refund_due_amount : input.refund_due_amount,
    ...(input.psys_cid !== null ? { psys_cid: input.psys_cid } : {}),
    ...(input.currency !== null ? { currency: input.currency } : {}),
    ...(target === "error" && invoice.errored_at === null ? { errored_at: new Date() } : {}),
    last_synced_at: new Date(),
  }
  if (invoice.superseded_by !== null) {
    // A new invoice pays this session now (updatePayment with a new amount): this one moves nothing.
    await cryptoModule.updateCryptoInvoices({ id: invoice.id, ...observed })
    return respond("superseded", current, invoice.order_id)
  }
  if (target !== current && !isForwardMove(current, target)) {
    // Keep the applied state (e.g. pending after captured). Money seen on a canceled invoice is
    // recorded with its coin (a late payment, raised for the merchant); otherwise only the time.
    const lateMoney = current === "canceled" && input.received_amount !== null && input.received_amount !== invoice.received_amount
    await cryptoModule.updateCryptoInvoices(lateMoney ? { id: invoice.id, ...observed } : { id: invoice.id, last_synced_at: observed.last_synced_at })
    if (target === "captured" || target === "canceled" || target === "error") {
      logger.warn(
        `crypto invoice ${invoice.order_number}: the gateway now says ${input.gateway_status} after ${current} was applied; nothing moved (money received: ${input.received_amount ?? "unknown"})`
      )
    }
    return respond("ignored_backward", current, invoice.order_id)
  }

  const { data: sessions } = await query.graph({
    entity: "payment_session",
    fields: ["id", "raw_amount", "currency_code"],
    filters: { id: invoice.session_id },
  })
  const session = sessions[0]
  const sessionId = session?.id
  if ((session === undefined || typeof sessionId !== "string") && isTerminalSessionStatus(current)) {
    // Settled before the session went (a cart changed after expiry, an order's collection): the
    // state stays; money seen now is late money or the order's (src/core/books/attention.ts).
    await cryptoModule.updateCryptoInvoices({ id: invoice.id, ...observed })
    return respond("applied", current, invoice.order_id)
  }
  if (session === undefined || typeof sessionId !== "string") {
    // Medusa deleted the session (the cart changed): nothing can move in Medusa, and the invoice is
    // never marked captured, whatever the gateway says. It becomes `abandoned` with the gateway's
    // reading kept on the row; its money is raised as `abandoned_invoice_payment`
    // (docs/attention.md) and the job keeps reading it while the gateway's status is not final.
    await cryptoModule.updateCryptoInvoices({ id: invoice.id, ...observed, session_status: "abandoned" })
    logger.warn(
      `crypto invoice ${invoice.order_number}: its payment session ${invoice.session_id} no longer exists (the cart changed); abandoned with gateway status ${input.gateway_status}, received ${input.received_amount ?? "nothing"}`
    )
    return respond("session_gone", "abandoned", invoice.order_id)
  }

  const cartId = invoice.cart_id
  let orderId = cartId === null ? null : await orderIdForCart(query, cartId)
  let restUntil: Date | null = null
  // Protect order status (docs/books.md#protect-order-status; absent = on): an order a person
  // canceled or edited by hand is never captured or canceled by a sync. The invoice keeps its
  // state (forward-only: nothing applied), its reading is recorded, `protected_order` is raised.
  const protect = input.protect_order_status !== false
  const leaveAsItIs = async (placed: string, change: HandChange): Promise<AppliedCryptoInvoice> => {
    // Marked once: the first time a sync leaves the order as it is (the job stops polling on it).
    await cryptoModule.updateCryptoInvoices({ id: invoice.id, ...observed, order_id: placed, ...(invoice.protected_at === null ? { protected_at: new Date() } : {}) })
    logger.warn(
      `crypto invoice ${invoice.order_number}: order ${placed} was ${change.reason} by hand; the gateway says ${input.gateway_status} (received ${input.received_amount ?? "nothing"}); the order was left as it is`
    )
    return { ...respond("protected", current, placed), hand_change: change }
  }
  // The merchant's outcome rules (docs/books.md#order-rules): an order kept waiting for a decision.
  const facts = { kind: input.kind, refund_due_amount: input.refund_due_amount, overpaid_amount: input.overpaid_amount, capture_received: input.capture_received === true }
  const waiting = waitingOutcome(facts, input.order_outcomes) ?? undefined
  switch (target) {
    case "captured": {
      const partial = input.capture_received === true
      const settled = (await capturedPaymentExists(query, sessionId, partial)) && (cartId === null || orderId !== null)
      const change = settled || orderId === null || !protect ? null : await handChangeOf(query, orderId, current)
      if (orderId !== null && change !== null) return leaveAsItIs(orderId, change)
      if (!settled) {
        // Major units of the session amount, as an exact, validated decimal string; for a capture of
        // what arrived (underpaid `capture_received`), its share of it. The provider answers such a
        // reading `authorized`, so Medusa captures only this amount (medusaSessionStatusOf).
        const sessionAmount = sessionAmountToDecimalString(session.raw_amount as BigNumberInput, "payment session amount")
        const amount = partial ? receivedFiatValue(sessionAmount, input.received_amount, input.expected_amount, String(session.currency_code)) : sessionAmount
        if (amount === null) {
          // Less than one minor unit of the currency: Medusa captures no 0. Recorded; nothing moves.
          await cryptoModule.updateCryptoInvoices({ id: invoice.id, ...observed })
          logger.warn(`crypto invoice ${invoice.order_number}: what arrived (${input.received_amount ?? "nothing"}) is worth less than the currency's smallest unit; nothing captured`)
          return respond("applied", current, orderId)
        }
        await deps.processPayment(PaymentActions.SUCCESSFUL, sessionId, amount)
      }
      break
    }
    case "pending_authorization": {
      if (cartId !== null && orderId === null) {
        await deps.processPayment(PaymentActions.AUTHORIZED, sessionId, sessionAmountToDecimalString(session.raw_amount as BigNumberInput, "payment session amount"))
      }
      break
    }
    case "canceled": {
      // An order placed on detection whose invoice ended short waits for the rest for a while
      // (docs/attention.md#paying-the-rest); then, or for any other end, it is canceled.
      // Only an invoice that ends short now, or whose order already waits: never one canceled before.
      const waits = orderId !== null && (current !== "canceled" || invoice.rest_until !== null)
      restUntil = waits ? restHoldUntil(input, invoice.rest_until === null ? null : new Date(invoice.rest_until), new Date(), input.pay_rest_hours ?? DEFAULT_PAY_REST_HOURS) : null
      if (orderId !== null && waiting !== undefined) {
        // The merchant's rule keeps the order waiting for a decision: never canceled by a sync.
        logger.warn(`crypto invoice ${invoice.order_number}: ended ${waiting}; order ${orderId} waits for the merchant's decision (order rules)`)
      } else if (orderId !== null && restUntil === null) {
        // An order a person canceled already needs nothing; one edited by hand is not canceled.
        const change = protect ? await handChangeOf(query, orderId, current) : null
        if (change?.reason === "edited") return leaveAsItIs(orderId, change)
        await cancelOrderPlacedOnDetection(deps, orderId, invoice.order_number)
      }
      if (restUntil !== null) {
        logger.warn(`crypto invoice ${invoice.order_number}: ended short; order ${orderId} waits for the rest until ${restUntil.toISOString()}, then it is canceled`)
      }
      break
    }
    case "error":
      logger.warn(`crypto invoice ${invoice.order_number}: the gateway reports an error; the payment stays open for a manual check`)
      break
    case "pending":
      break
  }
  if (cartId !== null) {
    orderId = await orderIdForCart(query, cartId)
  }
  if (cartId !== null && orderId === null && (target === "captured" || target === "pending_authorization")) {
    // Cart completion failed inside Medusa's workflow (it does not throw,
    // docs/architecture.md#medusa-workflows): keep the applied state so the job tries again.
    await cryptoModule.updateCryptoInvoices({ id: invoice.id, ...observed })
    logger.warn(`crypto invoice ${invoice.order_number}: cart ${cartId} could not be completed yet; the reconciliation job will retry`)
    return respond("incomplete", current, null)
  }
  await cryptoModule.updateCryptoInvoices({ id: invoice.id, ...observed, session_status: target, order_id: orderId, rest_until: restUntil })
  const applied = respond("applied", target, orderId)
  return waiting !== undefined && orderId !== null && (target === "canceled" || target === "pending_authorization") ? { ...applied, waiting } : applied
}

async function cancelOrderPlacedOnDetection(deps: ApplyDeps, orderId: string, orderNumber: string): Promise<void> {
  const { query, logger } = deps
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "status", "payment_collections.payments.captured_at"],
    filters: { id: orderId },
  })
  const order = data[0]
  if (order === undefined || order.status === "canceled") {
    return
  }
  type PaymentRow = { captured_at?: unknown } | null
  const collections = Array.isArray(order.payment_collections) ? (order.payment_collections as Array<{ payments?: PaymentRow[] } | null>) : []
  const payments: PaymentRow[] = collections.flatMap((collection) => collection?.payments ?? [])
  const captured = payments.some((payment) => payment?.captured_at !== null && payment?.captured_at !== undefined)
  if (captured) {
    logger.warn(`crypto invoice ${orderNumber}: order ${orderId} has a captured payment; it is not canceled automatically`)
    return
  }
  await deps.cancelOrder(orderId)
}
