/**
 * The fast reader of JSON callbacks: the common body, measured by `npm run bench`
 * (docs/gateway-readings.md#callback-verification-cost), ends with its signature member, whose
 * signature is checked first on the received bytes without that member (findTrailingSignature).
 * Only then, and only when that signed text is compact, without escapes, duplicates or nested
 * objects, are its fields read with the engine's JSON.parse, numbers given back their lexeme from
 * the text (readSignedJsonText). Any other text goes to the strict reader (reader.ts), and
 * __tests__/callbacks-differential.unit.spec.ts checks that both read the same.
 */
import * as bytes from "../bytes"
import * as hex from "../hex"
import * as reader from "./reader"
import type { JsonObject } from "./reader"

// Local bindings of the helpers called per member: a module namespace read at each call is an
// accessor in some CommonJS builds (swc, which `npm run bench` runs), a measurable cost here.
const { latin1Text, utf8Text } = bytes
const { digestAt } = hex
const { isNumberChar } = reader

const QUOTE = 0x22
const COMMA = 0x2c
const COLON = 0x3a

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
  const expected = digestAt(body, at + 3)
  if (expected === undefined) return undefined
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
  if (hasEnumerableProperty(Object.prototype)) return undefined
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

/** True when `object` has an enumerable property of its own (no array is built to find out). */
function hasEnumerableProperty(object: object): boolean {
  for (const key in object) if (Object.prototype.hasOwnProperty.call(object, key)) return true
  return false
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
