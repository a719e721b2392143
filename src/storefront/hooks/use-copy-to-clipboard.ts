"use client"

import { useCallback, useEffect, useRef, useState } from "react"

export interface UseCopyToClipboardResult {
  /** Copies `text`; `key` names what was copied (default: the text). Resolves to whether it worked. */
  copy: (text: string, key?: string) => Promise<boolean>
  /** The key of the last successful copy, for `resetMs` after it; else `null`. */
  copiedKey: string | null
  /** The key of the last failed copy, for `resetMs` after it; else `null`. */
  failedKey: string | null
}

function legacyCopy(text: string): boolean {
  // Without the async Clipboard API (an http:// page that is not localhost, an old browser), a
  // selected off-screen textarea and execCommand still copy.
  if (typeof document === "undefined" || typeof document.execCommand !== "function") return false
  const area = document.createElement("textarea")
  area.value = text
  area.setAttribute("readonly", "")
  area.style.position = "fixed"
  area.style.opacity = "0"
  document.body.appendChild(area)
  area.select()
  try {
    return document.execCommand("copy")
  } finally {
    document.body.removeChild(area)
  }
}

/** Copy to the clipboard with a short-lived "copied" flag per key (e.g. "amount", "address"). */
export function useCopyToClipboard(resetMs = 2000): UseCopyToClipboardResult {
  const [copiedKey, setCopiedKey] = useState<string | null>(null)
  const [failedKey, setFailedKey] = useState<string | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current)
    },
    []
  )

  const copy = useCallback(
    async (text: string, key: string = text): Promise<boolean> => {
      let ok = false
      try {
        if (typeof navigator !== "undefined" && navigator.clipboard?.writeText) {
          await navigator.clipboard.writeText(text)
          ok = true
        } else {
          ok = legacyCopy(text)
        }
      } catch {
        ok = legacyCopy(text)
      }
      setCopiedKey(ok ? key : null)
      setFailedKey(ok ? null : key)
      if (timer.current !== null) clearTimeout(timer.current)
      timer.current = setTimeout(() => {
        setCopiedKey(null)
        setFailedKey(null)
      }, resetMs)
      return ok
    },
    [resetMs]
  )

  return { copy, copiedKey, failedKey }
}
