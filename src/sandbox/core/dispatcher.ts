import { performance } from "node:perf_hooks"

import { wireFields } from "./callback-fields"

/** Callback fields: every value a string except `tx_urls` (spec §6.1, §6.2). */
export type CallbackFields = Record<string, string | string[]>
export type CallbackFormat = "json" | "multipart"

export type CallbackSigner = (
  fields: CallbackFields,
  options: { secretKey: string; format: CallbackFormat }
) => { body: Buffer; contentType: string; verifyHash: string }

export interface RetryPolicy {
  /** attempts in all, the first included */
  maxAttempts: number
  /** delay before the 2nd attempt; doubled for each further one */
  baseDelayMs: number
  /** an attempt with no answer within this time counts as failed */
  timeoutMs: number
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, timeoutMs: 10_000 }

export interface DeliveryAttempt {
  n: number
  at: string
  http_status: number | null
  error: string | null
  latency_ms: number
  response_body: string | null
}

export interface Delivery {
  id: string
  shop_id: string
  event: "invoice" | "pay_in"
  /** txn_id of the invoice or pay_in operation */
  ref: string
  status: string
  url: string
  format: CallbackFormat
  verify_hash: string
  fields: CallbackFields
  /** `dropped`: lost on its way (control API `callbacks/drop`), never posted unless redelivered */
  state: "pending" | "delivered" | "failed" | "dropped"
  attempts: DeliveryAttempt[]
  next_attempt_at: string | null
}

export interface EnqueueInput {
  shopId: string
  event: "invoice" | "pay_in"
  ref: string
  url: string
  fields: CallbackFields
}

/** Which deliveries a drop rule loses: the shop's, optionally of one `ref` (txn_id or pay_in id) and one event. */
export interface DropFilter {
  shopId: string
  ref?: string
  event?: "invoice" | "pay_in"
}

interface DropRule extends DropFilter {
  remaining: number
}

/** spec §6.1: JSON when the target URL's query holds json=true, multipart/form-data otherwise. */
export function formatForUrl(url: string): CallbackFormat {
  try {
    return new URL(url).searchParams.get("json") === "true" ? "json" : "multipart"
  } catch {
    return "multipart"
  }
}

/**
 * Delivers signed callbacks by POST, retrying with exponential backoff until a 2xx or
 * `maxAttempts`; every attempt (answer, error, latency) is kept in the delivery log.
 */
export class CallbackDispatcher {
  private readonly deliveries: Delivery[] = []
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly inFlight = new Set<Promise<void>>()
  private drops: DropRule[] = []
  private closed = false

  constructor(
    private readonly sign: CallbackSigner,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly nextId: () => string,
    /** the shop's secret key, looked up at each attempt (never stored in the log) */
    private readonly secretFor: (shopId: string) => string | undefined
  ) {}

  enqueue(input: EnqueueInput): Delivery {
    const format = formatForUrl(input.url)
    const fields = wireFields(input.fields, format)
    const secretKey = this.secretFor(input.shopId)
    if (secretKey === undefined) {
      throw new Error(`unknown shop ${input.shopId}`)
    }
    let verifyHash = ""
    let signError: string | null = null
    try {
      verifyHash = this.sign(fields, { secretKey, format }).verifyHash
    } catch (e) {
      // A field the format cannot carry must not break the state change that caused the callback.
      signError = `signing failed: ${e instanceof Error ? e.message : String(e)}`
    }
    const delivery: Delivery = {
      id: this.nextId(),
      shop_id: input.shopId,
      event: input.event,
      ref: input.ref,
      status: typeof input.fields.status === "string" ? input.fields.status : "",
      url: input.url,
      format,
      verify_hash: verifyHash,
      // as the body carries them: form bodies hold `tx_urls` as one string (see `wireFields`)
      fields,
      state: "pending",
      attempts: [],
      next_attempt_at: new Date().toISOString(),
    }
    this.deliveries.push(delivery)
    if (this.takeDrop(delivery)) {
      delivery.state = "dropped"
      delivery.next_attempt_at = null
      return delivery
    }
    if (signError !== null) {
      delivery.state = "failed"
      delivery.next_attempt_at = null
      delivery.attempts.push({ n: 1, at: new Date().toISOString(), http_status: null, error: signError, latency_ms: 0, response_body: null })
      return delivery
    }
    this.track(this.attempt(delivery, true))
    return delivery
  }

  /**
   * The next `count` deliveries matching `filter` are lost: logged with state `dropped`, never posted
   * (`redeliver` still posts one). Answers how many drops of the shop are still pending.
   */
  drop(filter: DropFilter, count: number): number {
    this.drops.push({ ...filter, remaining: count })
    return this.pendingDrops(filter.shopId)
  }

