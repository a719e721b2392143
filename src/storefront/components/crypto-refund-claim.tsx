"use client"

import { useId, useRef, useState, type FormEvent } from "react"
import { addressNetworkName, validateCryptoAddress, type CryptoAddressValidation } from "../lib/addresses.js"
import { formatCryptoAmount } from "../lib/amount.js"
import { cx, type ClassNames } from "../lib/class-names.js"
import { describeCoin } from "../lib/coins.js"
import { formatLabel, resolveCryptoLabels, type CryptoLabels } from "../lib/labels.js"
import type { CryptoRefundClaim, CryptoRefundClaimStatus } from "../refund-claim-types.js"

export type CryptoRefundClaimPart =
  | "root"
  | "summary"
  | "amount"
  | "order"
  | "expiry"
  | "status"
  | "address"
  | "txLink"
  | "refused"
  | "form"
  | "field"
  | "label"
  | "input"
  | "hint"
  | "error"
  | "confirm"
  | "submit"

export interface CryptoRefundClaimFormProps {
  /** The claim as the store answered it (`getCryptoRefundClaim`). */
  claim: CryptoRefundClaim
  /**
   * Claims the refund to `address` (trimmed, already checked for the coin's network), e.g. a server
   * action calling `claimCryptoRefund`; resolves with the claim as the store answers it. Called once
   * per submit. A claim still `waiting` with an `error` is shown as a refusal the shopper can correct.
   */
  onClaim: (address: string) => Promise<CryptoRefundClaim>
  locale?: string
  labels?: Partial<CryptoLabels>
  classNames?: ClassNames<CryptoRefundClaimPart>
}

/** What a claim's status tells the shopper: one entry per status, so a new status is a compile error here. */
const STATUS_LABEL = {
  waiting: "refundStatusWaiting",
  sending: "refundStatusSending",
  sent: "refundStatusSent",
  unknown: "refundStatusUnknown",
  failed: "refundStatusFailed",
  expired: "refundStatusExpired",
  revoked: "refundStatusRevoked",
} as const satisfies Record<CryptoRefundClaimStatus, keyof CryptoLabels>

/** The words for a refund claim's status ("Your refund has been sent."). */
export function cryptoRefundClaimStatusText(status: CryptoRefundClaimStatus, labels: CryptoLabels): string {
  return labels[STATUS_LABEL[status]]
}

/**
 * The page a shopper reaches from a refund link (docs/money-out.md, "Refunds the shopper claims"):
 * the amount, the coin and its network, the order, until when the link works; while the claim is
 * waiting, an address field checked for the coin's network (after leaving the field or on submit,
 * never while typing; an address of another network is named as such), a confirmation the shopper
 * ticks, and one button. After the claim, its status in words in a `role="status"` region, with
 * the transaction link once sent. An expired or withdrawn link says so and asks to contact the shop.
 * `data-status` on the root carries the status for styling.
 */
