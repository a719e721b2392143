import { isDecimalString } from "../lib/amount.js"
import type { CryptoCurrenciesResponse, CryptoInvoiceStatus, CryptoPaymentStatusResponse } from "../types.js"

/**
 * Where each official starter keeps the backend URL (docs/storefront.md, "What differs between the
 * two starters"). A missing `baseUrl` is refused naming both, never replaced by a default: a guessed
 * `http://localhost:9000` sent the coin picker's reads to a port nothing listens on, and the shopper
 * saw an empty step.
 */
export const STARTER_BACKEND_URL_VARIABLES = {
  "nextjs-starter-medusa": "MEDUSA_BACKEND_URL",
  "dtc-starter": "NEXT_PUBLIC_MEDUSA_BACKEND_URL",
} as const

/** Both official starters read the publishable key from this variable. */
export const STARTER_PUBLISHABLE_KEY_VARIABLE = "NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY"

/** How long a store call may take before it counts as unreachable: the store's own gateway call may take 30 s per attempt. */
export const DEFAULT_STORE_TIMEOUT_MS = 60_000

/** Where the helpers report a store they cannot use (a server log; `console` by default). */
export interface StoreLogger {
  error(message: string): void
}

/** How the helpers reach the Medusa store API: plain `fetch`, nothing else. */
export interface StoreConnection {
  /**
   * The Medusa backend ("https://api.example.com"), read by the caller from the starter's own
   * variable (`STARTER_BACKEND_URL_VARIABLES`). Missing or empty is refused with an error naming it.
   */
  baseUrl: string | null | undefined
  /** The store's publishable API key (`x-publishable-api-key`), `NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY` in both starters. */
  publishableKey: string | null | undefined
  /** A `fetch` to use instead of the global one (tests, instrumentation). */
  fetch?: typeof fetch
  /** Extra headers, e.g. the shopper's `authorization` from the starter's `getAuthHeaders()`. */
  headers?: Record<string, string>
  /** Milliseconds before a call without an answer counts as unreachable (default `DEFAULT_STORE_TIMEOUT_MS`). */
  timeoutMs?: number
  /** Where an unusable store is reported (default `console`). Never given the key or the headers. */
  logger?: StoreLogger
}

/** A store call that did not answer 2xx with the expected body. `status` is null when no answer came. */
export class CryptoStoreError extends Error {
  readonly status: number | null
  readonly path: string

  constructor(message: string, status: number | null, path: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = "CryptoStoreError"
    this.status = status
    this.path = path
  }
}

/** Why no answer came: the port refused, the host name did not resolve, the time ran out, or another network failure. */
export type StoreUnreachableReason = "refused" | "dns" | "timeout" | "network"

/** The backend did not answer at all (`status` null). `url` is the backend URL without credentials. */
export class CryptoStoreUnreachableError extends CryptoStoreError {
  readonly url: string
  readonly reason: StoreUnreachableReason
  /** The system error code when one was given (`ECONNREFUSED`, `ENOTFOUND`, …). */
  readonly code: string | null

  constructor(message: string, init: { url: string; path: string; reason: StoreUnreachableReason; code: string | null; cause: unknown }) {
    super(message, null, init.path, { cause: init.cause })
    this.name = "CryptoStoreUnreachableError"
    this.url = init.url
    this.reason = init.reason
    this.code = init.code
  }
}

/** The caller gave no usable backend URL or publishable key: a setup mistake, named with the variable to set. */
export class CryptoStoreConfigError extends TypeError {
  readonly field: "baseUrl" | "publishableKey"

  constructor(field: "baseUrl" | "publishableKey", message: string) {
    super(message)
    this.name = "CryptoStoreConfigError"
    this.field = field
  }
}

const BACKEND_VARIABLES_TEXT = Object.entries(STARTER_BACKEND_URL_VARIABLES)
  .map(([starter, variable]) => `${variable} in ${starter}`)
  .join(", ")

/** The backend URL as it may be shown: no user, password, query or fragment. */
function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl)
    return `${url.origin}${url.pathname.replace(/\/+$/, "")}`
  } catch {
    return "(an unparsable URL)"
  }
}

function report(logger: StoreLogger | undefined, message: string): void {
  ;(logger ?? console).error(`[medusa-payment-crypto] ${message}`)
}

