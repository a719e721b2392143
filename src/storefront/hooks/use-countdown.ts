"use client"

import { useEffect, useState } from "react"

export interface Countdown {
  /** Milliseconds left; `null` before the first tick in the browser or without a deadline. */
  remainingMs: number | null
  expired: boolean
  /** "14:59", or "1:02:03" past an hour; "" when `remainingMs` is null. */
  text: string
}

/** "m:ss" or "h:mm:ss" for a number of milliseconds (rounded up to the second, never below 0). */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = total % 60
  const ss = String(seconds).padStart(2, "0")
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${ss}` : `${minutes}:${ss}`
}

function parseDeadline(deadline: string | number | Date | null | undefined): number | null {
  if (deadline === null || deadline === undefined) return null
  const time = deadline instanceof Date ? deadline.getTime() : typeof deadline === "number" ? deadline : Date.parse(deadline)
  return Number.isFinite(time) ? time : null
}

/**
 * Time left until `deadline` (ISO string, epoch ms or Date), ticking every second. The first value
 * is computed after mount, so a server render and the first client render agree (no hydration
 * mismatch from a clock that moved between them).
 */
export function useCountdown(deadline: string | number | Date | null | undefined, tickMs = 1000): Countdown {
  const target = parseDeadline(deadline)
  const [remainingMs, setRemainingMs] = useState<number | null>(null)

  useEffect(() => {
    if (target === null) {
      setRemainingMs(null)
      return
    }
    const update = (): number => {
      const left = Math.max(0, target - Date.now())
      setRemainingMs(left)
      return left
    }
    if (update() === 0) return
    const id = setInterval(() => {
      if (update() === 0) clearInterval(id)
    }, tickMs)
    return () => clearInterval(id)
  }, [target, tickMs])

  return {
    remainingMs,
    expired: remainingMs === 0,
    text: remainingMs === null ? "" : formatRemaining(remainingMs),
  }
}
