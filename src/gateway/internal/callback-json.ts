/**
 * The strict JSON reader and the compact writers behind JSON callback verification (spec §6.3,
 * NOTES.md "Callbacks").
 *
 * Why not `JSON.parse` or lossless-json: the verifier needs, from ONE strict pass over the received
 * text, (1) numbers as their exact lexeme, (2) the received member order (a JS object reorders
 * integer-like keys), (3) the span of every top-level member so the `verify_hash` member can be cut
 * out of the original bytes for the one-HMAC fast path, and (4) rejection of everything that makes
 * a body ambiguous: duplicate keys and unpaired surrogates (invalid UTF-8 is refused before
 * decoding). No library gives all four, so this file reads RFC 8259 JSON itself. It builds the
 * returned values directly (numbers as lexeme strings) and keeps on the side only what plain values
 * lose, so the slow path can write the same values back without a second parse.
 *
 * The exception is the common case, measured by `npm run bench` (issue 2 §4): a body ending with
 * its signature member, whose signature is checked first on the received bytes without that
 * member (findTrailingSignature). Only then, and only when that signed text is compact, without
 * escapes, duplicates or nested objects, are its fields read with the engine's JSON.parse, numbers
 * given back their lexeme from the text (readSignedJsonText); any other text goes to the strict
 * reader.
 */

import { latin1Text, utf8Text } from "./callback-bytes"
import { buildFieldObject, defineField, findShape, objectOfShape } from "./callback-object"

export { defineField }

/** A JSON value as the verifier returns it: every number is its exact received lexeme, as a string. */
export type JsonValue = string | boolean | null | JsonValue[] | JsonObject
export type JsonObject = { [key: string]: JsonValue }

/**
 * What plain values lose, kept on the side so the same values can be written back exactly (the
 * slow path of verification, and the signer):
 * - `numbers`: for each object or array holding numbers, the keys (or indexes) whose string value
 *   is a number lexeme, written without quotes;
 * - `keyOrder`: the received member order of the objects JS would reorder (integer-like keys come
 *   first in a JS object); absent for every other object.
 */
export interface JsonDocument {
  readonly root: JsonObject
  readonly numbers: Map<object, Set<string | number>>
  readonly keyOrder: Map<object, string[]>
}

/** Thrown for any text that is not one strict JSON object; the message names the offset. */
export class JsonSyntaxError extends Error {}

/**
 * The parse of a callback body: the document without the top-level member named `omitKey` (the
 * signature), that member's value, and the byte range to cut out of the body to remove it.
 */
export interface ParsedJsonCallback extends JsonDocument {
  /** The value of the top-level `omitKey` member; undefined when there is none. */
  readonly omitted: JsonValue | undefined
  /**
   * Byte range of the member and one adjacent comma (the preceding one, or the following one when
   * it is the first member), with the whitespace between: removing it leaves the other members.
   */
  readonly cutStart: number
  readonly cutEnd: number
}

/** Objects and arrays nested deeper than this are refused (no stack exhaustion from a body). */
const MAX_DEPTH = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a

/** JSON's exact number grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
const NUMBER_RE = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/

/** True when `lexeme` is a JSON number as RFC 8259 spells one. */
export function isJsonNumberLexeme(lexeme: string): boolean {
  return NUMBER_RE.test(lexeme)
}

/** Records that `container[slot]` holds a number lexeme. */
export function markNumber(numbers: Map<object, Set<string | number>>, container: object, slot: string | number): void {
  const slots = numbers.get(container)
  if (slots === undefined) numbers.set(container, new Set([slot]))
  else slots.add(slot)
}

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
 * Reads `body` (bytes already checked to be valid UTF-8) as one JSON object. Throws
 * JsonSyntaxError for anything else, including a duplicate key at any depth and a `\u` escape of
 * an unpaired surrogate.
 *
 * The reader walks a latin1 view of the bytes (one char per byte, no decoding), so every offset is
 * a byte offset; a string holding non-ASCII bytes is decoded from the body as UTF-8. Structural
 * characters are ASCII and never occur inside a multi-byte sequence, so this reads exactly what a
 * reader of the decoded text would.
 */
export function parseJsonCallback(body: Buffer, omitKey: string): ParsedJsonCallback {
  return new JsonReader(body, omitKey).readDocument()
}

