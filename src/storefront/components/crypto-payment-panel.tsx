"use client"

import { useEffect, useState, type ReactNode } from "react"
import { useCopyToClipboard } from "../hooks/use-copy-to-clipboard.js"
import { useCountdown } from "../hooks/use-countdown.js"
import { useCryptoPaymentStatus, type CryptoPaymentCallback } from "../hooks/use-crypto-payment-status.js"
import { formatCryptoAmount, formatFiatAmountWithCode } from "../lib/amount.js"
import { cx, type ClassNames } from "../lib/class-names.js"
import { describeCoin } from "../lib/coins.js"
import { abandonedPaymentText, cryptoStatusText, formatLabel, resolveCryptoLabels, type CryptoLabels } from "../lib/labels.js"
import { buildPaymentLink } from "../lib/payment-uri.js"
import { toCryptoPaymentState } from "../lib/status.js"
import type { CryptoPaymentState, CryptoPaymentStatusResponse } from "../types.js"
import { CopyButton } from "./copy-button.js"
import { CryptoQrCode } from "./crypto-qr-code.js"
import { PayRestActions } from "./pay-rest-actions.js"

export type CryptoPaymentPanelPart =
  | "root"
  | "status"
  | "details"
  | "row"
  | "value"
  | "copy"
  | "commission"
  | "breakdown"
  | "warning"
  | "qr"
  | "uri"
  | "noLink"
  | "countdown"
  | "underpaid"
  | "overpaid"
  | "abandoned"
  | "newInvoice"
  | "rest"
  | "payRest"
  | "support"

/** The merchant's contact, shown on the panel: an e-mail address, a link, or both. */
export interface CryptoSupportContact {
  email?: string
  url?: string
  /** Text of the link (default: the e-mail address or the URL). */
  label?: string
}

export interface CryptoPaymentPanelProps {
  /** The status to show; with `fetchStatus`, the first one (polling goes on from it). */
  status?: CryptoPaymentStatusResponse | null
  /** Reads the status; when given, the panel polls it (`useCryptoPaymentStatus`). */
  fetchStatus?: () => Promise<CryptoPaymentStatusResponse>
  pollIntervalsMs?: readonly number[]
  onDetected?: CryptoPaymentCallback
  onPaid?: CryptoPaymentCallback
  onExpired?: CryptoPaymentCallback
  onFailed?: CryptoPaymentCallback
  /** Offered on an expired, canceled or failed invoice, or after the cart changed: get a fresh one (e.g. a server action calling `refreshCryptoInvoice`). */
  onNewInvoice?: () => void | Promise<void>
  /**
   * Offered when the invoice ended short and the store allows paying the rest: ask the store for an
   * invoice of the rest (e.g. a server action calling `openCryptoTopUp`); the panel then shows it.
   */
  onPayRest?: () => void | Promise<void>
  support?: CryptoSupportContact | null
  /** QR size in CSS pixels (default 192). */
  qrSize?: number
  locale?: string
  labels?: Partial<CryptoLabels>
  classNames?: ClassNames<CryptoPaymentPanelPart>
  /** Extra content at the end of the panel. */
  children?: ReactNode
}

const OPEN_STATUSES = new Set(["new", "detected", "underpaid", "rest_due"])

/**
 * White-label payment view: the amount the shopper sends ("You send", the term the coin picker uses
 * too) and the address, each with a copy button, the amount explained under it (order total in the
 * cart's currency, the invoice's rate when the store knows it, the gateway's commission when one is
 * added: docs/storefront.md), the network, a QR code and a wallet link where the coin has a payment
 * URI (both naming the network; a coin without one says which network to send on), a countdown,
 * then what happens: payment detected with confirmations n/m, part paid with the amount still due,
 * paid, overpaid, expired with a "new invoice" action, ended short with a "pay the rest" action
 * (then the top-up's amount, address and link). Every state is said in words inside one
 * `aria-live="polite"` region; `data-status` on the root carries it for styling.
 */
