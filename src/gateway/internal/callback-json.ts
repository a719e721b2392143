/**
 * The strict JSON reader and the compact writers behind JSON callback verification (spec §6.3,
 * NOTES.md "Callbacks").
 *
 * Why not `JSON.parse` or lossless-json: the verifier needs, from ONE strict pass over the received
 * text, (1) numbers as their exact lexeme, (2) object members in received order (a JS object
 * reorders integer-like keys), (3) the span of every top-level member so the `verify_hash` member
 * can be cut out of the original bytes for the one-HMAC fast path, and (4) rejection of everything
 * that makes a body ambiguous: duplicate keys, unpaired surrogates (invalid UTF-8 is refused before
 * decoding). No library gives all four, so this file reads RFC 8259 JSON itself.
 */

/** A JSON number kept as the exact text it was received as (`0.00000001`, `1e400`, `-0`). */
export class JsonNumberLexeme {
  constructor(readonly lexeme: string) {}
}

/** A JSON object with its members in received order. */
export class JsonObjectNode {
  readonly keys: string[] = []
  readonly values: JsonNode[] = []
}

export type JsonNode = string | boolean | null | JsonNumberLexeme | JsonNode[] | JsonObjectNode

/** Thrown for any text that is not one strict JSON object; the message names the offset. */
export class JsonSyntaxError extends Error {}

/** The parse of a callback body: the root object and the span of each top-level member. */
export interface ParsedJsonCallback {
  readonly root: JsonObjectNode
  /** `memberStarts[i]`: offset (UTF-16 units) of the opening quote of the i-th top-level key. */
  readonly memberStarts: number[]
  /** `memberEnds[i]`: offset just after the i-th top-level value. */
  readonly memberEnds: number[]
}

/** Objects and arrays nested deeper than this are refused (no stack exhaustion from a body). */
const MAX_DEPTH = 64
/** Above this many members, duplicate keys are found with a Set instead of a linear scan. */
const LINEAR_DUPLICATE_SCAN_LIMIT = 16

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a

/** JSON's exact number grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
const NUMBER_RE = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/

function isNumberChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2b || code === 0x2e || code === 0x65 || code === 0x45
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  if (code >= 0x61 && code <= 0x66) return code - 0x57
  if (code >= 0x41 && code <= 0x46) return code - 0x37
  return -1
}

/**
 * Reads `text` (decoded from bytes already checked to be valid UTF-8) as one JSON object. Throws
 * JsonSyntaxError for anything else, including a duplicate key at any depth and a `\u` escape of
 * an unpaired surrogate.
 */
export function parseJsonCallback(text: string): ParsedJsonCallback {
  return new JsonReader(text).readDocument()
}

/** Any C0 control character: raw inside a string it is invalid, outside only \t \n \r may appear. */
const CONTROL_RE = /[\u0000-\u001f]/

class JsonReader {
  private pos = 0
  /** Offset of the next backslash at or after the current string, or -1: strings before it have no escape. */
  private nextBackslash: number
  /** False when the text has no control character at all, so strings need no per-character check. */
  private readonly mayHoldControls: boolean

  constructor(private readonly text: string) {
    this.nextBackslash = text.indexOf("\\")
    this.mayHoldControls = CONTROL_RE.test(text)
  }

  readDocument(): ParsedJsonCallback {
    this.skipWhitespace()
    if (this.text.charCodeAt(this.pos) !== 0x7b) this.fail("the body is not a JSON object")
    const memberStarts: number[] = []
    const memberEnds: number[] = []
    const root = this.readObject(1, memberStarts, memberEnds)
    this.skipWhitespace()
    if (this.pos !== this.text.length) this.fail("unexpected data after the JSON object")
    return { root, memberStarts, memberEnds }
  }

  private fail(what: string): never {
    throw new JsonSyntaxError(`${what} (at character ${this.pos})`)
  }

  private skipWhitespace(): void {
    const text = this.text
    let pos = this.pos
    for (;;) {
      const code = text.charCodeAt(pos)
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break
      pos++
    }
    this.pos = pos
  }

