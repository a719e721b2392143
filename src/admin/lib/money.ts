import Decimal from "decimal.js"

/** Decimal with room for every digit of a sum of crypto amounts (the default keeps only 20). */
export const Wide = Decimal.clone({ precision: 80 })

/** A plain positive decimal as the API takes it ("0.015"): no sign, exponent, spaces or commas. */
export const DECIMAL_PATTERN = /^\d+(\.\d+)?$/

export function isPositiveDecimal(value: string): boolean {
  return DECIMAL_PATTERN.test(value) && new Decimal(value).gt(0)
}

/** Sum of decimal strings, exactly; strings that are not decimals count as 0. */
export function sumDecimals(values: ReadonlyArray<string | null | undefined>): string {
  return values.reduce((sum: Decimal, value) => (value && DECIMAL_PATTERN.test(value) ? sum.plus(value) : sum), new Wide(0)).toFixed()
}

/**
 * What leaves the balance for a withdrawal: the amounts sent, the network fee and the service
 * commission (spec §2.6). Unknown parts are left out (the preview says so).
 */
export function totalDebited(amounts: readonly string[], fee: string | null | undefined, commission: string | null | undefined): string {
  return sumDecimals([...amounts, fee ?? null, commission ?? null])
}

/** A decimal string shown with thousands separators, every digit kept (no float formatting). */
export function formatDecimal(value: string | null | undefined, fallback = "—"): string {
  if (value === null || value === undefined || value === "") return fallback
  if (!/^-?\d+(\.\d+)?$/.test(value)) return value
  const [whole, fraction] = value.split(".")
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return fraction === undefined ? grouped : `${grouped}.${fraction}`
}

/** A fiat value with two decimals (rounded half up), from a decimal string. */
export function formatFiat(value: string | null | undefined, currency: string): string {
  if (value === null || value === undefined || !/^-?\d+(\.\d+)?$/.test(value)) return "—"
  return `${formatDecimal(new Wide(value).toFixed(2))} ${currency.toUpperCase()}`
}
