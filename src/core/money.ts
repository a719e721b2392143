import type { BigNumberInput } from "@medusajs/framework/types"
import { MathBN, MedusaError } from "@medusajs/framework/utils"
import { Decimal } from "decimal.js"
import { isDecimalString } from "../gateway"

/**
 * The Medusa side's one money module. Amounts are `decimal.js` values inside and decimal strings
 * at every edge (the gateway, our tables, JSON responses); a float never carries money.
 */

/**
 * THE exact decimal. decimal.js rounds arithmetic to `precision` significant digits (20 by
 * default), which would round 123456789.123456789012 − 1. 200 digits hold every sum, difference
 * and product of amounts the gateway or Medusa sends without rounding, and leave a quotient
 * 190 digits of room before its rounding to the coin's places (named at each call).
 */
export const ExactDecimal = Decimal.clone({ precision: 200 })

export const exact = (value: Decimal.Value): Decimal => new ExactDecimal(value)

/** How a conversion rounds to the target's places; each caller names it (see the functions below). */
export type Rounding = "down" | "up"

const ROUNDING: Record<Rounding, Decimal.Rounding> = { down: Decimal.ROUND_DOWN, up: Decimal.ROUND_UP }

/** Decimal places of a coin when the gateway gives none (spec §2.4: `precision` is a string). */
export const DEFAULT_COIN_PLACES = 8

/** A coin's decimal places from the gateway's `precision` string (spec §2.4), else 8. */
export function coinPlaces(precision: string | null | undefined): number {
  return precision !== null && precision !== undefined && /^\d{1,2}$/.test(precision) ? Number.parseInt(precision, 10) : DEFAULT_COIN_PLACES
}

/**
 * A fiat amount in a coin at `rate` (fiat per one coin, spec §2.4 `fiat_rate`), rounded to the
 * coin's `places` the way the caller names: refunds `"down"` (never send more than the refund is
 * worth), prices `"up"` (the figure shown is never below what the invoice will ask).
 */
export function fiatToCoin(fiatAmount: Decimal.Value, rate: Decimal.Value, places: number, rounding: Rounding): Decimal {
  return exact(fiatAmount).dividedBy(rate).toDecimalPlaces(places, ROUNDING[rounding])
}

/** A coin amount in fiat at `rate`, rounded to cents the way the caller names (balances: `"down"`). */
export function coinToFiat(coinAmount: Decimal.Value, rate: Decimal.Value, rounding: Rounding, places = 2): Decimal {
  return exact(coinAmount).times(rate).toDecimalPlaces(places, ROUNDING[rounding])
}

/** The exact sum of decimal amounts. */
export function sumAmounts(amounts: Iterable<Decimal.Value>): Decimal {
  let total = exact(0)
  for (const amount of amounts) total = total.plus(amount)
  return total
}

function medusaAmountText(amount: BigNumberInput, field: string): string {
  let text: string
  try {
    text = MathBN.convert(amount).toFixed()
  } catch (error) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `${field} is not a number`, undefined, `${field} is not a number`, { cause: error })
  }
  return text
}

/**
 * A Medusa amount (major units: a number, a string, a BigNumber or its raw `{ value, precision }`)
 * → the exact decimal string the gateway gets (`source_amount`) and our tables store.
 * `MathBN.convert` keeps every digit of a string or raw value; `toFixed()` without arguments never
 * rounds or uses an exponent. `.numeric` (a float) is never used. Refuses zero and negatives.
 */
export function sessionAmountToDecimalString(amount: BigNumberInput, field = "amount"): string {
  const text = medusaAmountText(amount, field)
  if (!isDecimalString(text) || /^0+(\.0+)?$/.test(text)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `${field} must be a positive amount, got ${text}`)
  }
  return text
}

/**
 * A stored Medusa amount (a payment's, a capture's, a refund's: raw `{ value, precision }`, else
 * the amount) as an exact decimal string; absent is "0". Refuses anything that is not a plain
 * non-negative decimal, naming the field.
 */
