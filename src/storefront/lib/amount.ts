import { Decimal } from "decimal.js"

/**
 * Amounts are decimal strings end to end. Formatting never turns one into a float: the integer
 * part is grouped by `Intl.NumberFormat` as a BigInt (exact at any length) and the fraction is
 * copied digit for digit, so "123456789012345678901234567890.123456789012345678" keeps every digit.
 */

const PLAIN = /^-?\d+(\.\d+)?$/
const SCIENTIFIC = /^-?\d+(\.\d+)?[eE][+-]?\d+$/

/** True for "12", "0.000123", "-4.5" (and "1e-8"); false for "", "1,5", "0x1", "NaN". */
export function isDecimalString(value: unknown): value is string {
  return typeof value === "string" && (PLAIN.test(value) || SCIENTIFIC.test(value))
}

/** "1e-8" → "0.00000001"; a plain decimal string is returned as it is. Throws naming `field` otherwise. */
export function toPlainDecimal(value: string, field = "amount"): string {
  const trimmed = value.trim()
  if (PLAIN.test(trimmed)) {
    return trimmed
  }
  if (SCIENTIFIC.test(trimmed)) {
    // toFixed() without digits is exact: it prints every digit the value holds.
    return new Decimal(trimmed).toFixed()
  }
  throw new TypeError(`${field} must be a decimal string such as "0.0015", got ${JSON.stringify(value)}`)
}

/** Compares two decimal strings exactly (-1, 0, 1). */
export function compareDecimal(a: string, b: string): number {
  return new Decimal(toPlainDecimal(a)).comparedTo(new Decimal(toPlainDecimal(b)))
}

/** True when the decimal string is above zero. */
export function isPositiveDecimal(value: string | null | undefined): value is string {
  return isDecimalString(value) && new Decimal(value).gt(0)
}

function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(locale, options)
  } catch (error) {
    // An unknown locale tag or currency code must not break a checkout page: fall back to English.
    if (!(error instanceof RangeError)) {
      throw error
    }
  }
  try {
    return new Intl.NumberFormat("en", options)
  } catch (error) {
    // A malformed currency code: a plain number (the caller appends the code).
    if (!(error instanceof RangeError)) {
      throw error
    }
    return new Intl.NumberFormat("en", { useGrouping: options.useGrouping ?? true })
  }
}

function decimalSeparator(locale: string | undefined): string {
  return numberFormat(locale, {}).formatToParts(1.5).find((part) => part.type === "decimal")?.value ?? "."
}

interface SplitDecimal {
  negative: boolean
  integer: string
  fraction: string
}

function split(amount: string): SplitDecimal {
  const plain = toPlainDecimal(amount)
  const negative = plain.startsWith("-")
  const [integer = "0", fraction = ""] = (negative ? plain.slice(1) : plain).split(".")
  return { negative, integer, fraction }
}

export interface FormatCryptoAmountOptions {
  /** BCP 47 tag, e.g. "de-DE"; the runtime's default when omitted. */
  locale?: string
  /** Ticker appended after the number, e.g. "BTC". */
  code?: string | null
  /** Pad the fraction with zeros to at least this many digits. Digits are never removed. */
  minimumFractionDigits?: number
}

/** "1234567.00012" → "1,234,567.00012" (en) or "1.234.567,00012" (de); every digit is kept. */
export function formatCryptoAmount(amount: string, options: FormatCryptoAmountOptions = {}): string {
  const { negative, integer, fraction } = split(amount)
  const grouped = numberFormat(options.locale, { useGrouping: true }).format(BigInt(integer))
  const digits = fraction.padEnd(options.minimumFractionDigits ?? 0, "0")
  const number = `${negative ? "-" : ""}${grouped}${digits === "" ? "" : decimalSeparator(options.locale) + digits}`
  return options.code ? `${number} ${options.code}` : number
}

/**
 * "49.9", "EUR" → "€49.90" (en) or "49,90 €" (de). The currency's usual fraction digits are
 * padded; more digits than usual are kept, never rounded away.
 */
export function formatFiatAmount(amount: string, currencyCode: string, locale?: string): string {
  const { negative, integer, fraction } = split(amount)
  const code = currencyCode.trim().toUpperCase()
  const currencyFormat = numberFormat(locale, { style: "currency", currency: code })
  if (currencyFormat.resolvedOptions().style !== "currency") {
    return `${formatCryptoAmount(amount, { locale })} ${code}`
  }
  const usualDigits = currencyFormat.resolvedOptions().maximumFractionDigits ?? 2
  const digits = fraction.padEnd(usualDigits, "0")
  // The currency's layout (symbol before or after, spacing) comes from the whole-number format;
  // the exact fraction goes right after the last integer group.
  const parts = numberFormat(locale, { style: "currency", currency: code, minimumFractionDigits: 0, maximumFractionDigits: 0 }).formatToParts(
    BigInt(integer)
  )
  let lastInteger = -1
  parts.forEach((part, index) => {
    if (part.type === "integer") lastInteger = index
  })
  const separator = decimalSeparator(locale)
  const text = parts
    .map((part, index) => (index === lastInteger && digits !== "" ? `${part.value}${separator}${digits}` : part.value))
    .join("")
  return negative ? `-${text}` : text
}

/**
 * "84.9", "EUR" → "84.90 EUR" (en) or "84,90 EUR" (de): the number padded to the currency's usual
 * fraction digits, then its ISO code, so a fiat figure beside coin figures ("1.12133585 LTC") reads
 * the same way. Digits beyond the usual ones are kept ("76.4704 EUR"), never rounded away.
 */
export function formatFiatAmountWithCode(amount: string, currencyCode: string, locale?: string): string {
  const code = currencyCode.trim().toUpperCase()
  const currencyFormat = numberFormat(locale, { style: "currency", currency: code })
  const usualDigits = currencyFormat.resolvedOptions().style === "currency" ? currencyFormat.resolvedOptions().maximumFractionDigits ?? 2 : 0
  return formatCryptoAmount(amount, { locale, code, minimumFractionDigits: usualDigits })
}
