import { MedusaError } from "@medusajs/framework/utils"
import {
  GatewayApiError,
  GatewayAuthenticationError,
  GatewayConnectionError,
  GatewayError,
  GatewayErrorCode,
  GatewayNotFoundError,
  GatewayOutcomeUnknownError,
  GatewayParameterError,
  GatewayResponseError,
  GatewayServerError,
  GatewayTimeoutError,
  redactUrl,
} from "../gateway"

/**
 * THE error translator: a gateway client error → a `MedusaError` whose message says what failed
 * and what to do, with the original error kept as `cause`. Used by the provider, the workflows
 * and the routes. Gateway client messages are already free of the api_key (src/gateway redacts
 * them), so they are safe to repeat.
 */
export function toMedusaError(error: unknown, action: string): MedusaError {
  if (MedusaError.isMedusaError(error)) {
    return error
  }
  const build = (type: string, message: string) => new MedusaError(type, message, undefined, message, { cause: error })

  // An unsure outcome is reported as such, never as a failure that invites a resend.
  if (error instanceof GatewayOutcomeUnknownError) {
    return build(
      MedusaError.Types.UNEXPECTED_STATE,
      `${action}: the crypto gateway did not confirm the request (${error.cause.message}); it may have been executed. It is not sent again: look for it in the operations list first.`
    )
  }
  // The documented rejections in the merchant's words, naming the field.
  if (error instanceof GatewayApiError || error instanceof GatewayParameterError) {
    const explained = explainGatewayRejection(error)
    if (explained !== undefined) {
      return build(explained.type, `${action}: ${explained.message} (field: ${explained.field})`)
    }
  }
  if (error instanceof GatewayTimeoutError) {
    return build(MedusaError.Types.UNEXPECTED_STATE, `${action}: the crypto gateway did not answer in time; try again (nothing is charged twice). ${error.message}`)
  }
  if (error instanceof GatewayConnectionError) {
    return build(MedusaError.Types.UNEXPECTED_STATE, `${action}: the crypto gateway cannot be reached; try again later. ${error.message}`)
  }
  if (error instanceof GatewayAuthenticationError) {
    return build(
      MedusaError.Types.UNEXPECTED_STATE,
      `${action}: the crypto gateway refused the shop key (HTTP ${error.status}); check the provider's apiKey option. ${error.message}`
    )
  }
  if (error instanceof GatewayNotFoundError) {
    return build(MedusaError.Types.NOT_FOUND, `${action}: ${error.message}`)
  }
  if (error instanceof GatewayServerError) {
    return build(MedusaError.Types.UNEXPECTED_STATE, `${action}: the crypto gateway failed; try again later. ${error.message}`)
  }
  if (error instanceof GatewayApiError) {
    return build(MedusaError.Types.INVALID_DATA, `${action}: ${error.message}`)
  }
  if (error instanceof GatewayParameterError) {
    return build(MedusaError.Types.INVALID_DATA, `${action}: ${error.message}`)
  }
  if (error instanceof GatewayResponseError) {
    return build(MedusaError.Types.UNEXPECTED_STATE, `${action}: the crypto gateway sent an answer we cannot rely on. ${error.message}`)
  }
  if (error instanceof GatewayError) {
    return build(MedusaError.Types.UNEXPECTED_STATE, `${action}: ${error.message}`)
  }
  return build(MedusaError.Types.UNEXPECTED_STATE, `${action}: ${failureReason(error)}`)
}

/** What a merchant is told about a gateway rejection: a sentence and the form field it concerns. */
export interface GatewayRejection {
  type: string
  field: string
  message: string
}

/** Gateway attribute names (spec §4.2, §4.5, §4.10, §4.11) → the field names of our admin API. */
const FIELD_OF_ATTRIBUTE: Record<string, string> = {
  to: "address",
  addresses: "address",
  address: "address",
  to_address: "to_address",
  wallet_hash: "address",
  amount: "amount",
  amounts: "amount",
  from_amount: "from_amount",
  to_amount: "to_amount",
  balance: "amount",
  fee: "fee_plan",
  feePlan: "fee_plan",
  currency: "psys_cid",
  psys_cid: "psys_cid",
  from_currency: "from_currency",
  to_currency: "to_currency",
  uid: "uid",
}

const IP_NOT_ALLOWED = /\bIP\b|allow-?list|white-?list/i