export function storedAmountToDecimalString(raw: unknown, fallback: unknown, field: string): string {
  const value = raw ?? fallback
  if (value === null || value === undefined) return "0"
  const text = medusaAmountText(value as BigNumberInput, field)
  if (!isDecimalString(text)) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${field} is not a non-negative amount: ${text}`)
  }
  return text
}

/** A value made JSON-safe: every `Decimal` becomes its exact decimal string, never a float; text stays text (`string & {}` too). */
export type Wire<T> = T extends Decimal | Date
  ? string
  : T extends string
    ? T
    : T extends Array<infer U>
      ? Array<Wire<U>>
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T

/** For responses: `Decimal` → decimal string, `Date` → ISO string, recursively. */
export function toWire<T>(value: T): Wire<T> {
  return convert(value) as Wire<T>
}

function convert(value: unknown): unknown {
  if (Decimal.isDecimal(value)) return value.toFixed()
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map(convert)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, convert(item)]))
  }
  return value
}

/**
 * What is wrong with an amount an admin asks to move, or null: it must be a plain positive decimal
 * (digits, an optional dot and digits; no sign, exponent or spaces) with at most `places` decimal
 * places in `unit` (a coin's spec §2.4 `precision`, read by `coinPlaces`; a fiat's decimal digits).
 * Trailing zeros do not count ("0.10" has one place). The one rule every money-out amount passes
 * before the gateway is called (docs/money-out.md#amounts); callers prefix the field's name.
 */
export function amountProblem(value: string, places: number, unit: string): string | null {
  if (!/^\d+(\.\d+)?$/.test(value)) return `must be a plain decimal such as "0.015" (digits, an optional dot and digits; no sign, exponent or spaces)`
  if (!/[1-9]/.test(value)) return "must be greater than 0"
  if (exact(value).decimalPlaces() > places) return `at most ${places} decimal places for ${unit}`
  return null
}

/**
 * The decimal places of a fiat currency (ISO 4217 minor units: JPY 0, EUR 2, KWD 3), from the
 * runtime's ICU data (`Intl.NumberFormat`, the same table Medusa's currency module seeds its
 * `decimal_digits` from). The one place the plugin reads them. An unknown code is refused, naming it.
 */
export function fiatMinorUnits(currencyCode: string): number {
  const code = currencyCode.trim().toUpperCase()
  if (!/^[A-Z]{3}$/.test(code)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `currency_code must be an ISO 4217 code such as "EUR", got "${currencyCode}"`)
  }
  const places = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits
  return typeof places === "number" ? places : 2
}

/**
 * A fiat amount rounded half-up to its currency's minor units (EUR 25.0699 → 25.07, JPY 1734.5 →
 * 1735, KWD 13.8455 → 13.846): what the gateway is sent as `source_amount` (spec §4.1), which
 * refuses more decimals than the currency has. Medusa keeps, authorizes and captures the exact total.
 * A display figure that must not fall below a threshold names `"up"`.
 */
export function fiatToMinorUnits(amount: Decimal.Value, currencyCode: string, rounding: "half-up" | Rounding = "half-up"): Decimal {
  return exact(amount).toDecimalPlaces(fiatMinorUnits(currencyCode), rounding === "half-up" ? Decimal.ROUND_HALF_UP : ROUNDING[rounding])
}

/**
 * The gateway's commission a shopper pays on an invoice: its `invoice_total_sum` minus its `amount`
 * (spec §2.1, §4.1) when that is above zero, as a decimal string in the invoice's coin; null when
 * the shop pays it (the two are equal) or either is unknown. Kept in the session data once, so every
 * reader shows the same figure (docs/storefront.md).
 */
export function shopperCommission(amount: Decimal.Value | null | undefined, total: Decimal.Value | null | undefined): string | null {
  if (amount === null || amount === undefined || total === null || total === undefined) return null
  const commission = exact(total).minus(exact(amount))
  return commission.gt(0) ? commission.toFixed() : null
}