class JsonReader {
  private readonly body: Buffer
  /** The body as latin1: one char per byte. */
  private readonly text: string
  /** Start and end offsets of the runs of non-ASCII bytes, in order; `runIndex` is the next one. */
  private readonly highRuns: number[]
  private runIndex: number
  private pos: number
  /** Offset of the next backslash at or after the current string, or -1: strings before it have no escape. */
  private nextBackslash: number
  /** False when the text has no control character at all, so strings need no per-character check. */
  private readonly mayHoldControls: boolean
  private readonly numbers: Map<object, Set<string | number>>
  private readonly keyOrder: Map<object, string[]>
  /** Set by readValue when the value it read was a number. */
  private lastWasNumber: boolean

  private readonly omitKey: string
  private omitted: JsonValue | undefined
  private cutStart: number
  private cutEnd: number

  constructor(body: Buffer, omitKey: string) {
    const text = body.toString("latin1")
    this.body = body
    this.text = text
    // One pass over the bytes finds both what needs UTF-8 decoding (runs of bytes >= 0x80) and
    // whether strings need a per-character check (a control byte anywhere).
    const highRuns: number[] = []
    let mayHoldControls = false
    const length = body.length
    for (let i = 0; i < length; i++) {
      const byte = body[i]
      // One unsigned comparison tests byte < 0x20 || byte >= 0x80.
      if (((byte - 0x20) >>> 0) < 0x60) continue
      if (byte < 0x20) {
        mayHoldControls = true
        continue
      }
      let end = i + 1
      while (end < length && body[end] >= 0x80) end++
      highRuns.push(i, end)
      i = end - 1
    }
    this.highRuns = highRuns
    this.runIndex = 0
    this.omitKey = omitKey
    this.omitted = undefined
    this.cutStart = -1
    this.cutEnd = -1
    this.pos = 0
    this.nextBackslash = text.indexOf("\\")
    this.mayHoldControls = mayHoldControls
    this.numbers = new Map()
    this.keyOrder = new Map()
    this.lastWasNumber = false
  }

  readDocument(): ParsedJsonCallback {
    this.skipWhitespace()
    if (this.text.charCodeAt(this.pos) !== 0x7b) this.fail("the body is not a JSON object")
    const root = this.readObject(1, true)
    this.skipWhitespace()
    if (this.pos !== this.text.length) this.fail("unexpected data after the JSON object")
    return {
      root,
      omitted: this.omitted,
      cutStart: this.cutStart,
      cutEnd: this.cutEnd,
      numbers: this.numbers,
      keyOrder: this.keyOrder,
    }
  }

  private fail(what: string): never {
    throw new JsonSyntaxError(`${what} (at byte ${this.pos})`)
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

  /** Reads a value; sets `lastWasNumber` when it is a number lexeme. */
  private readValue(depth: number): JsonValue {
    this.skipWhitespace()
    const code = this.text.charCodeAt(this.pos)
    switch (code) {
      case QUOTE:
        return this.readString()
      case 0x7b:
        return this.readObject(depth + 1, false)
      case 0x5b:
        return this.readArray(depth + 1)
      case 0x74:
        return this.readLiteral("true", true)
      case 0x66:
        return this.readLiteral("false", false)
      case 0x6e:
        return this.readLiteral("null", null)
      default:
        if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
          this.lastWasNumber = true
          return this.readNumber()
        }
        return this.fail("expected a JSON value")
    }
  }

  private readLiteral<T extends boolean | null>(literal: string, value: T): T {
    if (!this.text.startsWith(literal, this.pos)) this.fail("invalid literal")
    this.pos += literal.length
    return value
  }

  private readNumber(): string {
    const text = this.text
    const start = this.pos
    let pos = start
    while (isNumberChar(text.charCodeAt(pos))) pos++
    const lexeme = text.slice(start, pos)
    if (!NUMBER_RE.test(lexeme)) this.fail("invalid number")
    this.pos = pos
    return lexeme
  }

