import { Decimal } from "decimal.js"

/** A gateway result made JSON-safe: every `Decimal` becomes its exact decimal string, never a float. */
export type Wire<T> = T extends Decimal
  ? string
  : T extends Date
    ? string
    : T extends Array<infer U>
      ? Array<Wire<U>>
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T

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
