/**
 * The gateway client: one object per shop key, with one property per resource (spec §4).
 *
 *   const gateway = new GatewayClient({ apiKey, baseUrl: "https://gateway.example" })
 *   const invoice = await gateway.invoices.create({ order_name: "Order 1", order_number: "1", amount: "0.01", currency: "BTC" })
 */
import type { AxiosAdapter } from "axios"
import { GatewayParameterError } from "./core/errors"
import { HttpTransport } from "./internal/http"
import { type GatewayLogger, Requester } from "./internal/request"
import { resolveRetryOptions, type RetryOptions } from "./internal/retry"
import { Balances } from "./resources/balances"
import { Currencies } from "./resources/currencies"
import { Deposits } from "./resources/deposits"
import { Exchanges } from "./resources/exchanges"
import { Invoices } from "./resources/invoices"
import { Operations } from "./resources/operations"

export type { GatewayLogger } from "./internal/request"
export type { RetryOptions } from "./internal/retry"

export interface GatewayClientOptions {
  /** The shop's secret key (spec §5.1). Sent as `api_key` in every query; never logged. */
  apiKey: string
  /** The gateway's base address; requests go to `{baseUrl}/api/v1/...`. */
  baseUrl: string
  /** Per-attempt timeout in ms (default 30000). */
  timeoutMs?: number
  /** Retries after the first attempt, for calls safe to repeat (default 2). */
  maxRetries?: number
  /** Receives one debug line per attempt (redacted URL, status, latency) and a warn per retry. */
  logger?: GatewayLogger
  /** An axios adapter replacing the network (for tests). */
  httpAdapter?: AxiosAdapter
  /** Backoff tuning and injectable `random`/`sleep` (for tests). */
  retry?: RetryOptions
}

export const DEFAULT_TIMEOUT_MS = 30_000
export const DEFAULT_MAX_RETRIES = 2

export class GatewayClient {
  readonly invoices: Invoices
  readonly operations: Operations
  readonly currencies: Currencies
  readonly balances: Balances
  readonly deposits: Deposits
  readonly exchanges: Exchanges

  constructor(options: GatewayClientOptions) {
    const apiKey = checkApiKey(options.apiKey)
    const apiRoot = `${checkBaseUrl(options.baseUrl)}/api/v1`
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
      throw new GatewayParameterError("timeoutMs", "must be a positive integer number of milliseconds")
    }
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES
    if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) {
      throw new GatewayParameterError("maxRetries", "must be a non-negative integer")
    }
    const requester = new Requester({
      apiKey,
      apiRoot,
      maxRetries,
      transport: new HttpTransport({ timeoutMs, apiKey, adapter: options.httpAdapter }),
      logger: options.logger,
      retry: resolveRetryOptions(options.retry),
      now: () => Date.now(),
    })
    this.invoices = new Invoices(requester)
    this.operations = new Operations(requester)
    this.currencies = new Currencies(requester)
    this.balances = new Balances(requester)
    this.deposits = new Deposits(requester)
    this.exchanges = new Exchanges(requester)
  }
}

function checkApiKey(apiKey: unknown): string {
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    throw new GatewayParameterError("apiKey", "must be a non-empty string")
  }
  return apiKey
}

function checkBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== "string") throw new GatewayParameterError("baseUrl", "must be a string URL")
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new GatewayParameterError("baseUrl", `is not a valid URL: ${JSON.stringify(baseUrl)}`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new GatewayParameterError("baseUrl", "must be an http(s) URL")
  }
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new GatewayParameterError("baseUrl", "must not hold a query, a fragment or credentials")
  }
  return baseUrl.replace(/\/+$/, "")
}
