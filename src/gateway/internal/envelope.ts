/**
 * Decoding of gateway answers: the success envelope (spec §1.3) and the error envelope (spec §1.4,
 * §7), including the JSON-encoded field errors of validation messages
 * (docs/gateway-readings.md#errors).
 */
import {
  GatewayApiError,
  type GatewayErrorBody,
  type GatewayFieldErrors,
  GatewayResponseError,
} from "../core/errors"
import { isJsonObject, isLosslessNumber, parseLosslessJson } from "./json"

export interface Answer {
  status: number
  body: string
  contentType: string | undefined
}

/** Extra words for an error answer without a usable body (e.g. spec §4.11 exchange list 404). */
export type EmptyBodyHints = Partial<Record<number, string>>

/**
 * The `data` of a 2xx answer. A body that is not JSON, not the envelope, or `status:"error"`
 * (an error inside a 2xx) throws.
 */
export function unwrapSuccess(answer: Answer): unknown {
  let parsed: unknown
  try {
    parsed = parseLosslessJson(answer.body)
  } catch {
    throw new GatewayResponseError(
      `Gateway answered HTTP ${answer.status} with a body that is not JSON (${describeBody(answer)})`,
      { status: answer.status }
    )
  }
  if (!isJsonObject(parsed) || typeof parsed.status !== "string") {
    throw new GatewayResponseError(
      `Gateway answered HTTP ${answer.status} without the {status, data} envelope`,
      { status: answer.status, field: "status" }
    )
  }
  if (parsed.status === "error") {
    throw GatewayApiError.from(answer.status, decodeErrorData(parsed.data))
  }
  if (parsed.status !== "success") {
    throw new GatewayResponseError(
      `Gateway answered HTTP ${answer.status} with envelope status ${JSON.stringify(parsed.status)}`,
      { status: answer.status, field: "status" }
    )
  }
  if (!("data" in parsed)) {
    throw new GatewayResponseError(`Gateway answered HTTP ${answer.status} with a success envelope without data`, {
      status: answer.status,
      field: "data",
    })
  }
  return parsed.data
}

/** The error for a non-2xx answer. Never throws itself: any body gives a GatewayApiError. */
export function errorFromAnswer(answer: Answer, hints: EmptyBodyHints = {}): GatewayApiError {
  const hint = hints[answer.status]
  if (answer.body.trim() === "") {
    return GatewayApiError.from(
      answer.status,
      {},
      `Gateway answered HTTP ${answer.status} with an empty body${hint ? ` (${hint})` : ""}`
    )
  }
  let parsed: unknown
  try {
    parsed = parseLosslessJson(answer.body)
  } catch {
    return GatewayApiError.from(
      answer.status,
      {},
      `Gateway answered HTTP ${answer.status} with a body that is not JSON (${describeBody(answer)})${hint ? `; ${hint}` : ""}`
    )
  }
  if (isJsonObject(parsed) && parsed.status === "error" && isJsonObject(parsed.data)) {
    return GatewayApiError.from(answer.status, decodeErrorData(parsed.data))
  }
  // Some frameworks answer errors without the envelope: {name, message, code, status}.
  if (isJsonObject(parsed) && ("message" in parsed || "code" in parsed)) {
    return GatewayApiError.from(answer.status, decodeErrorData(parsed))
  }
  return GatewayApiError.from(
    answer.status,
    {},
    `Gateway answered HTTP ${answer.status} with an unexpected JSON body${hint ? ` (${hint})` : ""}`
  )
}

/** `{name?, message, code}` → the error body, with field errors decoded from the message. */
export function decodeErrorData(data: unknown): GatewayErrorBody {
  if (!isJsonObject(data)) return { message: "error envelope without data" }
  const body: GatewayErrorBody = {}
  if (typeof data.name === "string") body.name = data.name
  body.code = decodeCode(data.code)
  if (typeof data.message === "string") {
    body.message = data.message
    body.fieldErrors = decodeFieldErrors(data.message)
  } else if (data.message !== undefined && data.message !== null) {
    body.fieldErrors = normalizeFieldErrors(data.message)
    body.message = JSON.stringify(body.fieldErrors)
  }
  return body
}

function decodeCode(code: unknown): number | undefined {
  const text = isLosslessNumber(code) ? code.value : typeof code === "string" ? code : undefined
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined
  const value = Number(text)
  return Number.isSafeInteger(value) ? value : undefined
}

/**
 * spec §7: "for validation errors it holds a JSON-encoded object mapping attribute names to
 * messages". A message that is not such an object gives no field errors.
 */
export function decodeFieldErrors(message: string): GatewayFieldErrors {
  const trimmed = message.trim()
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return {}
  let decoded: unknown
  try {
    decoded = parseLosslessJson(trimmed)
  } catch {
    return {}
  }
  return normalizeFieldErrors(decoded)
}

/**
 * attribute → message | messages, or a list of `{field, message}` → attribute → messages.
 */
function normalizeFieldErrors(decoded: unknown): GatewayFieldErrors {
  const out: GatewayFieldErrors = {}
  const add = (field: string, messages: unknown): void => {
    const list = Array.isArray(messages) ? messages : [messages]
    const texts = list.map(messageText).filter((text): text is string => text !== undefined)
    if (texts.length === 0) return
    const existing = Object.prototype.hasOwnProperty.call(out, field) ? out[field] : undefined
    Object.defineProperty(out, field, {
      value: [...(existing ?? []), ...texts],
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  if (Array.isArray(decoded)) {
    for (const item of decoded) {
      if (isJsonObject(item) && typeof item.field === "string") add(item.field, item.message)
    }
  } else if (isJsonObject(decoded)) {
    for (const [field, messages] of Object.entries(decoded)) add(field, messages)
  }
  return out
}

function messageText(value: unknown): string | undefined {
  if (typeof value === "string") return value
  if (isLosslessNumber(value)) return value.value
  return undefined
}

function describeBody(answer: Answer): string {
  const type = answer.contentType ? `${answer.contentType}, ` : ""
  return `${type}${Buffer.byteLength(answer.body, "utf8")} bytes`
}
