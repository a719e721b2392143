import { isDecimalString } from "../lib/amount.js"
import type { CryptoCurrenciesResponse, CryptoInvoiceStatus, CryptoPaymentStatusResponse } from "../types.js"

/** How the helpers reach the Medusa store API: plain `fetch`, nothing else. */
export interface StoreConnection {
  /** The Medusa backend, e.g. process.env.MEDUSA_BACKEND_URL ("http://localhost:9000"). */
  baseUrl: string
  /** The store's publishable API key (`x-publishable-api-key`). */
  publishableKey: string
  /** A `fetch` to use instead of the global one (tests, instrumentation). */
  fetch?: typeof fetch
  /** Extra headers, e.g. the shopper's `authorization` from the starter's `getAuthHeaders()`. */
  headers?: Record<string, string>
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

/** One store request; no caching (payment state changes by the second). */
export async function storeRequest(connection: StoreConnection, method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
  if (typeof connection.baseUrl !== "string" || !/^https?:\/\//i.test(connection.baseUrl)) {
    throw new TypeError('baseUrl must be the Medusa backend URL, e.g. "http://localhost:9000"')
  }
  if (typeof connection.publishableKey !== "string" || connection.publishableKey.trim() === "") {
    throw new TypeError("publishableKey is required: the store's publishable API key (pk_...)")
  }
  const doFetch = connection.fetch ?? globalThis.fetch
  const url = `${connection.baseUrl.replace(/\/+$/, "")}${path}`
  let response: Response
  try {
    response = await doFetch(url, {
      method,
      cache: "no-store",
      headers: {
        accept: "application/json",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(connection.headers ?? {}),
        "x-publishable-api-key": connection.publishableKey,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
  } catch (cause) {
    throw new CryptoStoreError(`${method} ${path} failed before an answer came`, null, path, { cause })
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
