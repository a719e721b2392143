"use client"

import { useEffect, useRef } from "react"
import { useCryptoPaymentStatus, type CryptoPaymentCallback } from "../hooks/use-crypto-payment-status.js"
import { cx, type ClassNames } from "../lib/class-names.js"
import { abandonedPaymentText, resolveCryptoLabels, type CryptoLabels } from "../lib/labels.js"
import { resolveCryptoReturn, type CryptoReturnDecision } from "../lib/return.js"
import { toCryptoPaymentState } from "../lib/status.js"
import type { CryptoPaymentStatusResponse } from "../types.js"

export type CryptoPaymentResultPart = "root" | "message" | "abandoned" | "orderLink" | "invoiceLink" | "retryLink"

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
  locale?: string
  labels?: Partial<CryptoLabels>
  classNames?: ClassNames<CryptoPaymentResultPart>
}

/**
 * The return page: nothing received yet (polls; links back to the invoice and the checkout), being
 * confirmed (polls), paid and being placed, the order (with its link), or failed.
 */
export function CryptoPaymentResult(props: CryptoPaymentResultProps) {
  const { status = null, fetchStatus, orderHref, retryHref, onDecision, locale, classNames = {} } = props
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
            : labels.resultPending
  const state = toCryptoPaymentState(response)

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
