"use client"

import { formatCryptoAmount } from "../lib/amount.js"
import { cx, type ClassNames } from "../lib/class-names.js"
import { describeCoin } from "../lib/coins.js"
import { formatLabel, resolveCryptoLabels, type CryptoLabels } from "../lib/labels.js"
import { cryptoPaymentProgress, readCryptoPaymentData, type CryptoPaymentProgress } from "../lib/payment-data.js"

export type CryptoPaymentSummaryPart = "root" | "title" | "list" | "row" | "paid" | "commission" | "transactions"

export interface CryptoPaymentSummaryProps {
  /** The order payment's `data` (or a payment-status invoice); read by `readCryptoPaymentData`. */
  data: unknown
  /** Heading level of the title (default 3). */
  headingLevel?: 2 | 3 | 4
  locale?: string
  labels?: Partial<CryptoLabels>
  classNames?: ClassNames<CryptoPaymentSummaryPart>
}

/**
 * The order page's crypto payment: coin and network, the amount to send (commission included, and
 * said so when the gateway added one), "Paid X of Y" in that coin (X received, Y the amount), what is
 * still due, a shortfall the store accepted or what was sent beyond the amount, transaction links.
 */
export function CryptoPaymentSummary(props: CryptoPaymentSummaryProps) {
  const { data, headingLevel = 3, locale, classNames = {} } = props
  const labels = resolveCryptoLabels(locale, props.labels)
  const payment = readCryptoPaymentData(data)
  const coin = payment.psysCid !== null ? describeCoin(payment.psysCid, payment.currency) : null
  const code = coin?.code ?? payment.currency ?? undefined
  const Heading = `h${headingLevel}` as const
  const progress = cryptoPaymentProgress(payment)

  return (
    <section className={cx("mpc-summary", classNames.root)} data-psys-cid={payment.psysCid ?? undefined}>
      <Heading className={cx("mpc-summary-title", classNames.title)}>{labels.summaryTitle}</Heading>
      <dl className={cx("mpc-summary-list", classNames.list)}>
        {coin !== null ? (
          <div className={cx("mpc-summary-row", "mpc-summary-coin", classNames.row)}>
            <dt>{labels.coin}</dt>
            <dd>{coin.label}</dd>
          </div>
        ) : null}
        {payment.amount !== null ? (
          <div className={cx("mpc-summary-row", "mpc-summary-amount", classNames.row)}>
            <dt>{labels.amount}</dt>
            <dd>{formatCryptoAmount(payment.amount, { locale, code })}</dd>
          </div>
        ) : null}
      </dl>
      {payment.amount !== null && payment.commissionAmount !== null ? (
        <p className={cx("mpc-summary-commission", classNames.commission)}>
          {formatLabel(labels.commissionIncluded, { amount: formatCryptoAmount(payment.commissionAmount, { locale, code }) })}
        </p>
      ) : null}
      {progress !== null ? (
        <div className={cx("mpc-summary-paid", classNames.paid)} data-progress={progress.kind}>
          <p className="mpc-summary-paid-text" data-received={progress.received} data-amount={progress.amount}>
            {formatLabel(labels.paidOf, { received: formatCryptoAmount(progress.received, { locale }), amount: formatCryptoAmount(progress.amount, { locale, code }) })}
          </p>
          {progressNote(progress, labels, locale, code)}
        </div>
      ) : null}
      {payment.txUrls.length > 0 ? (
        <div className={cx("mpc-summary-transactions", classNames.transactions)}>
          <p>{labels.transactions}</p>
          <ul>
            {payment.txUrls.map((url, index) => (
              <li key={url}>
                <a href={url} target="_blank" rel="noopener noreferrer">
                  {formatLabel(labels.transaction, { n: index + 1 })}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  )
}

/** What the difference between received and the amount means, in words (nothing when they match). */
function progressNote(progress: CryptoPaymentProgress, labels: CryptoLabels, locale: string | undefined, code: string | undefined) {
  switch (progress.kind) {
    case "paid":
      return null
    case "underpaid":
      return <p className="mpc-summary-due">{formatLabel(labels.amountDue, { amount: formatCryptoAmount(progress.due, { locale, code }) })}</p>
    case "short_accepted":
      return <p className="mpc-summary-shortfall">{formatLabel(labels.shortfallAccepted, { amount: formatCryptoAmount(progress.shortfall, { locale, code }) })}</p>
    case "overpaid":
      return <p className="mpc-summary-overpaid">{formatLabel(labels.overpaidNote, { amount: formatCryptoAmount(progress.excess, { locale, code }) })}</p>
  }
}
