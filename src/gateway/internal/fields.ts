/**
 * Field parsers used by the response normalizers. Each takes the raw value (from the lossless
 * parse: numbers are `LosslessNumber`s) and the field's path, and either returns the normalized
 * value or throws a GatewayResponseError naming the path. `null` stays `null` everywhere except in
 * `txUrls`; an absent field stays absent (the object builder never adds it).
 */
import Decimal from "decimal.js"
import { GatewayResponseError } from "../core/errors"
import { isReceivedDecimal } from "../core/money"
import { isJsonObject, isLosslessNumber } from "./json"

export type FieldParser<T> = (value: unknown, path: string) => T

/** A parser for each known key; unknown keys are kept through {@link passthrough}. */
export type Schema = Record<string, FieldParser<unknown>>

function fail(path: string, expected: string, value: unknown): never {
  throw new GatewayResponseError(`Gateway response field ${path}: expected ${expected}, got ${describe(value)}`, {
    field: path,
  })
}

function describe(value: unknown): string {
  if (value === null) return "null"
  if (isLosslessNumber(value)) return `number ${value.value}`
  if (typeof value === "string") return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
  if (Array.isArray(value)) return "an array"
  return typeof value
}

function nullable<T>(parse: FieldParser<T>): FieldParser<T | null> {
  return (value, path) => (value === null ? null : parse(value, path))
}

/** The value as a JSON object, or a GatewayResponseError naming `path`. */
export function expectObject(value: unknown, path: string): Record<string, unknown> {
  if (!isJsonObject(value)) return fail(path, "an object", value)
  return value
}

/** A decimal sent as a string or a JSON number, read from its exact text (spec §1.5, docs/gateway-readings.md#decimals). */
export const decimal: FieldParser<Decimal | null> = nullable((value, path) => {
  if (isLosslessNumber(value)) return new Decimal(value.value)
  if (typeof value === "string" && isReceivedDecimal(value)) return new Decimal(value)
  return fail(path, "a decimal (string or number)", value)
})

/** A string; a JSON number is kept as its exact text (ids and codes sometimes arrive as numbers). */
export const string: FieldParser<string | null> = nullable((value, path) => {
  if (typeof value === "string") return value
  if (isLosslessNumber(value)) return value.value
  return fail(path, "a string", value)
})

/** An integer sent as a JSON number or a string of digits, within the safe integer range. */
export const integer: FieldParser<number | null> = nullable((value, path) => {
  const text = isLosslessNumber(value) ? value.value : typeof value === "string" ? value : undefined
  if (text !== undefined && /^-?\d+$/.test(text)) {
    const parsed = Number(text)
    if (Number.isSafeInteger(parsed)) return parsed
  }
  return fail(path, "an integer", value)
})

/** Above this a `*_utc` value is in milliseconds (docs/gateway-readings.md#timestamps). */
const MILLISECONDS_THRESHOLD = 1e12

/** A `*_utc` Unix time, normalized to whole seconds (spec §1.5: seconds or milliseconds). */
export const timestamp: FieldParser<number | null> = (value, path) => {
  const parsed = integer(value, path)
  if (parsed === null) return null
  return Math.abs(parsed) > MILLISECONDS_THRESHOLD ? Math.trunc(parsed / 1000) : parsed
}

/** A boolean; `0`/`1` (number or string) are read as booleans, as PHP often sends them. */
export const boolean: FieldParser<boolean | null> = nullable((value, path) => {
  if (typeof value === "boolean") return value
  const text = isLosslessNumber(value) ? value.value : value
  if (text === "1" || text === 1) return true
  if (text === "0" || text === 0) return false
  return fail(path, "a boolean", value)
})

/** `tx_url`: a string, an array of strings, or null (spec §2.2) → always an array. */
export const txUrls: FieldParser<string[]> = (value, path) => {
  if (value === null || value === undefined || value === "") return []
  if (typeof value === "string") return [value]
  if (Array.isArray(value)) return value.map((item, index) => requiredString(item, `${path}[${index}]`))
  return fail(path, "a string, an array of strings or null", value)
}

