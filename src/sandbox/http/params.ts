import { invalidAttribute, missingAttribute } from "../core/errors"
import { parseDecimal, type Dec } from "../core/money"

const MAX_TEXT = 1000

/**
 * Wire parameters of one request (the query string, or a control API body flattened to strings),
 * read strictly: each accessor names the attribute in the spec §7 error it throws.
 */
export class Params {
  constructor(private readonly values: Map<string, string>) {}

  static fromSearch(search: URLSearchParams): Params {
    const values = new Map<string, string>()
    for (const [key, value] of search) {
      if (!values.has(key)) {
        values.set(key, value)
      }
    }
    return new Params(values)
  }

  has(name: string): boolean {
    return this.values.has(name)
  }

  /** The trimmed value; an absent or empty parameter is null. */
  text(name: string, maxLength = MAX_TEXT): string | null {
    const raw = this.values.get(name)
    if (raw === undefined) {
      return null
    }
    const value = raw.trim()
    if (value.length === 0) {
      return null
    }
    if (value.length > maxLength) {
      throw invalidAttribute(name, `"${name}" must be at most ${maxLength} characters.`)
    }
    return value
  }

  required(name: string, httpStatus = 400, maxLength = MAX_TEXT): string {
    const value = this.text(name, maxLength)
    if (value === null) {
      throw missingAttribute(name, httpStatus)
    }
    return value
  }

  decimal(name: string): Dec | null {
    const value = this.text(name, 64)
    if (value === null) {
      return null
    }
    return toPositiveDecimal(name, value)
  }

  integer(name: string, min: number, max: number): number | null {
    const value = this.text(name, 16)
    if (value === null) {
      return null
    }
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw invalidAttribute(name, `"${name}" must be an integer from ${min} to ${max}.`)
    }
    return Number(value)
  }

  /** An integer read leniently: anything unusable gives the fallback (paging parameters). */
  lenientInteger(name: string, fallback: number): number {
    const value = this.values.get(name)
    if (value === undefined || !/^\d{1,9}$/.test(value.trim())) {
      return fallback
    }
    return Number(value.trim())
  }

  /** A flag is on when present and not "0", "false", "no" or "off" (spec §4.1 "flag"). */
  flag(name: string): boolean {
    const value = this.values.get(name)
    if (value === undefined) {
      return false
    }
    return !["0", "false", "no", "off"].includes(value.trim().toLowerCase())
  }

  /** A comma-separated list; empty items are dropped. */
  list(name: string): string[] {
    const value = this.text(name, 10_000)
    if (value === null) {
      return []
    }
    return value
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item.length > 0)
  }

  url(name: string): string | null {
    const value = this.text(name, 2048)
    if (value === null) {
      return null
    }
    let protocol = ""
    try {
      protocol = new URL(value).protocol
    } catch {
      protocol = ""
    }
    if (protocol !== "http:" && protocol !== "https:") {
      throw invalidAttribute(name, `"${name}" must be an http(s) URL.`)
    }
    return value
  }

  oneOf<T extends string>(name: string, options: readonly T[], fallback: T): T {
    const value = this.text(name, 64)
    if (value === null) {
      return fallback
    }
    if (!(options as readonly string[]).includes(value)) {
      throw invalidAttribute(name, `"${name}" must be one of: ${options.join(", ")}.`)
    }
    return value as T
  }
}

export function toPositiveDecimal(name: string, value: string): Dec {
  const parsed = parseDecimal(value)
  if (parsed === null || parsed.lte(0)) {
    throw invalidAttribute(name, `"${name}" must be a positive decimal number written like 0.001.`)
  }
  return parsed
}