export function CryptoPaymentPanel(props: CryptoPaymentPanelProps) {
  const { status = null, fetchStatus, support, qrSize, locale, classNames = {}, onNewInvoice, onPayRest, children } = props
  const labels = resolveCryptoLabels(locale, props.labels)
  const polled = useCryptoPaymentStatus({
    fetchStatus: fetchStatus ?? (() => Promise.reject(new Error("CryptoPaymentPanel: no fetchStatus"))),
    initialStatus: status,
    enabled: fetchStatus !== undefined,
    intervalsMs: props.pollIntervalsMs,
    onDetected: props.onDetected,
    onPaid: props.onPaid,
    onExpired: props.onExpired,
    onFailed: props.onFailed,
  })
  const state = fetchStatus !== undefined ? polled.state : toCryptoPaymentState(status)
  const countdown = useCountdown(OPEN_STATUSES.has(state.status) ? state.expiresAt : null)
  const clipboard = useCopyToClipboard()
  // At the deadline, read at once instead of waiting for the next (backed-off) poll.
  const { refresh } = polled
  useEffect(() => {
    if (countdown.expired && fetchStatus !== undefined) refresh()
  }, [countdown.expired, fetchStatus, refresh])
  const [renewing, setRenewing] = useState(false)

  const coin = state.psysCid !== null ? describeCoin(state.psysCid, state.currency) : null
  const code = coin?.code ?? state.currency ?? ""
  const amount = state.status === "underpaid" && state.amountDue !== null ? state.amountDue : state.amount
  const showDetails = OPEN_STATUSES.has(state.status) && state.address !== null
  const link = showDetails && state.psysCid !== null && state.address !== null ? buildPaymentLink({ psysCid: state.psysCid, address: state.address, amount }) : null
  const shownAmount = amount !== null ? formatCryptoAmount(amount, { locale, code }) : null
  // The network the QR code, the wallet link and the address are for: "TRON (TRC-20)", "Polygon".
  const network = coin?.network ?? coin?.label ?? code
  const linkAmount = link !== null && link.amount !== null && shownAmount !== null ? shownAmount : null
  // The breakdown explains the whole amount, so it goes with it, not with a remainder still due.
  const breakdown = amount !== null && amount === state.amount ? amountBreakdown(state, code, labels, locale) : []
  const failed = state.status === "expired" || state.status === "canceled" || state.status === "error" || state.status === "cart_changed"

  const renew = async (): Promise<void> => {
    if (!onNewInvoice) return
    setRenewing(true)
    try {
      await onNewInvoice()
      if (fetchStatus !== undefined) refresh()
    } finally {
      setRenewing(false)
    }
  }
  const rest = state.rest

  return (
    <section className={cx("mpc-panel", classNames.root)} data-status={state.status}>
      <div className={cx("mpc-panel-status", classNames.status)} role="status" aria-live="polite" aria-atomic="true">
        <p className="mpc-panel-status-text">{cryptoStatusText(state.status, labels)}</p>
        {state.status === "detected" && state.confirmations ? (
          <p className="mpc-panel-confirmations" data-current={state.confirmations.current} data-required={state.confirmations.required}>
            {formatLabel(labels.confirmations, { current: state.confirmations.current, required: state.confirmations.required })}
          </p>
        ) : null}
        {state.status === "underpaid" && state.amountDue !== null ? (
          <p className={cx("mpc-panel-underpaid", classNames.underpaid)}>
            {formatLabel(labels.amountDue, { amount: formatCryptoAmount(state.amountDue, { locale, code }) })}
          </p>
        ) : null}
        {state.status === "overpaid" && state.overpaidAmount !== null ? (
          <p className={cx("mpc-panel-overpaid", classNames.overpaid)}>
            {formatLabel(labels.overpaidNote, { amount: formatCryptoAmount(state.overpaidAmount, { locale, code }) })}
          </p>
        ) : null}
        {rest !== null ? (
          <p className={cx("mpc-panel-rest", classNames.rest)} data-received={rest.receivedAmount} data-due={rest.dueAmount}>
            {formatLabel(labels.restSummary, {
              received: formatCryptoAmount(rest.receivedAmount, { locale, code }),
              due: formatCryptoAmount(rest.dueAmount, { locale, code }),
            })}
          </p>
        ) : null}
        {state.abandonedPayments.map((payment) => (
          <p key={payment.order_number} className={cx("mpc-panel-abandoned", classNames.abandoned)} data-order-number={payment.order_number}>
            {abandonedPaymentText(payment, labels, locale)}
          </p>
        ))}
      </div>

      {showDetails && state.address !== null ? (
        <>
          <dl className={cx("mpc-panel-details", classNames.details)}>
            {amount !== null && shownAmount !== null ? (
              <div className={cx("mpc-panel-row", "mpc-panel-amount", classNames.row)}>
                <dt>{labels.youSend}</dt>
                <dd>
                  <span className={cx("mpc-panel-value", classNames.value)} data-amount={amount}>
                    {shownAmount}
                  </span>
                  <CopyButton text={amount} copyKey="amount" label={labels.copyAmount} clipboard={clipboard} labels={labels} className={classNames.copy} />
                  {breakdown.length > 0 ? (
                    <dl className={cx("mpc-panel-breakdown", classNames.breakdown)} aria-label={labels.breakdown}>
                      {breakdown.map((line) => (
                        <div key={line.key} className={cx("mpc-panel-breakdown-row", `mpc-panel-breakdown-${line.key}`, line.key === "commission" ? classNames.commission : undefined)}>
                          <dt>{line.term}</dt>
                          <dd>{line.value}</dd>
                        </div>
                      ))}
                    </dl>
                  ) : null}
                </dd>
              </div>
            ) : null}
            {coin !== null ? (
              <div className={cx("mpc-panel-row", "mpc-panel-network", classNames.row)}>
                <dt>{labels.network}</dt>
                <dd>
                  <span className={cx("mpc-panel-value", classNames.value)}>{coin.label}</span>
                </dd>
              </div>
            ) : null}
            <div className={cx("mpc-panel-row", "mpc-panel-address", classNames.row)}>
              <dt>{labels.address}</dt>
              <dd>
                <code className={cx("mpc-panel-value", classNames.value)}>{state.address}</code>
                <CopyButton text={state.address} copyKey="address" label={labels.copyAddress} clipboard={clipboard} labels={labels} className={classNames.copy} />
              </dd>
            </div>
          </dl>
          {coin !== null ? <p className={cx("mpc-panel-warning", classNames.warning)}>{formatLabel(labels.sendOnly, { coin: coin.label })}</p> : null}
          <CryptoQrCode
            className={classNames.qr}
            value={link?.uri ?? state.address}
            size={qrSize}
            alt={
              linkAmount !== null
                ? formatLabel(labels.qrAlt, { youSend: labels.youSend, amount: linkAmount, address: state.address, network })
                : formatLabel(labels.qrAltAddress, { address: state.address, network })
            }
          />
          {link !== null ? (
            <a className={cx("mpc-panel-uri", classNames.uri)} href={link.uri} data-network={network}>
              {linkAmount !== null
                ? formatLabel(labels.openInWallet, { youSend: labels.youSend, amount: linkAmount, network })
                : formatLabel(labels.openInWalletNoAmount, { network })}
            </a>
          ) : (
            <p className={cx("mpc-panel-no-link", classNames.noLink)} data-network={network}>
              {formatLabel(labels.noWalletLink, { network })}
            </p>
          )}
          {countdown.remainingMs !== null ? (
            <p className={cx("mpc-panel-countdown", classNames.countdown)} role="timer" data-expired={countdown.expired ? "true" : "false"}>
              {countdown.expired ? (
                labels.expired
              ) : (
                <time dateTime={state.expiresAt ?? undefined}>{formatLabel(labels.expiresIn, { time: countdown.text })}</time>
              )}
            </p>
          ) : null}
        </>
      ) : null}

      <PayRestActions
        rest={rest}
        invoiceUrl={state.invoiceUrl}
        showPageLink={state.address === null}
        onPayRest={onPayRest}
        onOpened={fetchStatus !== undefined ? refresh : undefined}
        labels={labels}
        linkClassName="mpc-panel-rest-page"
        className={classNames.payRest}
      />

      {failed && onNewInvoice ? (
        <button type="button" className={cx("mpc-panel-new-invoice", classNames.newInvoice)} onClick={() => void renew()} disabled={renewing} aria-busy={renewing || undefined}>
          {renewing ? labels.creatingInvoice : labels.newInvoice}
        </button>
      ) : null}

      {support && (support.email || support.url) ? (
        <p className={cx("mpc-panel-support", classNames.support)}>
          {supportLine(support, labels)}
        </p>
      ) : null}
      {children}
    </section>
  )
}

