/**
 * Lossless JSON parsing of gateway bodies. Numbers stay `LosslessNumber`s holding their exact
 * lexeme until a normalizer decides what they are (a `Decimal` for money, an integer for counts and
 * timestamps): `JSON.parse` would turn 123456789.123456789012 into a float and lose digits.
 */
import { isLosslessNumber, LosslessNumber, parse } from "lossless-json"

export { isLosslessNumber, LosslessNumber }

/** Parses `text` keeping every number's lexeme; throws a SyntaxError on invalid JSON. */
export function parseLosslessJson(text: string): unknown {
  return parse(text)
}

/** A plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isLosslessNumber(value)
}
