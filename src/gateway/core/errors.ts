/**
 * Errors raised by the gateway client (spec §7).
 *
 * None of these classes keeps a reference to axios' config, request or response: those carry the
 * request URL, and the URL carries the `api_key` (spec §5.1). Every message and every field here is
 * built by the client from values it has already redacted.
 */

/** Error codes the gateway documents (spec §7). Other codes pass through as plain numbers. */
export const GatewayErrorCode = {
  /** A required attribute is missing (invoice: order_number; deposit: uid). */
  MISSING_REQUIRED_ATTRIBUTE: 103,
  /** Unsupported currency attribute value (balance, fee plans). */
  UNSUPPORTED_CURRENCY: 105,
  /** Internal server error of the gateway. */
  INTERNAL_SERVER_ERROR: 108,
  /** The operation (resource) does not exist. */
  NOT_FOUND: 111,
  /** Withdrawal fee cannot be estimated (check the balance). */
  FEE_NOT_ESTIMABLE: 115,
  /** Insufficient funds on balance (withdrawal, fee and commission estimates). */
  INSUFFICIENT_FUNDS: 116,
  /** Deposit operations while white-label processing is disabled for the shop. */
  WHITE_LABEL_DISABLED: 400,
  /** Deposit operations when the shop of the key is not found. */
  SHOP_NOT_FOUND: 401,
} as const

export type KnownGatewayErrorCode = (typeof GatewayErrorCode)[keyof typeof GatewayErrorCode]

/** Base class of every error this client throws. */
export class GatewayError extends Error {
  constructor(message: string) {
    super(message)
    this.name = new.target.name
  }
}

/** A parameter given to the client is invalid; nothing was sent. `param` names it. */
export class GatewayParameterError extends GatewayError {
  readonly param: string

  constructor(param: string, message: string) {
    super(`Invalid parameter ${param}: ${message}`)
    this.param = param
  }
}

/**
 * The gateway answered with a success status but a body the client cannot rely on (not JSON, not
 * the `{status:"success", data}` envelope of spec §1.3, a missing field, a value that is not a
 * decimal...). `field` names the offending field as a path (e.g. `data.operations[2].amount`).
 */
export class GatewayResponseError extends GatewayError {
  readonly field: string | undefined
  readonly status: number | undefined

  constructor(message: string, options: { field?: string; status?: number } = {}) {
    super(message)
    this.field = options.field
    this.status = options.status
  }
}

/** Field errors decoded from a validation message: attribute → messages (spec §7, docs/gateway-readings.md#errors). */
export type GatewayFieldErrors = Record<string, string[]>

/** The body of an error answer, already decoded (spec §7 envelope). */
export interface GatewayErrorBody {
  name?: string | undefined
  message?: string | undefined
  code?: number | undefined
  fieldErrors?: GatewayFieldErrors | undefined
}

/**
 * The gateway answered with an error (an HTTP error status, or `status:"error"` in the envelope).
 *
 * `name` is the gateway's own error name when it sent one (`"Bad Request"`, `"Not Found"`...;
 * spec §7 says it may be absent), else the class name. `code` is the gateway's error code (see
 * {@link GatewayErrorCode}); unknown codes are kept as they are.
 */
export class GatewayApiError extends GatewayError {
  readonly status: number
  readonly code: number | undefined
  readonly fieldErrors: GatewayFieldErrors
  /** The gateway's message as sent (decoded, but not re-worded). */
  readonly gatewayMessage: string | undefined

  constructor(status: number, body: GatewayErrorBody, message?: string) {
    super(message ?? GatewayApiError.describe(status, body))
    this.status = status
    this.code = body.code
    this.fieldErrors = body.fieldErrors ?? {}
    this.gatewayMessage = body.message
    if (body.name !== undefined && body.name !== "") {
      this.name = body.name
    }
  }

  /**
   * The one factory: picks the subclass from the HTTP status. Unknown statuses (including a 2xx
   * that carries `status:"error"`) give the base class.
   */
  static from(status: number, body: GatewayErrorBody, message?: string): GatewayApiError {
    if (status === 400) return new GatewayBadRequestError(status, body, message)
    if (status === 401) return new GatewayAuthenticationError(status, body, message)
    if (status === 404) return new GatewayNotFoundError(status, body, message)
    if (status === 422) return new GatewayUnprocessableEntityError(status, body, message)
    if (status >= 500 && status <= 599) return new GatewayServerError(status, body, message)
    return new GatewayApiError(status, body, message)
  }

  private static describe(status: number, body: GatewayErrorBody): string {
    const code = body.code === undefined ? "" : ` (code ${body.code})`
    const fields = Object.entries(body.fieldErrors ?? {})
    const text =
      fields.length > 0
        ? fields.map(([field, messages]) => `${field}: ${messages.join(" ")}`).join("; ")
        : body.message ?? "no error message"
    return `Gateway answered HTTP ${status}${code}: ${text}`
  }
}

/** HTTP 400: a missing attribute (code 103), fee not estimable (115), white-label disabled (400). */
export class GatewayBadRequestError extends GatewayApiError {}
/** HTTP 401: missing or wrong api_key (spec §5.4), or deposit shop not found (code 401). */
export class GatewayAuthenticationError extends GatewayApiError {}
/** HTTP 404: operation or exchange not found (code 111), or the exchange API is disabled. */
export class GatewayNotFoundError extends GatewayApiError {}
/** HTTP 422: validation error (see `fieldErrors`), unsupported currency (105), funds (116). */
export class GatewayUnprocessableEntityError extends GatewayApiError {}
/** HTTP 5xx: gateway failure (code 108). Retried for calls that are safe to repeat. */
export class GatewayServerError extends GatewayApiError {}

/**
 * The request did not get an HTTP answer (connection refused, reset, DNS failure...).
 * `code` is the system error code (`ECONNREFUSED`...) when known.
 */
export class GatewayConnectionError extends GatewayError {
  readonly code: string | undefined

  constructor(message: string, code?: string) {
    super(message)
    this.code = code
  }
}

/** No answer within `timeoutMs`. */
export class GatewayTimeoutError extends GatewayConnectionError {
  readonly timeoutMs: number

  constructor(message: string, timeoutMs: number, code?: string) {
    super(message, code)
    this.timeoutMs = timeoutMs
  }
}

/**
 * A call that is not safe to repeat (`operations.withdraw`, `exchanges.create`) failed in transport
 * after the request may have reached the gateway: it may or may not have been executed. The client
 * does not retry it. `operation` names the call, `params` what was asked (without the api_key), so
 * the merchant can look for it (operations list / exchange status) before trying again.
 */
export class GatewayOutcomeUnknownError extends GatewayError {
  readonly outcomeUnknown = true as const
  readonly operation: string
  readonly params: Readonly<Record<string, string>>
  /** The transport failure (a {@link GatewayTimeoutError} or {@link GatewayConnectionError}). */
  override readonly cause: GatewayConnectionError

  constructor(
    operation: string,
    params: Readonly<Record<string, string>>,
    cause: GatewayConnectionError,
    howToCheck: string
  ) {
    super(
      `${operation}: outcome unknown (${cause.message}). The gateway may have executed it; ` +
        `it was not retried. ${howToCheck} before retrying.`
    )
    this.operation = operation
    this.params = params
    this.cause = cause
  }
}
