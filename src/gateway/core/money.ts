/**
 * Money helpers. Every amount, rate, fee, commission and balance is a decimal.js `Decimal` inside
 * the client and a plain decimal string on the wire; a JS number never holds money (a float cannot
 * hold 0.1 or 123456789.123456789012 exactly).
 */
import Decimal from "decimal.js"
import { GatewayParameterError } from "./errors"

export { Decimal }

/** What the client accepts for a money parameter: a `Decimal`, or a plain decimal string. */
export type MoneyInput = Decimal | string

/** A plain non-negative decimal as the client sends it: digits, an optional fraction. */
const PLAIN_DECIMAL = /^\d+(\.\d+)?$/

/**
 * Any finite decimal lexeme as the gateway may send it, as a string or as a JSON number: an optional
 * sign, digits with an optional fraction, an optional exponent (`1e-8` is a valid JSON number).
 */
const RECEIVED_DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/

/** True when `value` is a plain non-negative decimal string: no sign, exponent, spaces or NaN. */
export function isDecimalString(value: string): boolean {
  return PLAIN_DECIMAL.test(value)
}

/** True when `value` is a finite decimal lexeme the gateway may send (exponent allowed). */
export function isReceivedDecimal(value: string): boolean {
  return RECEIVED_DECIMAL.test(value)
}

/**
 * Builds an exact `Decimal` from a decimal string (`isReceivedDecimal`) or a `Decimal`.
 * Construction in decimal.js is exact (precision applies only to arithmetic results).
 * Throws a `GatewayParameterError` naming `field` for anything else; a JS number is refused on
 * purpose.
 */
export function toDecimal(value: Decimal | string, field = "value"): Decimal {
  if (Decimal.isDecimal(value)) {
    if (!value.isFinite()) throw new GatewayParameterError(field, "must be a finite decimal")
    return value
  }
  if (typeof value !== "string" || !isReceivedDecimal(value)) {
    throw new GatewayParameterError(field, `must be a decimal string, got ${describe(value)}`)
  }
  return new Decimal(value)
}

/**
 * Serializes a money parameter for the wire: a plain, non-negative decimal string with every digit
 * (no exponent: `Decimal.toFixed()` without arguments never rounds). Throws a
 * `GatewayParameterError` naming `field` for a number, a negative or non-finite value, or a string
 * that is not a plain decimal.
 */
export function decimalParam(value: MoneyInput, field = "amount"): string {
  if (Decimal.isDecimal(value)) {
    if (!value.isFinite() || value.isNegative()) {
      throw new GatewayParameterError(field, `must be a finite, non-negative decimal, got ${value.toString()}`)
    }
    return value.toFixed()
  }
  if (typeof value !== "string") {
    throw new GatewayParameterError(field, `must be a Decimal or a decimal string (never a JS number), got ${describe(value)}`)
  }
  if (!isDecimalString(value)) {
    throw new GatewayParameterError(
      field,
      `must be a plain decimal string like "12.50" (no sign, exponent or spaces), got ${JSON.stringify(value)}`
    )
  }
  return value
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value)
  if (value === null) return "null"
  return typeof value
}