  private readValue(depth: number): JsonNode {
    this.skipWhitespace()
    const code = this.text.charCodeAt(this.pos)
    switch (code) {
      case QUOTE:
        return this.readString()
      case 0x7b:
        return this.readObject(depth + 1, null, null)
      case 0x5b:
        return this.readArray(depth + 1)
      case 0x74:
        return this.readLiteral("true", true)
      case 0x66:
        return this.readLiteral("false", false)
      case 0x6e:
        return this.readLiteral("null", null)
      default:
        if (code === 0x2d || (code >= 0x30 && code <= 0x39)) return this.readNumber()
        return this.fail("expected a JSON value")
    }
  }

  private readLiteral<T extends boolean | null>(literal: string, value: T): T {
    if (!this.text.startsWith(literal, this.pos)) this.fail("invalid literal")
    this.pos += literal.length
    return value
  }

  private readNumber(): JsonNumberLexeme {
    const text = this.text
    const start = this.pos
    let pos = start
    while (isNumberChar(text.charCodeAt(pos))) pos++
    const lexeme = text.slice(start, pos)
    if (!NUMBER_RE.test(lexeme)) this.fail("invalid number")
    this.pos = pos
    return new JsonNumberLexeme(lexeme)
  }

  private readObject(depth: number, memberStarts: number[] | null, memberEnds: number[] | null): JsonObjectNode {
    if (depth > MAX_DEPTH) this.fail("JSON nested too deeply")
    const text = this.text
    const node = new JsonObjectNode()
    const keys = node.keys
    let seen: Set<string> | null = null
    this.pos++ // '{'
    this.skipWhitespace()
    if (text.charCodeAt(this.pos) === 0x7d) {
      this.pos++
      return node
    }
    for (;;) {
      this.skipWhitespace()
      if (text.charCodeAt(this.pos) !== QUOTE) this.fail("expected a member name")
      const memberStart = this.pos
      const key = this.readString()
      // A duplicate key is an ambiguity (which one did the signer mean?): refused at any depth.
      if (seen === null) seen = new Set()
      if (seen.has(key)) this.fail("duplicate member name")
      seen.add(key)
      this.skipWhitespace()
      if (text.charCodeAt(this.pos) !== COLON) this.fail("expected ':'")
      this.pos++
      const value = this.readValue(depth)
      keys.push(key)
      node.values.push(value)
      if (memberStarts !== null && memberEnds !== null) {
        memberStarts.push(memberStart)
        memberEnds.push(this.pos)
      }
      this.skipWhitespace()
      const next = text.charCodeAt(this.pos)
      if (next === COMMA) {
        this.pos++
        continue
      }
      if (next === 0x7d) {
        this.pos++
        return node
      }
      this.fail("expected ',' or '}'")
    }
  }

  private readArray(depth: number): JsonNode[] {
    if (depth > MAX_DEPTH) this.fail("JSON nested too deeply")
    const text = this.text
    const items: JsonNode[] = []
    this.pos++ // '['
    this.skipWhitespace()
    if (text.charCodeAt(this.pos) === 0x5d) {
      this.pos++
      return items
    }
    for (;;) {
      items.push(this.readValue(depth))
      this.skipWhitespace()
      const next = text.charCodeAt(this.pos)
      if (next === COMMA) {
        this.pos++
        continue
      }
      if (next === 0x5d) {
        this.pos++
        return items
      }
      this.fail("expected ',' or ']'")
    }
  }

  private readString(): string {
    const text = this.text
    const start = this.pos + 1
    // Fast path for the usual body: find the closing quote natively when no escape and no control
    // character can lie before it.
    if (!this.mayHoldControls) {
      if (this.nextBackslash !== -1 && this.nextBackslash < start) this.nextBackslash = text.indexOf("\\", start)
      const end = text.indexOf('"', start)
      if (end !== -1 && (this.nextBackslash === -1 || this.nextBackslash > end)) {
        this.pos = end + 1
        return text.slice(start, end)
      }
    }
    let pos = start
    for (;;) {
      const code = text.charCodeAt(pos)
      if (code === QUOTE) break
      if (code === BACKSLASH) return this.readEscapedString(start)
      // charCodeAt past the end is NaN, which fails `>= 0x20`.
      if (!(code >= 0x20)) {
        this.pos = pos
        this.fail(pos >= text.length ? "unterminated string" : "control character in a string")
      }
      pos++
    }
    this.pos = pos + 1
    return text.slice(start, pos)
  }