/** The backend URL, refused clearly when missing: the starters differ in its variable, and a default would hide that. */
function requireBaseUrl(connection: StoreConnection): string {
  const baseUrl = typeof connection.baseUrl === "string" ? connection.baseUrl.trim() : ""
  if (baseUrl === "") {
    const error = new CryptoStoreConfigError(
      "baseUrl",
      `baseUrl is missing: pass the Medusa backend URL from the storefront's environment (${BACKEND_VARIABLES_TEXT}; docs/storefront.md, step 2)`
    )
    report(connection.logger, error.message)
    throw error
  }
  if (!/^https?:\/\/[^/\s]/i.test(baseUrl)) {
    const error = new CryptoStoreConfigError(
      "baseUrl",
      `baseUrl must be the absolute http(s) URL of the Medusa backend (${BACKEND_VARIABLES_TEXT}), got ${JSON.stringify(baseUrl.slice(0, 80))}`
    )
    report(connection.logger, error.message)
    throw error
  }
  return baseUrl.replace(/\/+$/, "")
}

function requirePublishableKey(connection: StoreConnection): string {
  const key = typeof connection.publishableKey === "string" ? connection.publishableKey.trim() : ""
  if (key === "") {
    const error = new CryptoStoreConfigError(
      "publishableKey",
      `publishableKey is missing: pass the store's publishable API key (pk_...), ${STARTER_PUBLISHABLE_KEY_VARIABLE} in both official starters`
    )
    report(connection.logger, error.message)
    throw error
  }
  return key
}

/** The first system error code along a `fetch` failure's causes (undici wraps it: `TypeError: fetch failed` → `cause.code`). */
function systemCodeOf(error: unknown, depth = 0): string | null {
  if (depth > 4 || typeof error !== "object" || error === null) return null
  const { code, errors, cause } = error as { code?: unknown; errors?: unknown; cause?: unknown }
  if (typeof code === "string" && code !== "") return code
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = systemCodeOf(inner, depth + 1)
      if (found !== null) return found
    }
  }
  return systemCodeOf(cause, depth + 1)
}

function unreachableReason(error: unknown, code: string | null): StoreUnreachableReason {
  const name = typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined
  // AbortSignal.timeout rejects with a DOMException named TimeoutError (AbortError in older runtimes).
  if (name === "TimeoutError" || name === "AbortError") return "timeout"
  if (code === "ECONNREFUSED") return "refused"
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "dns"
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT") return "timeout"
  return "network"
}

const REASON_TEXT: Record<Exclude<StoreUnreachableReason, "timeout">, string> = {
  refused: "the connection was refused (is the backend running on that port?)",
  dns: "the host name did not resolve",
  network: "the request failed before an answer came",
}

/**
 * One store request; no caching (payment state changes by the second). A missing backend URL or key
 * throws `CryptoStoreConfigError` naming the variable to set; a backend that does not answer
 * (refused, unknown host, timeout) throws `CryptoStoreUnreachableError` naming the URL. Both are
 * also logged, because a Next.js server action's message does not reach the browser in production.
 */
