"use client"

import { useCallback, useEffect, useRef, useState } from "react"
import { toCryptoPaymentState } from "../lib/status.js"
import type { CryptoPaymentState, CryptoPaymentStatusResponse } from "../types.js"

/** Delays between polls while nothing changes: quick at first, then every 20 s. */
export const DEFAULT_POLL_INTERVALS_MS: readonly number[] = [2000, 3000, 5000, 8000, 13000, 20000]

export type CryptoPaymentCallback = (state: CryptoPaymentState, response: CryptoPaymentStatusResponse) => void

export interface UseCryptoPaymentStatusOptions {
  /** Reads `GET /store/crypto/payment-status` (e.g. a server action calling `getCryptoPaymentStatus`). */
  fetchStatus: () => Promise<CryptoPaymentStatusResponse>
  /** A status already read (e.g. by the server component): shown at once, polling goes on from it. */
  initialStatus?: CryptoPaymentStatusResponse | null
  /** `false` stops polling (default `true`). */
  enabled?: boolean
  /** Delays between polls; the last repeats. Reset to the first when the status changes. */
  intervalsMs?: readonly number[]
  /** Once per invoice, when a payment is first seen (detected or part paid). */
  onDetected?: CryptoPaymentCallback
  /** Once per invoice, when it is paid (or overpaid). */
  onPaid?: CryptoPaymentCallback
  /** Once per invoice, when it expired. */
  onExpired?: CryptoPaymentCallback
  /** Once per invoice, when it was canceled or failed, or the cart changed since it was made (`cart_changed`). */
  onFailed?: CryptoPaymentCallback
}

export interface UseCryptoPaymentStatusResult {
  response: CryptoPaymentStatusResponse | null
  state: CryptoPaymentState
  /** The last failed read; cleared by the next good one. Polling goes on after an error. */
  error: Error | null
  loading: boolean
  /** Reads now and resumes polling, e.g. after a new invoice was created. */
  refresh: () => void
}

type CallbackName = "onDetected" | "onPaid" | "onExpired" | "onFailed"

function callbackFor(state: CryptoPaymentState): CallbackName | null {
  switch (state.status) {
    case "detected":
    case "underpaid":
      return "onDetected"
    case "paid":
    case "overpaid":
      return "onPaid"
    case "expired":
      return "onExpired"
    case "canceled":
    case "error":
    case "cart_changed":
      return "onFailed"
    default:
      return null
  }
}

const isHidden = (): boolean => typeof document !== "undefined" && document.hidden

/**
 * Polls the payment status with backoff: the next delay grows while the status stays the same
 * and goes back to the first when it changes. No poll runs while the tab is hidden (one runs as
 * soon as it is visible again), and polling stops on a final status. Each callback fires once
 * per invoice (a new invoice, with a new `txn_id`, may fire them again).
 */
export function useCryptoPaymentStatus(options: UseCryptoPaymentStatusOptions): UseCryptoPaymentStatusResult {
  const optionsRef = useRef(options)
  optionsRef.current = options
  const enabled = options.enabled ?? true

  const [response, setResponse] = useState<CryptoPaymentStatusResponse | null>(options.initialStatus ?? null)
  const [error, setError] = useState<Error | null>(null)
  const [loading, setLoading] = useState(false)

  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const attempt = useRef(0)
  const inFlight = useRef(false)
  const stopped = useRef(false)
  const alive = useRef(true)
  const lastStatus = useRef<string | null>(null)
  const fired = useRef<{ invoice: string | null; names: Set<CallbackName> }>({ invoice: null, names: new Set() })

  const clearTimer = useCallback(() => {
    if (timer.current !== null) {
      clearTimeout(timer.current)
      timer.current = null
    }
  }, [])

  const notify = useCallback((next: CryptoPaymentStatusResponse, state: CryptoPaymentState) => {
    const invoice = next.invoice?.txn_id ?? null
    if (fired.current.invoice !== invoice) {
      fired.current = { invoice, names: new Set() }
    }
    const name = callbackFor(state)
    if (name === null || fired.current.names.has(name)) {
      return
    }
    fired.current.names.add(name)
    optionsRef.current[name]?.(state, next)
  }, [])

  // Takes one answer: decides the next delay (or to stop) and fires the callbacks.
  const accept = useCallback(
    (next: CryptoPaymentStatusResponse): CryptoPaymentState => {
      const state = toCryptoPaymentState(next)
      const key = `${next.invoice?.txn_id ?? ""}:${state.status}:${state.confirmations?.current ?? ""}`
      const intervals = optionsRef.current.intervalsMs ?? DEFAULT_POLL_INTERVALS_MS
      attempt.current = key === lastStatus.current ? Math.min(attempt.current + 1, intervals.length - 1) : 0
      lastStatus.current = key
      stopped.current = state.final
      notify(next, state)
      return state
    },
    [notify]
  )

  const schedule = useCallback(
    (poll: () => void) => {
      clearTimer()
      if (stopped.current || !alive.current || isHidden()) {
        return
      }
      const intervals = optionsRef.current.intervalsMs ?? DEFAULT_POLL_INTERVALS_MS
      const delay = intervals[Math.min(attempt.current, intervals.length - 1)] ?? 20000
      timer.current = setTimeout(poll, delay)
    },
    [clearTimer]
  )

  const poll = useCallback(async (): Promise<void> => {
    if (inFlight.current || !alive.current) {
      return
    }
    clearTimer()
    inFlight.current = true
    setLoading(true)
    try {
      const next = await optionsRef.current.fetchStatus()
      if (!alive.current) return
      setResponse(next)
      setError(null)
      accept(next)
    } catch (caught) {
      if (!alive.current) return
      setError(caught instanceof Error ? caught : new Error(String(caught)))
      const intervals = optionsRef.current.intervalsMs ?? DEFAULT_POLL_INTERVALS_MS
      attempt.current = Math.min(attempt.current + 1, intervals.length - 1)
    } finally {
      inFlight.current = false
      if (alive.current) {
        setLoading(false)
        schedule(() => void poll())
      }
    }
  }, [accept, clearTimer, schedule])

  useEffect(() => {
    alive.current = true
    if (!enabled) {
      return () => {
        alive.current = false
      }
    }
    const initial = optionsRef.current.initialStatus
    if (initial) {
      accept(initial)
      schedule(() => void poll())
    } else {
      stopped.current = false
      if (!isHidden()) void poll()
    }
    const onVisibility = (): void => {
      if (isHidden()) {
        clearTimer()
      } else if (!stopped.current && timer.current === null) {
        void poll()
      }
    }
    document.addEventListener("visibilitychange", onVisibility)
    return () => {
      alive.current = false
      document.removeEventListener("visibilitychange", onVisibility)
      clearTimer()
    }
  }, [enabled, accept, clearTimer, poll, schedule])

  const refresh = useCallback(() => {
    stopped.current = false
    attempt.current = 0
    void poll()
  }, [poll])

  return { response, state: toCryptoPaymentState(response), error, loading, refresh }
}