  pendingDrops(shopId: string): number {
    return this.drops.filter((d) => d.shopId === shopId).reduce((n, d) => n + d.remaining, 0)
  }

  private takeDrop(delivery: Delivery): boolean {
    const rule = this.drops.find(
      (d) =>
        d.shopId === delivery.shop_id &&
        (d.ref === undefined || d.ref === delivery.ref) &&
        (d.event === undefined || d.event === delivery.event)
    )
    if (rule === undefined) {
      return false
    }
    rule.remaining -= 1
    this.drops = this.drops.filter((d) => d.remaining > 0)
    return true
  }

  list(filter: { shopId?: string; ref?: string } = {}): Delivery[] {
    return this.deliveries.filter(
      (d) => (filter.shopId === undefined || d.shop_id === filter.shopId) && (filter.ref === undefined || d.ref === filter.ref)
    )
  }

  get(id: string): Delivery | undefined {
    return this.deliveries.find((d) => d.id === id)
  }

  /** One more attempt now, whatever the delivery's state; no further retries are scheduled. */
  async redeliver(id: string): Promise<Delivery | undefined> {
    const delivery = this.get(id)
    if (delivery === undefined) {
      return undefined
    }
    const run = this.attempt(delivery, false)
    this.track(run)
    await run
    return delivery
  }

  /** Resolves when no attempt is running or scheduled (tests wait on it instead of sleeping). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || this.timers.size > 0) {
      await Promise.all([...this.inFlight])
      if (this.inFlight.size === 0 && this.timers.size > 0) {
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    }
  }

  clear(): void {
    for (const timer of this.timers) {
      clearTimeout(timer)
    }
    this.timers.clear()
    this.deliveries.length = 0
    this.drops = []
  }

  close(): void {
    this.closed = true
    for (const timer of this.timers) {
      clearTimeout(timer)
    }
    this.timers.clear()
  }

  toJSON(): Delivery[] {
    return this.deliveries
  }

  restore(deliveries: Delivery[]): void {
    this.deliveries.push(...deliveries.map((d) => ({ ...d, next_attempt_at: null })))
  }

  private track(run: Promise<void>): void {
    this.inFlight.add(run)
    void run.finally(() => this.inFlight.delete(run))
  }

  private async attempt(delivery: Delivery, scheduleRetry: boolean): Promise<void> {
    if (this.closed) {
      return
    }
    const secretKey = this.secretFor(delivery.shop_id)
    if (secretKey === undefined) {
      return
    }
    const n = delivery.attempts.length + 1
    let signed: ReturnType<CallbackSigner>
    try {
      signed = this.sign(delivery.fields, { secretKey, format: delivery.format })
    } catch (e) {
      const error = `signing failed: ${e instanceof Error ? e.message : String(e)}`
      delivery.attempts.push({ n, at: new Date().toISOString(), http_status: null, error, latency_ms: 0, response_body: null })
      delivery.state = "failed"
      delivery.next_attempt_at = null
      return
    }
    const at = new Date().toISOString()
    const started = performance.now()
    let httpStatus: number | null = null
    let error: string | null = null
    let responseBody: string | null = null
    try {
      const response = await fetch(delivery.url, {
        method: "POST",
        headers: { "content-type": signed.contentType, "user-agent": "medusa-payment-crypto-sandbox" },
        body: signed.body,
        redirect: "manual",
        signal: AbortSignal.timeout(this.retry.timeoutMs),
      })
      httpStatus = response.status
      responseBody = (await response.text()).slice(0, 500)
    } catch (e) {
      error = e instanceof Error ? describeFetchError(e) : "request failed"
    }
    const latency = Math.round(performance.now() - started)
    delivery.attempts.push({ n, at, http_status: httpStatus, error, latency_ms: latency, response_body: responseBody })
    const ok = httpStatus !== null && httpStatus >= 200 && httpStatus < 300
    if (ok) {
      delivery.state = "delivered"
      delivery.next_attempt_at = null
      return
    }
    if (!scheduleRetry || n >= this.retry.maxAttempts || this.closed) {
      delivery.state = delivery.state === "delivered" ? "delivered" : "failed"
      delivery.next_attempt_at = null
      return
    }
    const delay = this.retry.baseDelayMs * 2 ** (n - 1)
    delivery.next_attempt_at = new Date(Date.now() + delay).toISOString()
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      this.track(this.attempt(delivery, true))
    }, delay)
    timer.unref()
    this.timers.add(timer)
  }
}

function describeFetchError(e: Error): string {
  if (e.name === "TimeoutError") {
    return "timeout"
  }
  const cause = (e as Error & { cause?: unknown }).cause
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code
    return typeof code === "string" ? code : cause.message
  }
  return e.message
}