  /** The slow path of readString, for a string holding at least one escape. */
  private readEscapedString(start: number): string {
    const text = this.text
    let out = ""
    let chunkStart = start
    let pos = start
    for (;;) {
      const code = text.charCodeAt(pos)
      if (code === QUOTE) break
      if (!(code >= 0x20)) {
        this.pos = pos
        this.fail(pos >= text.length ? "unterminated string" : "control character in a string")
      }
      if (code !== BACKSLASH) {
        pos++
        continue
      }
      out += text.slice(chunkStart, pos)
      const escape = text.charCodeAt(pos + 1)
      pos += 2
      switch (escape) {
        case QUOTE:
          out += '"'
          break
        case BACKSLASH:
          out += "\\"
          break
        case 0x2f:
          out += "/"
          break
        case 0x62:
          out += "\b"
          break
        case 0x66:
          out += "\f"
          break
        case 0x6e:
          out += "\n"
          break
        case 0x72:
          out += "\r"
          break
        case 0x74:
          out += "\t"
          break
        case 0x75: {
          const unit = this.readHex4(pos)
          pos += 4
          if (unit >= 0xd800 && unit <= 0xdbff) {
            // A high surrogate must be followed by an escaped low surrogate (PHP refuses it
            // otherwise, JSON_ERROR_UTF16), and nothing unpaired can be written back as UTF-8.
            if (text.charCodeAt(pos) !== BACKSLASH || text.charCodeAt(pos + 1) !== 0x75) {
              this.pos = pos
              this.fail("unpaired surrogate escape")
            }
            const low = this.readHex4(pos + 2)
            if (low < 0xdc00 || low > 0xdfff) {
              this.pos = pos
              this.fail("unpaired surrogate escape")
            }
            pos += 6
            out += String.fromCharCode(unit, low)
          } else if (unit >= 0xdc00 && unit <= 0xdfff) {
            this.pos = pos
            this.fail("unpaired surrogate escape")
          } else {
            out += String.fromCharCode(unit)
          }
          break
        }
        default:
          this.pos = pos - 1
          this.fail("invalid escape")
      }
      chunkStart = pos
    }
    out += text.slice(chunkStart, pos)
    this.pos = pos + 1
    return out
  }

  private readHex4(at: number): number {
    const text = this.text
    let value = 0
    for (let i = 0; i < 4; i++) {
      const digit = hexValue(text.charCodeAt(at + i))
      if (digit < 0) {
        this.pos = at + i
        this.fail("invalid \\u escape")
      }
      value = value * 16 + digit
    }
    return value
  }
}

/**
 * How a compact writer escapes. Each gateway serializer is one combination (NOTES.md "Callbacks"):
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

/** Writes a node as compact JSON (no whitespace), numbers as their received lexeme. */
export function writeCompactJson(node: JsonNode, style: JsonEscapeStyle): string {
  if (typeof node === "string") return writeJsonString(node, style)
  if (node === null) return "null"
  if (typeof node === "boolean") return node ? "true" : "false"
  if (node instanceof JsonNumberLexeme) return node.lexeme
  if (Array.isArray(node)) {
    let out = "["
    for (let i = 0; i < node.length; i++) {
      if (i > 0) out += ","
      out += writeCompactJson(node[i], style)
    }
    return out + "]"
  }
  let out = "{"
  for (let i = 0; i < node.keys.length; i++) {
    if (i > 0) out += ","
    out += writeJsonString(node.keys[i], style) + ":" + writeCompactJson(node.values[i], style)
  }
  return out + "}"
}

/** True when `lexeme` is a JSON number as RFC 8259 spells one. */
export function isJsonNumberLexeme(lexeme: string): boolean {
  return NUMBER_RE.test(lexeme)
}

const UNPAIRED_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** True when `value` holds a UTF-16 surrogate without its pair (it has no UTF-8 encoding). */
export function hasUnpairedSurrogate(value: string): boolean {
  return UNPAIRED_SURROGATE_RE.test(value)
}
