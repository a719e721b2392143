"use client"

import { useState } from "react"
import { cx } from "../lib/class-names.js"
import type { CryptoLabels } from "../lib/labels.js"
import type { CryptoPaymentState } from "../types.js"

export interface PayRestActionsProps {
  rest: CryptoPaymentState["rest"]
  /** The top-up's payment page, linked while it is open (hosted, or whenever `showPageLink`). */
  invoiceUrl: string | null
  /** Link the top-up's page: a hosted top-up (no address shown), or on the return page. */
  showPageLink: boolean
  onPayRest?: () => void | Promise<void>
  /** Called after `onPayRest` settled, e.g. to read the status again. */
  onOpened?: () => void
  labels: CryptoLabels
  linkClassName: string
  className?: string
}

/**
 * Paying the rest of an invoice that ended short (the store's docs/attention.md, "Paying the rest"),
 * as the payment panel and the return page offer it: "Pay the rest" while a top-up can be opened,
 * then the link to the top-up's payment page. Nothing without `rest`.
 */
export function PayRestActions(props: PayRestActionsProps) {
  const { rest, invoiceUrl, showPageLink, onPayRest, onOpened, labels, linkClassName, className } = props
  const [opening, setOpening] = useState(false)
  if (rest === null) return null
  const open = async (): Promise<void> => {
    if (!onPayRest) return
    setOpening(true)
    try {
      await onPayRest()
      onOpened?.()
    } finally {
      setOpening(false)
    }
  }
  if (rest.topUpOpen) {
    return showPageLink && invoiceUrl !== null && /^https?:\/\//i.test(invoiceUrl) ? (
      <a className={cx(linkClassName, className)} href={invoiceUrl}>
        {labels.openRestPaymentPage}
      </a>
    ) : null
  }
  return rest.canPayRest && onPayRest ? (
    <button type="button" className={cx("mpc-panel-pay-rest", className)} onClick={() => void open()} disabled={opening} aria-busy={opening || undefined}>
      {opening ? labels.creatingRestInvoice : labels.payRest}
    </button>
  ) : null
}
