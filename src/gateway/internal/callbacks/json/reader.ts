/**
 * The strict JSON reader behind JSON callback verification (spec §6.3, docs/gateway-readings.md#json-callback-signature).
 *
 * Why not `JSON.parse` or lossless-json: the verifier needs, from ONE strict pass over the received
 * text, (1) numbers as their exact lexeme, (2) the received member order (a JS object reorders
 * integer-like keys), (3) the span of every top-level member so the `verify_hash` member can be cut
 * out of the original bytes, and (4) rejection of everything that makes a body ambiguous:
 * duplicate keys and unpaired surrogates (invalid UTF-8 is refused before decoding). No library
 * gives all four, so this file reads RFC 8259 JSON itself. It builds the returned values directly
 * (numbers as lexeme strings) and keeps on the side only what plain values lose, so the general
 * verifier can write the same values back (writer.ts) without a second parse.
 */
import { buildFieldObject } from "../field-object"
import { hexDigit } from "../hex"

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

export function isNumberChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2b || code === 0x2e || code === 0x65 || code === 0x45
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
      const digit = hexDigit(text.charCodeAt(at + i))
      if (digit < 0) {
        this.pos = at + i
        this.fail("invalid \\u escape")
      }
      value = value * 16 + digit
    }
    return value
  }
}

const UNPAIRED_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** True when `value` holds a UTF-16 surrogate without its pair (it has no UTF-8 encoding). */
export function hasUnpairedSurrogate(value: string): boolean {
  return UNPAIRED_SURROGATE_RE.test(value)
}
