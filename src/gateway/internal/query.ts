/** Query strings and path segments for gateway requests (spec §1.1: every parameter is in the query). */
import { GatewayParameterError } from "../core/errors"

export type QueryParams = Record<string, string | undefined>

/** `a=1&b=2`, skipping undefined values, in insertion order. */
export function buildQuery(params: QueryParams): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) search.append(name, value)
  }
  return search.toString()
}

/**
 * One path segment, percent-encoded. `encodeURIComponent` encodes `/`, `?`, `#` and `%`, so the
 * value stays inside its segment; `.` and `..` are refused because they are not encoded and a
 * server or proxy would resolve them as a move to the same or the parent path.
 */
export function pathSegment(value: string, param: string): string {
  if (typeof value !== "string" || value === "") {
    throw new GatewayParameterError(param, "must be a non-empty string")
  }
  if (value === "." || value === "..") {
    throw new GatewayParameterError(param, `cannot be ${JSON.stringify(value)}`)
  }
  return encodeURIComponent(value)
}

/** A non-empty string parameter, or undefined when absent. Refuses an empty or non-string value. */
export function optionalString(value: string | undefined, param: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== "string" || value === "") {
    throw new GatewayParameterError(param, "must be a non-empty string")
  }
  return value
}

export function requiredString(value: string | undefined, param: string): string {
  if (value === undefined) throw new GatewayParameterError(param, "is required")
  return optionalString(value, param) ?? ""
}

/**
 * A list parameter joined with commas for the wire (spec §4.1 allowed_psys_cids, §4.2 to/amount,
 * §4.10 psys_cid). An item may not contain a comma, which would split it on the gateway side.
 */
export function commaList(values: string | readonly string[], param: string): string {
  const list = typeof values === "string" ? [values] : values
  if (!Array.isArray(list) || list.length === 0) {
    throw new GatewayParameterError(param, "must hold at least one value")
  }
  list.forEach((item: unknown, index) => {
    if (typeof item !== "string" || item === "") {
      throw new GatewayParameterError(`${param}[${index}]`, "must be a non-empty string")
    }
    if (item.includes(",")) {
      throw new GatewayParameterError(`${param}[${index}]`, "cannot contain a comma (the list is comma-separated on the wire)")
    }
  })
  return list.join(",")
}

/** A positive integer parameter (page, limit, expire_min) as its decimal text. */
export function positiveInteger(value: number | undefined, param: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new GatewayParameterError(param, `must be a positive integer, got ${String(value)}`)
  }
  return String(value)
}

/** A flag (spec §4.1 return_existing): `1` when true, absent otherwise. */
export function flag(value: boolean | undefined, param: string): string | undefined {
  if (value === undefined || value === false) return undefined
  if (value !== true) throw new GatewayParameterError(param, "must be a boolean")
  return "1"
}

/** One of `allowed`, or undefined. */
export function oneOf<T extends string>(value: T | undefined, allowed: readonly T[], param: string): T | undefined {
  if (value === undefined) return undefined
  if (!allowed.includes(value)) {
    throw new GatewayParameterError(param, `must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`)
  }
  return value
}
