/**
 * The compact JSON writers of the general path and the signer (spec §6.3): one body written in each
 * gateway serializer's escaping (docs/gateway-readings.md#json-callback-signature).
 */
import type { JsonDocument, JsonValue } from "./reader"

/**
 * How a compact writer escapes. Each gateway serializer is one combination (docs/gateway-readings.md#json-callback-signature):
 * - `escapeSlashes`: `/` written as `\/` (PHP's default json_encode) or raw (JSON.stringify, Python,
 *   PHP with JSON_UNESCAPED_SLASHES).
 * - `unicode`: `"raw"` writes non-ASCII as UTF-8 (JSON.stringify, Python ensure_ascii=False);
 *   `"raw-php"` is raw except U+2028/U+2029, which PHP's JSON_UNESCAPED_UNICODE still escapes;
 *   `"escaped"` writes every UTF-16 unit >= U+0080 as `\uXXXX`, lowercase hex, so astral characters
 *   become surrogate pairs (PHP's default, Python's default); `"escaped-python"` also escapes DEL
 *   (U+007F), which Python's ensure_ascii does and PHP does not.
 * Controls below U+0020 are written `\b \f \n \r \t` or `\u00xx` (lowercase), `"` and `\` are
 * escaped, in every variant: all three serializers agree on those.
 */
export interface JsonEscapeStyle {
  readonly escapeSlashes: boolean
  readonly unicode: "raw" | "raw-php" | "escaped" | "escaped-python"
}

const SHORT_ESCAPES: Record<number, string> = {
  0x08: "\\b",
  0x09: "\\t",
  0x0a: "\\n",
  0x0c: "\\f",
  0x0d: "\\r",
  0x22: '\\"',
  0x5c: "\\\\",
}

function unicodeEscape(unit: number): string {
  return "\\u" + unit.toString(16).padStart(4, "0")
}

/** Writes a string as a JSON string literal in the given style. */
export function writeJsonString(value: string, style: JsonEscapeStyle): string {
  let out = '"'
  let chunkStart = 0
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i)
    let escaped: string | undefined
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c) {
      escaped = SHORT_ESCAPES[unit] ?? unicodeEscape(unit)
    } else if (unit === 0x2f) {
      if (style.escapeSlashes) escaped = "\\/"
    } else if (unit >= 0x7f) {
      if (unit === 0x7f) {
        if (style.unicode === "escaped-python") escaped = unicodeEscape(unit)
      } else if (style.unicode === "escaped" || style.unicode === "escaped-python") {
        escaped = unicodeEscape(unit)
      } else if (style.unicode === "raw-php" && (unit === 0x2028 || unit === 0x2029)) {
        escaped = unicodeEscape(unit)
      }
    }
    if (escaped !== undefined) {
      out += value.slice(chunkStart, i) + escaped
      chunkStart = i + 1
    }
  }
  return out + value.slice(chunkStart) + '"'
}

/**
 * Writes `document.root` as compact JSON (no whitespace) in the given style: members in received
 * order, numbers as their received lexeme, the top-level member `skipKey` left out.
 */
export function writeCompactJson(document: JsonDocument, style: JsonEscapeStyle, skipKey?: string): string {
  return writeValue(document.root, document, style, skipKey)
}

function writeValue(value: JsonValue, document: JsonDocument, style: JsonEscapeStyle, skipKey?: string): string {
  if (typeof value === "string") return writeJsonString(value, style)
  if (value === null) return "null"
  if (typeof value === "boolean") return value ? "true" : "false"
  const numbers = document.numbers.get(value)
  if (Array.isArray(value)) {
    let out = "["
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ","
      const item = value[i]
      out += numbers?.has(i) && typeof item === "string" ? item : writeValue(item, document, style)
    }
    return out + "]"
  }
  let out = "{"
  let first = true
  for (const key of document.keyOrder.get(value) ?? Object.keys(value)) {
    if (key === skipKey) continue
    if (!first) out += ","
    first = false
    const item = value[key]
    out += writeJsonString(key, style) + ":"
    out += numbers?.has(key) && typeof item === "string" ? item : writeValue(item, document, style)
  }
  return out + "}"
}
