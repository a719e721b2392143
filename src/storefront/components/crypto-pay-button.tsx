"use client"

import { useState, type ReactNode } from "react"
import { cx } from "../lib/class-names.js"
import { resolveCryptoLabels, type CryptoLabels } from "../lib/labels.js"

export interface CryptoPayButtonProps {
  /** The invoice's payment page (`invoice_url` of the crypto payment session). */
  invoiceUrl?: string | null
  /** Called on click instead of reading `invoiceUrl`, e.g. to create the session first; resolves to the URL. */
  resolveInvoiceUrl?: () => Promise<string | null>
  /** How to leave the page (default: `window.location.assign`, same tab). */
  navigate?: (url: string) => void
  /** Called when no URL could be had (resolveInvoiceUrl threw or gave none). */
  onError?: (error: Error) => void
  disabled?: boolean
  children?: ReactNode
  locale?: string
  labels?: Partial<CryptoLabels>
  className?: string
}

/** Hosted mode: sends the shopper to the gateway's payment page in the same tab. */
export function CryptoPayButton(props: CryptoPayButtonProps) {
  const { invoiceUrl, resolveInvoiceUrl, navigate, onError, disabled, children, locale, className } = props
  const labels = resolveCryptoLabels(locale, props.labels)
  const [busy, setBusy] = useState(false)
  const unavailable = !resolveInvoiceUrl && !invoiceUrl

  const go = async (): Promise<void> => {
    setBusy(true)
    try {
      const url = resolveInvoiceUrl ? await resolveInvoiceUrl() : invoiceUrl ?? null
      if (!url) throw new Error("The crypto payment session has no invoice_url")
      ;(navigate ?? ((target: string) => window.location.assign(target)))(url)
    } catch (caught) {
      setBusy(false)
      onError?.(caught instanceof Error ? caught : new Error(String(caught)))
    }
  }

  return (
    <button
      type="button"
      className={cx("mpc-pay-button", className)}
      disabled={disabled || unavailable || busy}
      aria-busy={busy || undefined}
      data-status={busy ? "redirecting" : "idle"}
      onClick={() => void go()}
    >
      {busy ? labels.redirecting : children ?? labels.payButton}
    </button>
  )
}
