import Decimal from "decimal.js"

/**
 * The sandbox's one decimal type: 60 significant digits, so a product of two seed rates or a
 * division before rounding never loses a digit that matters; every rounding is explicit below.
 */
export const Dec = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -60, toExpPos: 60 })
export type Dec = Decimal

const DECIMAL_TEXT = /^\d{1,30}(?:\.\d{1,30})?$/

/** Parses a non-negative decimal written in plain notation ("12", "0.00000001"); null otherwise. */
export function parseDecimal(text: string): Dec | null {
  const trimmed = text.trim()
  if (!DECIMAL_TEXT.test(trimmed)) {
    return null
  }
  return new Dec(trimmed)
}

/** Plain-notation decimal string, trailing zeros removed ("1.50" → "1.5"). */
export function str(value: Dec): string {
  return value.toFixed()
}

/** Crypto amounts the merchant receives are rounded UP to the coin precision: never short. */
export function roundUp(value: Dec, precision: number): Dec {
  return value.toDecimalPlaces(precision, Decimal.ROUND_UP)
}

export function roundHalfUp(value: Dec, precision: number): Dec {
  return value.toDecimalPlaces(precision, Decimal.ROUND_HALF_UP)
}

export function roundDown(value: Dec, precision: number): Dec {
  return value.toDecimalPlaces(precision, Decimal.ROUND_DOWN)
}

export function sum(values: readonly (Dec | string)[]): Dec {
  return values.reduce((acc: Dec, v) => acc.plus(v), new Dec(0))
}
