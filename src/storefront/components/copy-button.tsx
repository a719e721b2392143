"use client"

import { cx } from "../lib/class-names.js"
import type { CryptoLabels } from "../lib/labels.js"
import type { UseCopyToClipboardResult } from "../hooks/use-copy-to-clipboard.js"

export interface CopyButtonProps {
  /** The exact text copied (a raw decimal string for an amount, never the grouped display). */
  text: string
  /** What is copied ("amount", "address"): one clipboard state serves several buttons. */
  copyKey: string
  /** Accessible name, e.g. "Copy amount". */
  label: string
  clipboard: UseCopyToClipboardResult
  labels: Pick<CryptoLabels, "copy" | "copied" | "copyFailed">
  className?: string
}

/** A copy button and, beside it, a polite live region that says "Copied" (or why it failed). */
export function CopyButton({ text, copyKey, label, clipboard, labels, className }: CopyButtonProps) {
  const copied = clipboard.copiedKey === copyKey
  const failed = clipboard.failedKey === copyKey
  return (
    <>
      <button
        type="button"
        className={cx("mpc-copy", className)}
        aria-label={label}
        data-copied={copied ? "true" : "false"}
        onClick={() => void clipboard.copy(text, copyKey)}
      >
        {copied ? labels.copied : labels.copy}
      </button>
      <span className="mpc-copy-feedback" aria-live="polite">
        {copied ? labels.copied : failed ? labels.copyFailed : ""}
      </span>
    </>
  )
}