  private readObject(depth: number, topLevel: boolean): JsonObject {
    if (depth > MAX_DEPTH) this.fail("JSON nested too deeply")
    const text = this.text
    const keys: string[] = []
    const values: JsonValue[] = []
    // Top level only: where the previous member ended, and whether the omitted member was the
    // last one read (then the next member's start closes its cut).
    let previousEnd = -1
    let cutOpen = false
    let numberKeys: string[] | null = null
    this.pos++ // '{'
    this.skipWhitespace()
    if (text.charCodeAt(this.pos) === 0x7d) {
      this.pos++
      return {}
    }
    for (;;) {
      this.skipWhitespace()
      if (text.charCodeAt(this.pos) !== QUOTE) this.fail("expected a member name")
      const memberStart = this.pos
      const key = this.readString()
      this.skipWhitespace()
      if (text.charCodeAt(this.pos) !== COLON) this.fail("expected ':'")
      this.pos++
      this.lastWasNumber = false
      const value = this.readValue(depth)
      if (topLevel) {
        if (cutOpen) {
          // The omitted member was the first one: cut it with the comma that follows it.
          this.cutEnd = memberStart
          cutOpen = false
        }
        if (key === this.omitKey) {
          // The signature is kept apart from the fields; twice is as ambiguous as any duplicate.
          if (this.omitted !== undefined) this.fail("duplicate member name")
          this.omitted = value
          this.lastWasNumber = false
          if (previousEnd === -1) {
            this.cutStart = memberStart
            this.cutEnd = this.pos
            cutOpen = true
          } else {
            this.cutStart = previousEnd
            this.cutEnd = this.pos
          }
        }
        previousEnd = this.pos
      }
      if (!topLevel || key !== this.omitKey) {
        values.push(value)
        keys.push(key)
        if (this.lastWasNumber) (numberKeys ??= []).push(key)
      }
      this.skipWhitespace()
      const next = text.charCodeAt(this.pos)
      if (next === COMMA) {
        this.pos++
        continue
      }
      if (next === 0x7d) {
        this.pos++
        break
      }
      this.fail("expected ',' or '}'")
    }
    const object = this.buildObject(keys, values)
    if (numberKeys !== null) for (const key of numberKeys) markNumber(this.numbers, object, key)
    return object
  }

  /** The object of these members; a duplicate name is refused (which one did the signer mean?). */
  private buildObject(keys: string[], values: JsonValue[]): JsonObject {
    // Same names as a cached shape, whose names are distinct: so are these.
    const known = findShape(keys)
    if (known !== undefined) return objectOfShape(known, values) as JsonObject
    if (new Set(keys).size !== keys.length) this.fail("duplicate member name")
    const { object, reordered } = buildFieldObject(keys, values)
    // JS lists integer-like keys first: keep the received order for writing the object back.
    if (reordered) this.keyOrder.set(object, keys.slice())
    return object as JsonObject
  }

