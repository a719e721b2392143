/**
 * Retry policy: exponential backoff with full jitter (delay = random × min(max, base × 2^attempt)),
 * so clients that failed together do not retry together.
 */
import { GatewayConnectionError, GatewayServerError } from "../core/errors"

export interface RetryOptions {
  /** First backoff ceiling in ms (default 500). */
  baseDelayMs?: number
  /** Largest backoff ceiling in ms (default 8000). */
  maxDelayMs?: number
  /** Source of jitter in [0, 1) (default Math.random); injectable for tests. */
  random?: () => number
  /** Waits `ms` (default a timer); injectable for tests. */
  sleep?: (ms: number) => Promise<void>
}

export interface ResolvedRetryOptions {
  baseDelayMs: number
  maxDelayMs: number
  random: () => number
  sleep: (ms: number) => Promise<void>
}

export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  return {
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 8000,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  }
}

/** Delay before retry number `retry` (0-based). */
export function backoffDelay(retry: number, options: ResolvedRetryOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry)
  return Math.floor(options.random() * ceiling)
}

/** Transport failures (timeouts included) and 5xx answers are worth another try; nothing else is. */
export function isRetryable(error: unknown): boolean {
  return error instanceof GatewayConnectionError || error instanceof GatewayServerError
}