export function CryptoRefundClaimForm(props: CryptoRefundClaimFormProps) {
  const { onClaim, locale, classNames = {} } = props
  const labels = resolveCryptoLabels(locale, props.labels)
  const [claim, setClaim] = useState(props.claim)
  // A claim the parent reads anew replaces the shown one; the same claim passed again (a new object on each render) does not undo a submit.
  const givenClaim = JSON.stringify(props.claim)
  const [shownGiven, setShownGiven] = useState(givenClaim)
  if (shownGiven !== givenClaim) {
    setShownGiven(givenClaim)
    setClaim(props.claim)
  }

  const [address, setAddress] = useState("")
  /** The check shown under the field: set on blur and on submit, cleared as soon as the address is valid. */
  const [check, setCheck] = useState<CryptoAddressValidation | null>(null)
  const [confirmed, setConfirmed] = useState(false)
  const [confirmMissing, setConfirmMissing] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  const [claimFailed, setClaimFailed] = useState(false)
  const inFlight = useRef(false)
  const inputRef = useRef<HTMLInputElement>(null)
  const confirmRef = useRef<HTMLInputElement>(null)

  const id = useId()
  const inputId = `${id}-address`
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const refusedId = `${id}-refused`
  const confirmId = `${id}-confirm`
  const confirmErrorId = `${id}-confirm-error`

  const coin = describeCoin(claim.psys_cid, claim.currency)
  const network = coin.network ?? claim.network ?? claim.psys_cid
  const waiting = claim.status === "waiting"
  const error = check !== null && !check.valid ? addressError(check, coin.code, network, labels) : null
  const refused = waiting && claim.error !== null && claim.error.trim() !== "" ? formatLabel(labels.refundRefused, { reason: claim.error }) : null

  const onChange = (value: string): void => {
    setAddress(value)
    setClaimFailed(false)
    // Punish late, reward early: a shown error goes away as soon as the address is right, never appears while typing.
    if (check !== null && !check.valid && validateCryptoAddress(claim.psys_cid, value).valid) setCheck(null)
  }

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault()
    if (inFlight.current) return
    const result = validateCryptoAddress(claim.psys_cid, address)
    setCheck(result)
    if (!result.valid) {
      inputRef.current?.focus()
      return
    }
    if (!confirmed) {
      setConfirmMissing(true)
      confirmRef.current?.focus()
      return
    }
    inFlight.current = true
    setSubmitting(true)
    setClaimFailed(false)
    try {
      const next = await onClaim(address.trim())
      setClaim(next)
      // Refused, still waiting: the shopper corrects the address and confirms it again.
      if (next.status === "waiting") setConfirmed(false)
    } catch {
      // Not the error's own text: a server action's message is hidden in production, and may be technical.
      setClaimFailed(true)
    } finally {
      inFlight.current = false
      setSubmitting(false)
    }
  }

  const describedBy = [hintId, error !== null ? errorId : null, refused !== null ? refusedId : null].filter((part) => part !== null).join(" ")

  return (
    <section className={cx("mpc-refund", classNames.root)} data-status={claim.status} data-psys-cid={claim.psys_cid}>
      <div className={cx("mpc-refund-summary", classNames.summary)}>
        <p className={cx("mpc-refund-amount", classNames.amount)} data-amount={claim.amount}>
          {formatLabel(labels.refundAmount, { amount: formatCryptoAmount(claim.amount, { locale }), coin: coin.code, network })}
        </p>
        {claim.order_display_id !== null ? (
          <p className={cx("mpc-refund-order", classNames.order)}>{formatLabel(labels.refundOrder, { order: claim.order_display_id })}</p>
        ) : null}
        {waiting ? (
          <p className={cx("mpc-refund-expiry", classNames.expiry)}>
            {/* The server's time zone may differ from the browser's: the browser's text wins without a warning. */}
            <time dateTime={claim.expires_at} suppressHydrationWarning>
              {formatLabel(labels.refundExpires, { date: formatInstant(claim.expires_at, locale) })}
            </time>
          </p>
        ) : null}
      </div>

      <div className={cx("mpc-refund-status", classNames.status)} role="status" aria-live="polite" aria-atomic="true">
        <p className="mpc-refund-status-text">
          {submitting ? labels.refundSubmitting : claimFailed ? labels.refundClaimFailed : cryptoRefundClaimStatusText(claim.status, labels)}
        </p>
        {!waiting && claim.address !== null ? (
          <p className={cx("mpc-refund-address", classNames.address)}>
            {labels.refundSentTo}: <code>{claim.address}</code>
          </p>
        ) : null}
        {claim.tx_url !== null && /^https?:\/\//i.test(claim.tx_url) ? (
          <a className={cx("mpc-refund-tx-link", classNames.txLink)} href={claim.tx_url} target="_blank" rel="noopener noreferrer">
            {labels.refundViewTransaction}
          </a>
        ) : null}
      </div>

      {waiting ? (
        <form className={cx("mpc-refund-form", classNames.form)} onSubmit={(event) => void submit(event)} noValidate aria-busy={submitting || undefined}>
          {refused !== null ? (
            <p id={refusedId} className={cx("mpc-refund-refused", classNames.refused)} role="alert">
              {refused}
            </p>
          ) : null}
          <div className={cx("mpc-refund-field", classNames.field)}>
            <label htmlFor={inputId} className={cx("mpc-refund-label", classNames.label)}>
              {formatLabel(labels.refundAddressLabel, { coin: coin.code, network })}
            </label>
            <input
              ref={inputRef}
              id={inputId}
              name="address"
              type="text"
              className={cx("mpc-refund-input", classNames.input)}
              value={address}
              onChange={(event) => onChange(event.target.value)}
              onBlur={() => setCheck(address.trim() === "" ? null : validateCryptoAddress(claim.psys_cid, address))}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              required
              aria-invalid={error !== null}
              aria-describedby={describedBy}
              readOnly={submitting}
            />
            <p id={hintId} className={cx("mpc-refund-hint", classNames.hint)}>
              {formatLabel(labels.refundAddressHint, { network })}
            </p>
            {error !== null ? (
              <p id={errorId} className={cx("mpc-refund-error", classNames.error)} data-reason={check !== null && !check.valid ? check.reason : undefined}>
                {error}
              </p>
            ) : null}
          </div>
          <div className={cx("mpc-refund-confirm", classNames.confirm)}>
            <input
              ref={confirmRef}
              id={confirmId}
              type="checkbox"
              checked={confirmed}
              onChange={(event) => {
                setConfirmed(event.target.checked)
                if (event.target.checked) setConfirmMissing(false)
              }}
              aria-invalid={confirmMissing || undefined}
              aria-describedby={confirmMissing ? confirmErrorId : undefined}
              disabled={submitting}
            />
            <label htmlFor={confirmId}>{formatLabel(labels.refundConfirm, { network })}</label>
            {confirmMissing ? (
              <p id={confirmErrorId} className={cx("mpc-refund-error", classNames.error)}>
                {labels.refundConfirmRequired}
              </p>
            ) : null}
          </div>
          <button type="submit" className={cx("mpc-refund-submit", classNames.submit)} disabled={submitting} aria-busy={submitting || undefined}>
            {submitting ? labels.refundSubmitting : labels.refundSubmit}
          </button>
        </form>
      ) : null}
    </section>
  )
}

/** The words for a refused address; the network of a foreign address is named (the case a shopper most needs told). */
function addressError(check: Extract<CryptoAddressValidation, { valid: false }>, code: string, network: string, labels: CryptoLabels): string {
  switch (check.reason) {
    case "empty":
      return formatLabel(labels.refundAddressEmpty, { coin: code })
    case "format":
      return formatLabel(labels.refundAddressFormat, { network })
    case "network":
      return formatLabel(labels.refundAddressNetwork, { other: addressNetworkName(check.network), network })
  }
}

/** "28 November 2026 at 14:05" in the locale; the ISO text when it is not a date. */
function formatInstant(iso: string, locale: string | undefined): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const options: Intl.DateTimeFormatOptions = { dateStyle: "long", timeStyle: "short" }
  try {
    return new Intl.DateTimeFormat(locale, options).format(date)
  } catch (error) {
    // An unknown locale tag must not break the page: English instead.
    if (!(error instanceof RangeError)) throw error
    return new Intl.DateTimeFormat("en", options).format(date)
  }
}
