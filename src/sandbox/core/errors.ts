/**
 * Errors of the emulated gateway, rendered as the spec §7 envelope
 * `{status: "error", data: {name?, message, code}}` by the HTTP layer.
 * Validation messages are JSON-encoded objects mapping an attribute to a list of messages (spec §7).
 */
export class SandboxError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    readonly errorName: string | undefined,
    message: string
  ) {
    super(message)
    this.name = "SandboxError"
  }

  envelope(): { status: "error"; data: { name?: string; message: string; code: number } } {
    const data: { name?: string; message: string; code: number } = { message: this.message, code: this.code }
    if (this.errorName !== undefined) {
      data.name = this.errorName
    }
    return { status: "error", data: { ...data } }
  }
}

/** A response with a status and no body at all (spec §4.11: exchange list → 404, no body). */
export class EmptyResponse extends Error {
  constructor(readonly httpStatus: number) {
    super(`empty ${httpStatus}`)
    this.name = "EmptyResponse"
  }
}

const fieldMessage = (attribute: string, messages: string[]): string => JSON.stringify({ [attribute]: messages })

/** 103: a required attribute is missing (spec §7). HTTP 400 except where §7 lists only 422. */
export function missingAttribute(attribute: string, httpStatus = 400): SandboxError {
  return new SandboxError(
    httpStatus,
    103,
    "Bad Request",
    fieldMessage(attribute, [`Missing required attribute "${attribute}".`])
  )
}

/** 105: an attribute value the gateway does not accept (the sandbox uses it for every invalid value). */
export function invalidAttribute(attribute: string, message: string): SandboxError {
  return new SandboxError(422, 105, "Unprocessable entity", fieldMessage(attribute, [message]))
}

export function unsupportedCurrency(attribute: string, value: string): SandboxError {
  return invalidAttribute(attribute, `Unsupported currency attribute value "${value}".`)
}

export function notFound(): SandboxError {
  return new SandboxError(404, 111, "Not Found", "The specified resource does not exist.")
}

export function feeCannotBeEstimated(): SandboxError {
  return new SandboxError(400, 115, "Bad Request", fieldMessage("fee", ["Fee cannot be estimated, check the balance."]))
}

export function insufficientFunds(): SandboxError {
  return new SandboxError(422, 116, "Unprocessable entity", fieldMessage("balance", ["Insufficient funds on balance."]))
}

export function unauthorized(): SandboxError {
  return new SandboxError(401, 401, "Unauthorized", "Your request was made with invalid credentials.")
}

/** spec §5.2 / §7: deposit operations with an unknown key. */
export function depositShopNotFound(): SandboxError {
  return new SandboxError(401, 401, undefined, "The specified resource does not exist.")
}

export function whiteLabelDisabled(): SandboxError {
  return new SandboxError(400, 400, undefined, "Enable white-label in the shop settings.")
}

/** The sandbox's reading of an unregistered Request IP on a withdrawal (spec §5.3 leaves it open). */
export function ipNotAllowed(ip: string): SandboxError {
  return new SandboxError(
    403,
    403,
    "Forbidden",
    `The IP address ${ip} is not in the shop's Request IP list.`
  )
}

export function internalError(): SandboxError {
  return new SandboxError(500, 108, undefined, "Internal server error, contact support.")
}
