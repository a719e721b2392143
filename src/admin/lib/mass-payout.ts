import { DECIMAL_PATTERN, Wide } from "./money"

export interface ParsedRecipient {
  line: number
  address: string
  amount: string
}

export interface LineError {
  line: number
  message: string
}

export interface ParsedPayoutList {
  recipients: ParsedRecipient[]
  errors: LineError[]
  /** The sum of the valid lines' amounts, exact. */
  total: string
}

export interface ParseOptions {
  /** The most recipients the gateway takes in one mass_cash_out (our API: 100). */
  maxRecipients?: number
  /** Decimal places of the coin; more digits than this is an error. */
  precision?: number
}

/**
 * The decimal places of a plain decimal, trailing zeros not counted ("0.10" has one), as the server
 * counts them (docs/money-out.md#amounts).
 */
export function decimalPlaces(amount: string): number {
  const fraction = amount.includes(".") ? amount.split(".")[1].replace(/0+$/, "") : ""
  return fraction.length
}

/**
 * Reads a pasted mass payout list: one `address amount` per line, separated by a comma, a
 * semicolon, a tab or spaces. Blank lines and lines starting with `#` are skipped. Every other line
 * is checked on its own and reported by its line number: an address without spaces or commas, a
 * positive plain decimal amount (a "," decimal separator is refused, not guessed), within the
 * coin's precision, each address once, at most `maxRecipients` lines.
 */
export function parseMassPayoutList(text: string, options: ParseOptions = {}): ParsedPayoutList {
  const maxRecipients = options.maxRecipients ?? 100
  const recipients: ParsedRecipient[] = []
  const errors: LineError[] = []
  const seen = new Map<string, number>()
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1
    const content = raw.trim()
    if (content === "" || content.startsWith("#")) return
    const parts = content.split(/[,;\t ]+/).filter((part) => part !== "")
    if (parts.length !== 2) {
      errors.push({ line, message: `expected "address amount", found ${parts.length} field${parts.length === 1 ? "" : "s"}` })
      return
    }
    const [address, amount] = parts
    if (address.length > 256) {
      errors.push({ line, message: "the address is too long" })
      return
    }
    if (!DECIMAL_PATTERN.test(amount)) {
      errors.push({ line, message: `"${amount}" is not an amount: write it like 0.015 (a dot for decimals, no sign)` })
      return
    }
    if (new Wide(amount).lte(0)) {
      errors.push({ line, message: "the amount must be greater than 0" })
      return
    }
    if (options.precision !== undefined && decimalPlaces(amount) > options.precision) {
      errors.push({ line, message: `at most ${options.precision} decimal places for this coin` })
      return
    }
    const first = seen.get(address)
    if (first !== undefined) {
      errors.push({ line, message: `the address is already on line ${first}` })
      return
    }
    seen.set(address, line)
    recipients.push({ line, address, amount })
  })
  if (recipients.length > maxRecipients) {
    errors.push({ line: recipients[maxRecipients].line, message: `at most ${maxRecipients} recipients in one payout` })
  }
  const total = recipients.reduce((sum, r) => sum.plus(r.amount), new Wide(0)).toFixed()
  return { recipients, errors, total }
}
