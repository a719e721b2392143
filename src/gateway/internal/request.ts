/**
 * The request pipeline every resource method goes through: build the URL (api_key last, spec §5.1),
 * GET it, log it redacted, decode the answer, retry what is safe to retry (see README, "Retries").
 */
import {
  GatewayConnectionError,
  GatewayError,
  GatewayOutcomeUnknownError,
  GatewayResponseError,
} from "../core/errors"
import { type EmptyBodyHints, errorFromAnswer, unwrapSuccess } from "./envelope"
import { type HttpTransport, wasNotSent } from "./http"
import { buildQuery, type QueryParams } from "./query"
import { redactSecret, redactUrl } from "./redact"
import { backoffDelay, isRetryable, type ResolvedRetryOptions } from "./retry"

/** A logger such as `console` or Medusa's logger: every method optional, each takes one line. */
export interface GatewayLogger {
  debug?(message: string): void
  info?(message: string): void
  warn?(message: string): void
  error?(message: string): void
}

/** How a call may be repeated after a transport failure or a 5xx. */
export type RetryMode =
  /** Safe to repeat: retried up to maxRetries. */
  | { kind: "retry" }
  /**
   * Not safe to repeat: one attempt; a timeout or a failure after the request may have been sent
   * becomes a GatewayOutcomeUnknownError telling how to check.
   */
  | { kind: "once"; howToCheck: string }

export interface RequestSpec<T> {
  /** The public method, e.g. `operations.withdraw` (named in errors and logs). */
  operation: string
  /** Path below /api/v1, segments already encoded. */
  path: string
  query: QueryParams
  retry: RetryMode
  parse: (data: unknown) => T
  emptyBodyHints?: EmptyBodyHints
}

export interface RequesterConfig {
  apiKey: string
  /** `{baseUrl}/api/v1`, without a trailing slash. */
  apiRoot: string
  maxRetries: number
  transport: HttpTransport
  logger: GatewayLogger | undefined
  retry: ResolvedRetryOptions
  now: () => number
}

export class Requester {
  constructor(private readonly config: RequesterConfig) {}

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const maxRetries = spec.retry.kind === "retry" ? this.config.maxRetries : 0
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.attempt(spec)
      } catch (error: unknown) {
        if (attempt < maxRetries && isRetryable(error)) {
          const delay = backoffDelay(attempt, this.config.retry)
          this.log("warn", `${spec.operation}: ${describe(error)}; retry ${attempt + 1} of ${maxRetries} in ${delay} ms`)
          await this.config.retry.sleep(delay)
          continue
        }
        throw this.finalError(spec, error)
      }
    }
  }

  private async attempt<T>(spec: RequestSpec<T>): Promise<T> {
    const query = buildQuery({ ...spec.query, api_key: this.config.apiKey })
    const url = `${this.config.apiRoot}${spec.path}?${query}`
    const label = `GET /api/v1${spec.path}`
    const started = this.config.now()
    let answer
    try {
      answer = await this.config.transport.get(url, label)
    } catch (error: unknown) {
      this.log("debug", `GET ${redactUrl(url)} -> ${describe(error)} after ${this.config.now() - started} ms`)
      throw error
    }
    this.log("debug", `GET ${redactUrl(url)} -> ${answer.status} in ${this.config.now() - started} ms`)
    if (answer.status >= 200 && answer.status <= 299) {
      return spec.parse(unwrapSuccess(answer))
    }
    // An error body may echo the request; it never leaves the client with the key in it.
    const body = redactSecret(answer.body, this.config.apiKey)
    throw errorFromAnswer({ ...answer, body }, spec.emptyBodyHints)
  }

  private finalError(spec: RequestSpec<unknown>, error: unknown): unknown {
    if (spec.retry.kind === "once" && error instanceof GatewayConnectionError && !wasNotSent(error)) {
      return new GatewayOutcomeUnknownError(spec.operation, paramsForCheck(spec.query), error, spec.retry.howToCheck)
    }
    if (error instanceof GatewayError) return error
    // A bug in a parser or adapter: still never let a foreign error (maybe holding the URL) out raw.
    const message = error instanceof Error ? error.message : String(error)
    return new GatewayResponseError(`${spec.operation}: ${redactSecret(message, this.config.apiKey)}`)
  }

  private log(level: keyof GatewayLogger, message: string): void {
    const logger = this.config.logger
    const write = logger?.[level]
    if (typeof write === "function") write.call(logger, redactSecret(message, this.config.apiKey))
  }
}

function describe(error: unknown): string {
  if (error instanceof GatewayConnectionError) return error.code ?? error.constructor.name
  if (error instanceof GatewayError) return error.message
  return "error"
}

function paramsForCheck(query: QueryParams): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(query)) if (value !== undefined) out[key] = value
  return out
}