function requiredString(value: unknown, path: string): string {
  const parsed = string(value, path)
  if (parsed === null) return fail(path, "a string", value)
  return parsed
}

/** An array of items, each parsed with `item`. */
export function arrayOf<T>(item: FieldParser<T>): FieldParser<T[] | null> {
  return nullable((value, path) => {
    if (!Array.isArray(value)) return fail(path, "an array", value)
    return value.map((entry, index) => item(entry, `${path}[${index}]`))
  })
}

export const stringArray = arrayOf(requiredString)

/** An object whose values are all decimals (e.g. `sendmany`: address → amount, spec §2.2). */
export const decimalMap: FieldParser<Record<string, Decimal> | null> = nullable((value, path) => {
  if (!isJsonObject(value)) return fail(path, "an object", value)
  const out: Record<string, Decimal> = {}
  for (const [key, entry] of Object.entries(value)) {
    const parsed = decimal(entry, `${path}.${key}`)
    if (parsed === null) fail(`${path}.${key}`, "a decimal", entry)
    setOwn(out, key, parsed)
  }
  return out
})

/** Defines an own property, so a key like `__proto__` from the gateway stays plain data. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * A value the client has no schema for (an extra field, an undocumented body): kept, with JSON
 * numbers made usable without losing digits (a safe integer becomes a number, anything else a
 * `Decimal`) and `*_utc` members normalized to seconds.
 */
export function passthrough(value: unknown, path = "", key = ""): unknown {
  if (isLosslessNumber(value)) {
    if (key.endsWith("_utc") && /^-?\d+$/.test(value.value)) return timestamp(value, path)
    const asNumber = Number(value.value)
    return /^-?\d+$/.test(value.value) && Number.isSafeInteger(asNumber) ? asNumber : new Decimal(value.value)
  }
  if (Array.isArray(value)) return value.map((item, index) => passthrough(item, `${path}[${index}]`))
  if (isJsonObject(value)) {
    const out: Record<string, unknown> = {}
    for (const [name, item] of Object.entries(value)) setOwn(out, name, passthrough(item, `${path}.${name}`, name))
    return out
  }
  return value
}

/**
 * Parses an object: each key of `schema` with its parser, every other key kept (passthrough).
 * `required` keys must be present and not null. `defaults` fill absent keys (e.g. `tx_url: []`).
 */
export function object(
  schema: Schema,
  options: { required?: readonly string[]; defaults?: Record<string, () => unknown> } = {}
): FieldParser<Record<string, unknown> | null> {
  return nullable((value, path) => {
    if (!isJsonObject(value)) return fail(path, "an object", value)
    for (const key of options.required ?? []) {
      if (value[key] === undefined || value[key] === null) {
        throw new GatewayResponseError(`Gateway response field ${path}.${key} is missing`, { field: `${path}.${key}` })
      }
    }
    const out: Record<string, unknown> = {}
    for (const [key, entry] of Object.entries(value)) {
      const parse = Object.prototype.hasOwnProperty.call(schema, key) ? schema[key] : undefined
      setOwn(out, key, parse ? parse(entry, `${path}.${key}`) : passthrough(entry, `${path}.${key}`, key))
    }
    for (const [key, make] of Object.entries(options.defaults ?? {})) {
      if (!Object.prototype.hasOwnProperty.call(out, key)) setOwn(out, key, make())
    }
    return out
  })
}

/** Like {@link object}, but the value must be present (not null). */
export function requiredObject(
  schema: Schema,
  options: { required?: readonly string[]; defaults?: Record<string, () => unknown> } = {}
): FieldParser<Record<string, unknown>> {
  const parse = object(schema, options)
  return (value, path) => {
    const parsed = parse(value, path)
    if (parsed === null) return fail(path, "an object", value)
    return parsed
  }
}