interface BreakdownLine {
  key: "total" | "rate" | "commission"
  term: string
  value: string
}

/**
 * The lines under the amount: "Order total 84.90 EUR", "Rate 1 LTC = 76.47 EUR", "Gateway
 * commission 0.01110234 LTC". Each only when its figures are known: the rate is the invoice's own
 * (spec §2.1 `source_rate`), never derived from the order total and the rounded coin amount, so
 * without it there is no rate line; the commission only when the gateway adds one to the amount.
 */
function amountBreakdown(state: CryptoPaymentState, code: string, labels: CryptoLabels, locale: string | undefined): BreakdownLine[] {
  const lines: BreakdownLine[] = []
  const fiat = state.sourceCurrency
  if (fiat !== null && state.sourceAmount !== null) {
    lines.push({ key: "total", term: labels.orderTotal, value: formatFiatAmountWithCode(state.sourceAmount, fiat, locale) })
  }
  if (fiat !== null && state.sourceRate !== null && code !== "") {
    lines.push({ key: "rate", term: labels.rate, value: formatLabel(labels.rateValue, { coin: code, rate: formatFiatAmountWithCode(state.sourceRate, fiat, locale) }) })
  }
  if (state.commissionAmount !== null) {
    lines.push({ key: "commission", term: labels.gatewayCommission, value: formatCryptoAmount(state.commissionAmount, { locale, code }) })
  }
  return lines
}

function supportLine(support: CryptoSupportContact, labels: CryptoLabels): ReactNode {
  const href = support.url ?? `mailto:${support.email}`
  const text = support.label ?? support.email ?? support.url ?? ""
  const [before = "", after = ""] = labels.support.split("{contact}")
  return (
    <>
      {before}
      <a href={href}>{text}</a>
      {after}
    </>
  )
}