/**
 * Explains the rejections a merchant can act on (spec §7): insufficient funds (116), a fee that
 * cannot be estimated (115), the server's IP missing from the shop's allow-list (spec §5.3), an
 * invalid address, an unsupported coin (105), and any other validation error with its attribute.
 * Undefined when nothing more useful than the gateway's own message can be said.
 */
export function explainGatewayRejection(error: GatewayApiError | GatewayParameterError): GatewayRejection | undefined {
  if (error instanceof GatewayParameterError) {
    return { type: MedusaError.Types.INVALID_DATA, field: FIELD_OF_ATTRIBUTE[error.param] ?? error.param, message: error.message }
  }
  const gatewayText = [error.gatewayMessage ?? "", ...Object.values(error.fieldErrors).flat()].join(" ")
  if (error.code === GatewayErrorCode.INSUFFICIENT_FUNDS) {
    return {
      type: MedusaError.Types.NOT_ALLOWED,
      field: "amount",
      message: "insufficient funds on the balance of this coin. The amount, the network fee and the commission are all debited: lower the amount or top up the balance",
    }
  }
  if (error.code === GatewayErrorCode.FEE_NOT_ESTIMABLE) {
    return {
      type: MedusaError.Types.NOT_ALLOWED,
      field: "fee_plan",
      message: "the network fee cannot be estimated. Check that the balance covers the amount plus the fee, or try the other fee plan",
    }
  }
  if (error.status === 403 || IP_NOT_ALLOWED.test(gatewayText) || (error instanceof GatewayNotFoundError && error.gatewayMessage === undefined && error.code === undefined)) {
    return {
      type: MedusaError.Types.NOT_ALLOWED,
      field: "server_ip",
      message: "the gateway refused this server's IP address: add it to the shop's allow-list (\"Request IP\" in the gateway's shop settings), or enable the exchange API there, then try again",
    }
  }
  const attributes = Object.keys(error.fieldErrors)
  const detailOf = (attribute: string) => (error.fieldErrors[attribute] ?? []).join(" ")
  const addressAttribute = attributes.find((name) => FIELD_OF_ATTRIBUTE[name] === "address" || name === "to_address")
  if (addressAttribute !== undefined) {
    return {
      type: MedusaError.Types.INVALID_DATA,
      field: FIELD_OF_ATTRIBUTE[addressAttribute] ?? addressAttribute,
      message: `the address is not valid for this coin: ${detailOf(addressAttribute)}`,
    }
  }
  const coinAttribute = attributes.find((name) => FIELD_OF_ATTRIBUTE[name] === "psys_cid" || name === "from_currency" || name === "to_currency")
  if (error.code === GatewayErrorCode.UNSUPPORTED_CURRENCY && (attributes.length === 0 || coinAttribute !== undefined)) {
    const attribute = coinAttribute ?? "currency"
    return {
      type: MedusaError.Types.INVALID_DATA,
      field: FIELD_OF_ATTRIBUTE[attribute] ?? attribute,
      message: `the gateway does not support this coin for this shop: ${coinAttribute !== undefined ? detailOf(coinAttribute) : (error.gatewayMessage ?? "unsupported currency")}`,
    }
  }
  if (attributes.length > 0) {
    const attribute = attributes[0]
    const field = FIELD_OF_ATTRIBUTE[attribute] ?? attribute
    return { type: MedusaError.Types.INVALID_DATA, field, message: `${field} was refused by the gateway: ${detailOf(attribute)}` }
  }
  return undefined
}

/**
 * A failure as a merchant and a log can read it: its message, and its code when it has one
 * (a gateway code, a Medusa error type, a Node error code), never `[object Object]`. Medusa's
 * workflow engine rethrows a step's error as a plain `{ message, name, code? }` object, so plain
 * objects are read by their fields, not by `String()`. Any `api_key` a message carries is masked
 * (spec §5.1).
 */
export function failureReason(error: unknown): string {
  const record = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : undefined
  const messageOf = (): string => {
    if (typeof error === "string") return error
    if (record !== undefined && typeof record.message === "string" && record.message !== "") return record.message
    if (record !== undefined) {
      try {
        return JSON.stringify(error) ?? "unknown error"
      } catch {
        return "unknown error"
      }
    }
    return String(error)
  }
  const codeOf = (): string | undefined => {
    if (record === undefined) return undefined
    const code = record.code ?? (MedusaError.isMedusaError(error) ? record.type : undefined)
    return typeof code === "string" || typeof code === "number" ? String(code) : undefined
  }
  const message = messageOf()
  const code = codeOf()
  return redactUrl(code === undefined || message.includes(code) ? message : `${message} (code ${code})`)
}