  private readArray(depth: number): JsonValue[] {
    if (depth > MAX_DEPTH) this.fail("JSON nested too deeply")
    const text = this.text
    const items: JsonValue[] = []
    this.pos++ // '['
    this.skipWhitespace()
    if (text.charCodeAt(this.pos) === 0x5d) {
      this.pos++
      return items
    }
    for (;;) {
      this.lastWasNumber = false
      const item = this.readValue(depth)
      if (this.lastWasNumber) markNumber(this.numbers, items, items.length)
      items.push(item)
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
        return this.decode(start, end)
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
    return this.decode(start, pos)
  }

  /**
   * The text of bytes [start, end), which begin and end on character boundaries. Strings are read
   * in increasing order, so the runs before `start` are never needed again.
   */
  private decode(start: number, end: number): string {
    const runs = this.highRuns
    let i = this.runIndex
    while (i < runs.length && runs[i + 1] <= start) i += 2
    this.runIndex = i
    if (i >= runs.length || runs[i] >= end) return this.text.slice(start, end)
    return this.body.toString("utf8", start, end)
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
      out += this.decode(chunkStart, pos)
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
    out += this.decode(chunkStart, pos)
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

const UNPAIRED_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** True when `value` holds a UTF-16 surrogate without its pair (it has no UTF-8 encoding). */
export function hasUnpairedSurrogate(value: string): boolean {
  return UNPAIRED_SURROGATE_RE.test(value)
}

/**
 * The signature member as the gateway and signCallback place it: the last member, written
 * compactly, `,"<name>":"<40 hex digits>"}` closing the body. Returns the offset of its comma (the
 * signed text is the body up to there, then the closing `}`) and the 20 bytes the hex stands for;
 * undefined when the body does not end that way, or when whitespace precedes the comma (the
 * general reader's cut would then take the whitespace too).
 *
 * Why the end of the body is enough (spec §6.3 fast path): a `"` whose preceding byte is not `\`
 * is never escaped, so every quote of this ending delimits a string: in a valid body it is a
 * top-level member named `<name>` whose value is that hex string (the final `}` closes the root),
 * and removing it with its comma leaves the other members. Conversely, when the remaining text is
 * one valid JSON object with at least one member and no member `<name>`, putting the member back
 * before its final `}` gives a valid object with exactly one more member. The caller reads the
 * fields only from a remaining text it has checked that way (readSignedJsonText, or the strict
 * reader).
 */
export function findTrailingSignature(body: Buffer, name: string): { cutStart: number; expected: Buffer } | undefined {
  const length = body.length
  // `,"` + name + `":"` + 40 hex + `"}`, after at least `{`.
  const cutStart = length - (name.length + 47)
  if (cutStart < 1 || body[length - 1] !== 0x7d || body[length - 2] !== QUOTE) return undefined
  if (body[cutStart] !== COMMA || body[cutStart + 1] !== QUOTE) return undefined
  let at = cutStart + 2
  for (let i = 0; i < name.length; i++, at++) if (body[at] !== name.charCodeAt(i)) return undefined
  if (body[at] !== QUOTE || body[at + 1] !== COLON || body[at + 2] !== QUOTE) return undefined
  const previous = body[cutStart - 1]
  if (previous === 0x20 || previous === 0x0a || previous === 0x0d || previous === 0x09) return undefined
  at += 3
  const expected = Buffer.allocUnsafe(20)
  for (let i = 0; i < 20; i++, at += 2) {
    const high = hexValue(body[at])
    const low = hexValue(body[at + 1])
    if (high < 0 || low < 0) return undefined
    expected[i] = high * 16 + low
  }
  return { cutStart, expected }
}

/** A char of a latin1 text that stands for a byte >= 0x80. */
const HIGH_BYTE_RE = /[\u0080-\u00ff]/g

/** Offset of the first byte >= 0x80 at or after `from` in the latin1 `text`; Infinity when none. */
function nextHighByte(text: string, from: number): number {
  HIGH_BYTE_RE.lastIndex = from
  return HIGH_BYTE_RE.test(text) ? HIGH_BYTE_RE.lastIndex - 1 : Infinity
}

/** How many bytes >= 0x80 a latin1 text holds (each is two bytes of UTF-8). */
function highByteCount(text: string): number {
  return Buffer.byteLength(text, "utf8") - text.length
}

/**
 * The fields of a signed text (a body without its trailing signature member `omitKey`, see
 * findTrailingSignature), read with the engine's JSON.parse when the text is the common kind:
 * compact, no backslash, no name starting with a digit or holding a byte >= 0x80, values that are
 * strings, top-level numbers, booleans, null, or lists of strings, booleans and nulls. Returns
 * undefined for every other text (nested objects, numbers in lists, whitespace, escapes, a
 * duplicate name, a member `omitKey`, no member at all...): the caller then reads it with the
 * strict reader, which decides.
 *
 * The signed text is the body's first `cutStart` bytes, then `}`.
 *
 * Why this is exact:
 * - The text is read as latin1 (one char per byte, offsets are byte offsets). JSON's structure is
 *   ASCII and every byte >= 0x80 is a legal string character, so JSON.parse accepts the latin1
 *   text exactly when a reader of its UTF-8 accepts the text.
 * - Without a backslash, every `"` delimits a string and each string's text is its raw bytes.
 * - No name starts with a digit, so none is an array index, and the parsed object lists its members
 *   in the order of the text (JS lists array-index names first).
 * - Each member's offset is computed as if the text were written compactly, in that order. A
 *   number's lexeme is read at its member's computed offset, after checking that `"<name>":` stands
 *   there; for a name without `,` or `:` that is an opening quote (valid JSON puts a `,` or a `:`
 *   between every closing quote and the next opening one), so it is a member of that name and the
 *   lexeme is one the signer wrote, never the JS number's rewriting.
 * - The signed text's length must then equal the compact length of the parsed members, each counted at
 *   the size of one of its occurrences in the text. Whitespace or a member lost to a duplicate name
 *   would make the text longer: equal lengths mean it is exactly the compact writing of these
 *   members, so every computed offset is the real one.
 * - Bytes >= 0x80 are found by position (nextHighByte), and each must fall inside a string value
 *   at its computed offset, which is then decoded as UTF-8 from the body's bytes there: the body
 *   was checked to be UTF-8 and quotes are ASCII, so each string's bytes are whole UTF-8 sequences.
 *   Every such byte must be accounted for (one in a name sends the text to the strict reader). If
 *   the checks above fail after such a decoding, the object is dropped (undefined): nothing decoded
 *   at a wrong offset is ever returned.
 */
export function readSignedJsonText(body: Buffer, cutStart: number, omitKey: string): JsonObject | undefined {
  // The whole body is parsed and its last member deleted: cheaper, measured, than building the
  // signed text as a second string. The body is the signed text with that member inserted before
  // its final `}`, so it is valid JSON exactly when the signed text is, and the checks below hold
  // the members left to the signed text: `text` is read only before `cutStart`, where both agree.
  const text = latin1Text(body, 0, body.length)
  const signedLength = cutStart + 1
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof root !== "object" || root === null || Array.isArray(root) || text.indexOf("\\") !== -1) return undefined
  const object = root as Record<string, unknown>
  // The signature member: the last one, so deleting it keeps V8's fast object. Were the name also
  // earlier in the text, the lengths compared below would differ (that occurrence is in the signed
  // text, not in the object) and the strict reader would refuse the duplicate.
  delete object[omitKey]
  // Bytes >= 0x80 still to find, and where the next one stands (Infinity: none left).
  let left = highByteCount(text)
  let high = left === 0 ? Infinity : nextHighByte(text, 0)
  // Where the next member starts if the text is compact: after `{`, then each member and a comma.
  let offset = 1
  let members = 0
  // for-in reads the members through V8's fast path. It would also list inherited enumerable
  // names: a JSON.parse object inherits only from Object.prototype, which must have none.
  if (Object.keys(Object.prototype).length !== 0) return undefined
  for (const key in object) {
    members++
    const first = key.charCodeAt(0)
    if ((first >= 0x30 && first <= 0x39) || key === omitKey) return undefined
    const value = object[key]
    const memberStart = offset
    // The value starts after the quoted name and `:`; the member ends with a comma (or the `}`).
    const valueStart = memberStart + key.length + 3
    // A byte >= 0x80 before the value: in the name, which the strict reader builds.
    if (high < valueStart) return undefined
    if (typeof value === "string") {
      offset = valueStart + value.length + 3
      if (high < offset) {
        object[key] = utf8Text(body, valueStart + 1, offset - 2)
        left -= highByteCount(value)
        high = left === 0 ? Infinity : nextHighByte(text, offset)
      }
    } else if (typeof value === "number") {
      const lexeme = numberLexemeAt(text, memberStart, key)
      if (lexeme === undefined) return undefined
      object[key] = lexeme
      offset = valueStart + lexeme.length + 1
    } else if (value === null || value === true) offset = valueStart + 5
    else if (value === false) offset = valueStart + 6
    else if (Array.isArray(value)) {
      // After `[`, each item and a comma (or the `]`); an empty list is `[]`.
      let at = valueStart + 1
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i]
        if (typeof item === "string") {
          const end = at + item.length + 2
          if (high < end) {
            value[i] = utf8Text(body, at + 1, end - 1)
            left -= highByteCount(item)
            high = left === 0 ? Infinity : nextHighByte(text, end)
          }
          at = end + 1
        } else if (item === null || item === true) at += 5
        else if (item === false) at += 6
        else return undefined
      }
      offset = (value.length === 0 ? valueStart + 2 : at) + 1
    } else return undefined
  }
  if (members === 0 || offset !== signedLength || left !== 0) return undefined
  return object as JsonObject
}

/**
 * The lexeme of the number member `"<key>":<number>` when it stands at `at`, followed by `,` or
 * `}`; undefined otherwise, or when the name holds a `,` or a `:` (see readSignedJsonText).
 * JSON.parse accepted the text, and a number token is followed by whitespace or a structural
 * character, never by a number character: the longest run of those is exactly the token.
 */
function numberLexemeAt(text: string, at: number, key: string): string | undefined {
  if (text.charCodeAt(at) !== QUOTE) return undefined
  let pos = at + 1
  for (let i = 0; i < key.length; i++, pos++) {
    const code = key.charCodeAt(i)
    if (code === COMMA || code === COLON || text.charCodeAt(pos) !== code) return undefined
  }
  if (text.charCodeAt(pos) !== QUOTE || text.charCodeAt(pos + 1) !== COLON) return undefined
  pos += 2
  const start = pos
  while (isNumberChar(text.charCodeAt(pos))) pos++
  const next = text.charCodeAt(pos)
  return pos > start && (next === COMMA || next === 0x7d) ? text.slice(start, pos) : undefined
}
