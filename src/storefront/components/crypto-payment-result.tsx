"use client"

import { useEffect, useRef } from "react"
import { formatCryptoAmount } from "../lib/amount.js"
import { describeCoin } from "../lib/coins.js"
import { useCryptoPaymentStatus, type CryptoPaymentCallback } from "../hooks/use-crypto-payment-status.js"
import { cx, type ClassNames } from "../lib/class-names.js"
import { abandonedPaymentText, formatLabel, resolveCryptoLabels, type CryptoLabels } from "../lib/labels.js"
import { resolveCryptoReturn, type CryptoReturnDecision } from "../lib/return.js"
import { toCryptoPaymentState } from "../lib/status.js"
import type { CryptoPaymentStatusResponse } from "../types.js"
import { PayRestActions } from "./pay-rest-actions.js"

export type CryptoPaymentResultPart = "root" | "message" | "abandoned" | "orderLink" | "invoiceLink" | "retryLink" | "rest" | "payRest"

export interface CryptoPaymentResultProps {
  /** The status read by the return page (server side); with `fetchStatus`, the first one. */
  status?: CryptoPaymentStatusResponse | null
  /** Reads the status; when given, a pending result polls until it settles. */
  fetchStatus?: () => Promise<CryptoPaymentStatusResponse>
  pollIntervalsMs?: readonly number[]
  /** The order page of an order id, e.g. (id) => `/de/order/${id}/confirmed`. */
  orderHref?: (orderId: string) => string
  /** Where a failed payment, or one not sent yet, goes back to (the checkout's payment step). */
  retryHref?: string
  /** Called once per decision change, e.g. to complete the cart on "complete" or redirect on "order". */
  onDecision?: (decision: CryptoReturnDecision) => void
  onPaid?: CryptoPaymentCallback
  /**
   * Offered when the invoice ended short and the store allows paying the rest (`rest_due`): ask the
   * store for an invoice of the rest (e.g. a server action calling `openCryptoTopUp`); the result
   * then links its payment page.
   */
  onPayRest?: () => void | Promise<void>
  locale?: string
  labels?: Partial<CryptoLabels>
  classNames?: ClassNames<CryptoPaymentResultPart>
}

/**
 * The return page: nothing received yet (polls; links back to the invoice and the checkout), being
 * confirmed (polls), paid and being placed, the order (with its link), short with the rest to pay
 * (a "Pay the rest" action, then the rest's payment page), or failed.
 */
export function CryptoPaymentResult(props: CryptoPaymentResultProps) {
  const { status = null, fetchStatus, orderHref, retryHref, onDecision, onPayRest, locale, classNames = {} } = props
  const labels = resolveCryptoLabels(locale, props.labels)
  const polled = useCryptoPaymentStatus({
    fetchStatus: fetchStatus ?? (() => Promise.reject(new Error("CryptoPaymentResult: no fetchStatus"))),
    initialStatus: status,
    enabled: fetchStatus !== undefined,
    intervalsMs: props.pollIntervalsMs,
    onPaid: props.onPaid,
  })
  const response = fetchStatus !== undefined ? polled.response : status
  const decision: CryptoReturnDecision = response ? resolveCryptoReturn(response) : { kind: "pending" }
  const decisionKey = decision.kind === "order" ? `order:${decision.orderId}` : decision.kind

  const onDecisionRef = useRef(onDecision)
  onDecisionRef.current = onDecision
  useEffect(() => {
    onDecisionRef.current?.(decision)
    // Once per decision: `decisionKey` says when it changed (the object is new on every render).
  }, [decisionKey])

  const message =
    decision.kind === "order"
      ? labels.resultOrder
      : decision.kind === "complete"
        ? labels.resultComplete
        : decision.kind === "failed"
          ? decision.reason === "cart_changed"
            ? labels.statusCartChanged
            : labels.resultFailed
          : decision.kind === "not_received"
            ? labels.resultNotReceived
            : decision.kind === "rest_due"
              ? labels.statusRestDue
              : labels.resultPending
  const state = toCryptoPaymentState(response)
  const rest = decision.kind === "rest_due" ? state.rest : null
  const code = state.psysCid !== null ? describeCoin(state.psysCid, state.currency).code : state.currency ?? ""
  const { refresh } = polled

  return (
    <section className={cx("mpc-result", classNames.root)} data-status={decision.kind} data-reason={decision.kind === "failed" ? decision.reason : undefined}>
      <p className={cx("mpc-result-message", classNames.message)} role="status" aria-live="polite" aria-atomic="true">
        {message}
      </p>
      {state.abandonedPayments.map((payment) => (
        <p key={payment.order_number} className={cx("mpc-result-abandoned", classNames.abandoned)} data-order-number={payment.order_number}>
          {abandonedPaymentText(payment, labels, locale)}
        </p>
      ))}
      {rest !== null ? (
        <p className={cx("mpc-result-rest", classNames.rest)} data-received={rest.receivedAmount} data-due={rest.dueAmount}>
          {formatLabel(labels.restSummary, {
            received: formatCryptoAmount(rest.receivedAmount, { locale, code }),
            due: formatCryptoAmount(rest.dueAmount, { locale, code }),
          })}
        </p>
      ) : null}
      <PayRestActions
        rest={rest}
        invoiceUrl={state.invoiceUrl}
        showPageLink
        onPayRest={onPayRest}
        onOpened={fetchStatus !== undefined ? refresh : undefined}
        labels={labels}
        linkClassName="mpc-result-invoice-link"
        className={classNames.payRest}
      />
      {decision.kind === "order" && orderHref ? (
        <a className={cx("mpc-result-order-link", classNames.orderLink)} href={orderHref(decision.orderId)}>
          {labels.viewOrder}
        </a>
      ) : null}
      {decision.kind === "not_received" && state.invoiceUrl !== null && /^https?:\/\//i.test(state.invoiceUrl) ? (
        <a className={cx("mpc-result-invoice-link", classNames.invoiceLink)} href={state.invoiceUrl}>
          {labels.backToInvoice}
        </a>
      ) : null}
      {(decision.kind === "failed" || decision.kind === "not_received") && retryHref ? (
        <a className={cx("mpc-result-retry-link", classNames.retryLink)} href={retryHref}>
          {labels.tryAgain}
        </a>
      ) : null}
    </section>
  )
}
