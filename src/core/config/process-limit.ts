import { MedusaError } from "@medusajs/framework/utils"

/**
 * How many deliveries one process works on at once (docs/production.md#callback-processing).
 *
 * Medusa's local event bus starts every subscriber the moment its event is emitted: a burst of 200
 * paid callbacks would start 200 workflows together in the process that also answers the gateway,
 * and the answers would wait behind them. The limit lets a process take a few at a time, first
 * come first served, and leaves the event loop free to answer. It limits work, it holds no state
 * another instance needs: the deliveries themselves are stored before the answer, and one that a
 * crashed process never reached is processed by the reconciliation job.
 */
export class ProcessLimit {
  private running = 0
  private readonly waiting: Array<() => void> = []

  constructor(readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `concurrency must be a whole number of at least 1, got ${String(concurrency)}`)
    }
  }

  /** Runs `job` when fewer than `concurrency` jobs run; the others wait their turn in order. */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.running += 1
    }
    try {
      return await job()
    } finally {
      const next = this.waiting.shift()
      if (next !== undefined) {
        // The finished job's slot passes straight to the next one.
        next()
      } else {
        this.running -= 1
      }
    }
  }

  /** Jobs waiting for a slot (for logs and tests). */
  get queued(): number {
    return this.waiting.length
  }
}

/** Deliveries one process works on at once unless `CRYPTO_CALLBACK_CONCURRENCY` says otherwise. */
export const DEFAULT_CALLBACK_CONCURRENCY = 4

/** `CRYPTO_CALLBACK_CONCURRENCY` read and checked: unset or empty is the default; anything but a whole number ≥ 1 stops the boot naming it. */
export function callbackConcurrency(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_CALLBACK_CONCURRENCY
  const text = value.trim()
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `CRYPTO_CALLBACK_CONCURRENCY must be a whole number of at least 1 (deliveries processed at once per process), got "${value}"`)
  }
  return Number(text)
}