export async function storeRequest(connection: StoreConnection, method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
  const baseUrl = requireBaseUrl(connection)
  const publishableKey = requirePublishableKey(connection)
  const doFetch = connection.fetch ?? globalThis.fetch
  const timeoutMs = connection.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
    throw new TypeError("timeoutMs must be a positive integer number of milliseconds")
  }
  const url = `${baseUrl}${path}`
  let response: Response
  try {
    response = await doFetch(url, {
      method,
      cache: "no-store",
      headers: {
        accept: "application/json",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(connection.headers ?? {}),
        "x-publishable-api-key": publishableKey,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(typeof AbortSignal !== "undefined" && typeof AbortSignal.timeout === "function" ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
    })
  } catch (cause) {
    const code = systemCodeOf(cause)
    const reason = unreachableReason(cause, code)
    const shown = displayUrl(baseUrl)
    const route = path.split("?")[0] ?? path
    // A POST that timed out may have been carried out: the caller reads the status before sending it again.
    const detail =
      reason !== "timeout"
        ? REASON_TEXT[reason]
        : `no answer within ${timeoutMs} ms${method === "POST" ? " (the store may still have done it: read the payment status before trying again)" : ""}`
    const error = new CryptoStoreUnreachableError(
      `Could not reach the Medusa backend at ${shown} (${method} ${route}): ${detail}${code !== null ? ` [${code}]` : ""}. ` +
        `Check the backend URL the storefront passes as baseUrl (${BACKEND_VARIABLES_TEXT}) and that the backend is running.`,
      { url: shown, path, reason, code, cause }
    )
    report(connection.logger, error.message)
    throw error
  }
  const raw = await response.text()
  let parsed: unknown = undefined
  if (raw !== "") {
    try {
      parsed = JSON.parse(raw)
    } catch (cause) {
      throw new CryptoStoreError(`${method} ${path} answered ${response.status} with a body that is not JSON`, response.status, path, { cause })
    }
  }
  if (!response.ok) {
    const message =
      typeof parsed === "object" && parsed !== null && typeof (parsed as { message?: unknown }).message === "string"
        ? (parsed as { message: string }).message
        : response.statusText
    throw new CryptoStoreError(`${method} ${path} answered ${response.status}: ${message}`, response.status, path)
  }
  return parsed
}

const AMOUNT_FIELDS = [
  "source_amount",
  "amount",
  "pending_amount",
  "expected_amount",
  "received_amount",
  "overpaid_amount",
  "refund_due_amount",
  "commission_amount",
  "underpaid_amount",
  // Not an amount, but a decimal string all the same: fiat per coin (spec §2.1).
  "source_rate",
] as const

function fail(path: string, field: string, expected: string): never {
  throw new CryptoStoreError(`${path}: ${field} must be ${expected}`, 200, path)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** Checks the payment-status body: the kit relies on these fields, and amounts must be decimal strings. */
export function parsePaymentStatus(body: unknown, path = "/store/crypto/payment-status"): CryptoPaymentStatusResponse {
  if (!isRecord(body)) fail(path, "the body", "an object")
  if (typeof body.cart_id !== "string") fail(path, "cart_id", "a string")
  if (body.order_id !== null && body.order_id !== undefined && typeof body.order_id !== "string") fail(path, "order_id", "a string or null")
  const invoice = body.invoice
  if (invoice !== null && invoice !== undefined) {
    if (!isRecord(invoice)) fail(path, "invoice", "an object or null")
    if (invoice.status !== null && typeof invoice.status !== "string") fail(path, "invoice.status", "a string or null")
    for (const field of AMOUNT_FIELDS) {
      const value = invoice[field]
      if (value !== null && value !== undefined && !isDecimalString(value)) fail(path, `invoice.${field}`, "a decimal string or null")
    }
    const confirmations = invoice.confirmations
    if (confirmations !== null && confirmations !== undefined) {
      if (!isRecord(confirmations) || !Number.isInteger(confirmations.current) || !Number.isInteger(confirmations.required)) {
        fail(path, "invoice.confirmations", "{ current, required } integers or null")
      }
    }
    if (invoice.tx_urls !== null && invoice.tx_urls !== undefined && !Array.isArray(invoice.tx_urls)) {
      fail(path, "invoice.tx_urls", "an array of URLs or null")
    }
  }
  const abandoned = body.abandoned_payments
  if (abandoned !== null && abandoned !== undefined) {
    if (!Array.isArray(abandoned)) fail(path, "abandoned_payments", "an array")
    abandoned.forEach((payment: unknown, index: number) => {
      if (!isRecord(payment) || !isDecimalString(payment.received_amount)) fail(path, `abandoned_payments[${index}].received_amount`, "a decimal string")
      if (!isDecimalString(payment.source_amount)) fail(path, `abandoned_payments[${index}].source_amount`, "a decimal string")
    })
  }
  // Checked above field by field; the remaining fields are display-only.
  return {
    ...(body as unknown as CryptoPaymentStatusResponse),
    order_id: typeof body.order_id === "string" ? body.order_id : null,
    invoice: invoice === null || invoice === undefined ? null : (invoice as unknown as CryptoInvoiceStatus),
  }
}

/** Checks the currencies body. */
export function parseCurrencies(body: unknown, path = "/store/crypto/currencies"): CryptoCurrenciesResponse {
  if (!isRecord(body)) fail(path, "the body", "an object")
  if (typeof body.provider_id !== "string") fail(path, "provider_id", "a string")
  if (!Array.isArray(body.currencies)) fail(path, "currencies", "an array")
  body.currencies.forEach((coin: unknown, index: number) => {
    if (!isRecord(coin) || typeof coin.psys_cid !== "string") fail(path, `currencies[${index}].psys_cid`, "a string")
    if (coin.amount !== null && coin.amount !== undefined && !isDecimalString(coin.amount)) fail(path, `currencies[${index}].amount`, "a decimal string or null")
  })
  const unavailable = body.unavailable
  if (unavailable !== null && unavailable !== undefined) {
    if (!Array.isArray(unavailable)) fail(path, "unavailable", "an array")
    unavailable.forEach((coin: unknown, index: number) => {
      if (!isRecord(coin) || typeof coin.psys_cid !== "string") fail(path, `unavailable[${index}].psys_cid`, "a string")
      if (!isDecimalString(coin.minimum)) fail(path, `unavailable[${index}].minimum`, "a decimal string")
      if (!isDecimalString(coin.minimum_fiat)) fail(path, `unavailable[${index}].minimum_fiat`, "a decimal string")
    })
  }
  // Checked above field by field; the remaining fields are display-only.
  return body as unknown as CryptoCurrenciesResponse
}
