/**
 * The HTTP transport: one axios instance per client. It returns the status and the raw body text
 * (`responseType: "text"` and an identity `transformResponse`, so axios never runs `JSON.parse` on
 * money), and turns every transport failure into a GatewayConnectionError / GatewayTimeoutError
 * built from scratch: axios' own errors carry the request URL, hence the api_key, in `config`.
 */
import axios, { type AxiosAdapter, type AxiosInstance } from "axios"
import { GatewayConnectionError, GatewayResponseError, GatewayTimeoutError } from "../core/errors"
import { redactSecret } from "./redact"

export interface TransportResponse {
  status: number
  body: string
  contentType: string | undefined
}

export interface HttpTransportOptions {
  timeoutMs: number
  /** The secret to scrub from any text taken from a failure. */
  apiKey: string
  /** An axios adapter replacing the network (tests). */
  adapter?: AxiosAdapter | undefined
}

/** Error codes meaning the request never reached the gateway: safe to report as "not executed". */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ERR_INVALID_URL"])

/** True when the failure proves the gateway never received the request. */
export function wasNotSent(error: GatewayConnectionError): boolean {
  return !(error instanceof GatewayTimeoutError) && error.code !== undefined && NOT_SENT_CODES.has(error.code)
}

export class HttpTransport {
  private readonly axios: AxiosInstance
  private readonly timeoutMs: number
  private readonly apiKey: string

  constructor(options: HttpTransportOptions) {
    this.timeoutMs = options.timeoutMs
    this.apiKey = options.apiKey
    this.axios = axios.create({
      timeout: options.timeoutMs,
      responseType: "text",
      transformResponse: [(data: unknown) => data],
      // Every status is an answer to decode (spec §7), not an axios error carrying the URL.
      validateStatus: () => true,
      // A redirect (e.g. redirect_to_invoice) is not a JSON answer; never follow one with the key.
      maxRedirects: 0,
      maxContentLength: 16 * 1024 * 1024,
      transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: false },
      headers: { Accept: "application/json" },
      ...(options.adapter ? { adapter: options.adapter } : {}),
    })
  }

  /** GET `url`. `label` (method and path, no query) names the request in failure messages. */
  async get(url: string, label: string): Promise<TransportResponse> {
    let response
    try {
      response = await this.axios.get<unknown>(url)
    } catch (error: unknown) {
      throw this.toTransportError(error, label)
    }
    const contentType = response.headers["content-type"]
    return {
      status: response.status,
      body: bodyText(response.data),
      contentType: typeof contentType === "string" ? contentType : undefined,
    }
  }

  private toTransportError(error: unknown, label: string): GatewayConnectionError {
    const code = errorCode(error)
    const reason = redactSecret(error instanceof Error ? error.message : String(error), this.apiKey)
    if (code === "ETIMEDOUT" || code === "ECONNABORTED") {
      return new GatewayTimeoutError(`${label}: no answer within ${this.timeoutMs} ms`, this.timeoutMs, code)
    }
    return new GatewayConnectionError(`${label} failed: ${reason}`, code)
  }
}

function errorCode(error: unknown): string | undefined {
  if (axios.isAxiosError(error)) {
    if (typeof error.code === "string") return error.code
    const cause: unknown = error.cause
    if (cause instanceof Error && "code" in cause && typeof cause.code === "string") return cause.code
    return undefined
  }
  if (error instanceof Error && "code" in error && typeof error.code === "string") return error.code
  return undefined
}

function bodyText(data: unknown): string {
  if (typeof data === "string") return data
  if (data === undefined || data === null) return ""
  if (Buffer.isBuffer(data)) return data.toString("utf8")
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8")
  // An injected adapter that hands back parsed data has already lost the number lexemes.
  throw new GatewayResponseError("the HTTP adapter returned a parsed body; it must return the body text")
}
