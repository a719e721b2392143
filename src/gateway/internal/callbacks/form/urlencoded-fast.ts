/**
 * The fast readings of the usual urlencoded callback (spec §6.1, §6.3): an all-ASCII body of plain
 * fields and PHP-style lists, read straight into the bytes the signature covers.
 *
 * Both read exactly what readUrlencodedForm (reader.ts) reads, or give up: for anything
 * that reader refuses (bytes that are not UTF-8, a name PHP would rewrite, a field given twice, a
 * list out of order, a list named like the signature...), they return undefined and the caller
 * uses that reader, which decides. So every reading agrees on what a body means.
 *
 * Parts are split on `&`, names from values on the first `=` (a part without `=` is a field with
 * an empty value; an empty part is skipped), and decoded the WHATWG and PHP way: `+` is a space,
 * `%XX` a byte, a `%` not followed by two hex digits itself. Names must match the form reader's
 * grammar. PHP's serialize() of the fields sorted by name (spec §6.3) is written into one buffer,
 * each value percent-decoded straight from the body, so lengths are byte counts by construction.
 * That buffer holds every decoded value between ASCII delimiters, so one UTF-8 check covers them
 * all (an ASCII byte cannot be part of a multi-byte sequence), and a decoded value's text is read
 * back from it; a value without escapes is a slice of the body itself.
 *
 * - readSortedUrlencoded: one pass, for a body whose fields arrive sorted by name (as signCallback
 *   and PHP's http_build_query() of a ksort()ed array write them).
 * - readUrlencodedFast: two passes (scan, then write in sorted order), for any field order.
 */
import { isUtf8 } from "node:buffer"
import * as bytes from "../bytes"
import * as hex from "../hex"
import * as php from "../php-serialize"
import { decodeEntities, ENTITY_DECODED_FIELD } from "./reader"

// Local bindings of the helpers called per byte or per field: a module namespace read at each call
// is an accessor in some CommonJS builds (swc, which `npm run bench` runs), a measurable cost here.
const { latin1Text, utf8Text } = bytes
const { hexDigit } = hex
const {
  arrayFrameSize,
  digitCount,
  indexSize,
  stringSize,
  writeArrayHeader,
  writeByteString,
  writeIndex,
  writeStringEnd,
  writeStringHeader,
} = php

/** The fields of a body, ready to verify. */
export interface UrlencodedReading {
  /** Field names sorted as PHP's ksort() orders them, the signature field left out. */
  readonly names: string[]
  /** The value of each name: a string, or a list's strings (tx_urls with HTML entities decoded). */
  readonly texts: Array<string | string[]>
  /**
   * PHP serialize() of those fields: the bytes the HMAC covers.
   */
  readonly signedBytes: Buffer
  /** The signature field's value as received. */
  readonly signature: string
}

const AMPERSAND = 0x26
const EQUALS = 0x3d
const PERCENT = 0x25
const PLUS = 0x2b

/** Part flags (pass 1). */
const VALUE_ENCODED = 1
const VALUE_HIGH = 2
const NAME_ENCODED = 4

/** Name grammar states (pass 1): `[A-Za-z_][A-Za-z0-9_-]*` then optionally `[<digits>]`. */
const NAME_EMPTY = 0
const NAME_PLAIN = 1
const NAME_INDEX = 2
const NAME_LIST = 3
const NAME_BAD = 4

/** Name characters by byte: NAME_START_CHAR for `[A-Za-z_]`, 1 for `[0-9-]`, 0 for any other. */
const NAME_START_CHAR = 2
const NAME_CHARS = new Uint8Array(256)
for (let byte = 0; byte < 256; byte++) {
  if (isNameStart(byte)) NAME_CHARS[byte] = NAME_START_CHAR
  else if ((byte >= 0x30 && byte <= 0x39) || byte === 0x2d) NAME_CHARS[byte] = 1
}

/** Values per part in the pass-1 record. */
const PART_SIZE = 6

function isNameStart(byte: number): boolean {
  return (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a) || byte === 0x5f
}

/** The name grammar state after `byte`. */
function nextNameState(state: number, byte: number): number {
  if (state === NAME_PLAIN) {
    if (isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte === 0x2d) return NAME_PLAIN
    return byte === 0x5b ? NAME_INDEX : NAME_BAD
  }
  if (state === NAME_EMPTY) return isNameStart(byte) ? NAME_PLAIN : NAME_BAD
  if (state === NAME_INDEX) {
    if (byte >= 0x30 && byte <= 0x39) return NAME_INDEX
    return byte === 0x5d ? NAME_LIST : NAME_BAD
  }
  return NAME_BAD
}

/**
 * A field: its name, its value's body range (`start`, `end`, pass-1 `flags`, decoded `size`), or
 * for a list the same per element. `text` is known after pass 2 for an encoded value.
 */
interface Value {
  readonly start: number
  readonly end: number
  readonly flags: number
  size: number
  text: string
  /** The bytes to sign instead of the body range (tx_urls after HTML entity decoding). */
  signed: Buffer | null
}

interface Field {
  readonly name: string
  readonly value: Value | null
  readonly list: Value[] | null
}

/**
 * Reads an all-ASCII urlencoded body; undefined when the body needs the general reader (see the
 * file comment), including when `hashField` is missing or given twice.
 */
export function readUrlencodedFast(body: Buffer, hashField: string): UrlencodedReading | undefined {
  const parts = scanParts(body)
  if (parts === undefined) return undefined
  const text = body.toString("latin1")
  const fields: Field[] = []
  let signature: string | undefined
  for (let p = 0; p < parts.length; p += PART_SIZE) {
    const start = parts[p]
    const nameEnd = parts[p + 1]
    const end = parts[p + 2]
    const flags = parts[p + 4]
    const bracket = parts[p + 5]
    const rawName = text.slice(start, nameEnd)
    // A valid encoded name is ASCII and all its `%` are escapes: unescape decodes it exactly.
    const name = (flags & NAME_ENCODED) === 0 ? rawName : unescape(rawName)
    const valueStart = nameEnd < end ? nameEnd + 1 : end
    const value: Value = {
      start: valueStart,
      end,
      flags,
      size: parts[p + 3],
      text: (flags & VALUE_ENCODED) === 0 ? text.slice(valueStart, end) : "",
      signed: null,
    }
    if (bracket === -1) {
      if (name === hashField) {
        // A signature holding `%` or `+` is not hexadecimal: the general reader says so.
        if (signature !== undefined || (flags & VALUE_ENCODED) !== 0) return undefined
        signature = value.text
      } else {
        fields.push({ name, value, list: null })
      }
      continue
    }
    const base = name.slice(0, bracket)
    const index = name.slice(bracket + 1, -1)
    if (base === hashField) return undefined
    let at = fields.length - 1
    while (at >= 0 && fields[at].name !== base) at--
    if (at === -1) {
      if (index !== "" && index !== "0") return undefined
      fields.push({ name: base, value: null, list: [value] })
      continue
    }
    const list = fields[at].list
    // A name given both as a value and as a list, or an index that is not the next position.
    if (list === null || (index !== "" && index !== String(list.length))) return undefined
    list.push(value)
  }
  if (signature === undefined) return undefined
  // Insertion sort by name: linear when the sender already sorted its fields. Names are ASCII, so
  // comparing JS strings compares their bytes, as PHP's ksort() does for these keys.
  for (let i = 1; i < fields.length; i++) {
    const field = fields[i]
    let j = i
    while (j > 0 && fields[j - 1].name > field.name) {
      fields[j] = fields[j - 1]
      j--
    }
    fields[j] = field
  }
  for (let k = 1; k < fields.length; k++) {
    // A name given twice (plain, or plain and list): the general reader refuses it.
    if (fields[k].name === fields[k - 1].name) return undefined
  }
  for (const field of fields) {
    if (field.name !== ENTITY_DECODED_FIELD) continue
    for (const value of field.list ?? [field.value as Value]) {
      if (!decodeEntityValue(body, value)) return undefined
    }
  }
  const signedBytes = serialize(body, fields)
  if (!isUtf8(signedBytes)) return undefined
  const names: string[] = new Array<string>(fields.length)
  const texts: Array<string | string[]> = new Array<string | string[]>(fields.length)
  for (let k = 0; k < fields.length; k++) {
    const { name, value, list } = fields[k]
    names[k] = name
    texts[k] = list === null ? (value as Value).text : list.map((item) => item.text)
  }
  return { names, texts, signedBytes, signature }
}

/** Room kept before the fields for the header `a:<count>:{` (written last, right-aligned). */
const HEADER_ROOM = 16

/** From this length on, a raw value is copied natively rather than byte by byte (measured). */
const NATIVE_COPY_MIN = 24

/** Compares two byte ranges of `bytes` as strings: negative, 0 or positive. */
function compareRanges(bytes: Buffer, aStart: number, aEnd: number, bStart: number, bEnd: number): number {
  const aLength = aEnd - aStart
  const bLength = bEnd - bStart
  const common = aLength < bLength ? aLength : bLength
  for (let i = 0; i < common; i++) {
    const difference = bytes[aStart + i] - bytes[bStart + i]
    if (difference !== 0) return difference
  }
  return aLength - bLength
}

/**
 * The one-pass reading of a body whose fields arrive sorted by name, as signCallback and PHP's
 * http_build_query() of a ksort()ed array write them, list elements consecutive: each part is
 * written to the signed bytes as it is read, so no per-field record is kept. Undefined for any
 * other body (fields out of order, a list of ten or more elements, a list interrupted, an escape
 * in a name before its `[`...): the caller then uses readUrlencodedFast, which sorts.
 */
export function readSortedUrlencoded(body: Buffer, hashField: string): UrlencodedReading | undefined {
  const length = body.length
  const text = latin1Text(body, 0, length)
  // Each field adds at most 2 * (4 + 7 digits + 2) bytes of framing and takes at least 2 bytes of
  // the body; a body whose fields are shorter than that is left to readUrlencodedFast.
  const capacity = HEADER_ROOM + 2 * length + 64
  // Each call writes into its own buffer: nothing of one callback outlives its verification.
  const target = Buffer.allocUnsafe(capacity)
  const names: string[] = []
  const texts: Array<string | string[]> = []
  let signature: string | undefined
  let at = HEADER_ROOM
  // The previous field's name, as a range of the body (names are compared byte by byte).
  let previousStart = 0
  let previousEnd = 0
  // The list being written: its texts, and where its element count goes.
  let listTexts: string[] | null = null
  let listCountAt = -1
  let percent = text.indexOf("%")
  let plus = text.indexOf("+")
  for (let start = 0, end = 0; start < length; start = end + 1) {
    end = text.indexOf("&", start)
    if (end === -1) end = length
    if (end === start) continue
    // The name, checked against the grammar as it is read; `[` ends its plain part, its base.
    let state = NAME_EMPTY
    let baseEnd = -1
    // The list index given (-1 for `[]`), and its digit count: `[00]` is not `[0]` to PHP.
    let index = -1
    let indexDigits = 0
    let i = start
    // The usual name, plain ASCII up to its `=`, is checked with the table alone; any other name
    // (an escape, a list index) is read byte by byte below, from its start.
    if (NAME_CHARS[body[i]] === NAME_START_CHAR) {
      let j = i + 1
      while (j < end && NAME_CHARS[body[j]] !== 0) j++
      if (j === end || body[j] === EQUALS) {
        i = j
        state = NAME_PLAIN
      }
    }
    if (state === NAME_EMPTY) for (; i < end; i++) {
      const charStart = i
      let byte = body[i]
      if (byte === EQUALS) break
      if (byte === PERCENT && i + 2 < end) {
        const upper = hexDigit(body[i + 1])
        const lower = hexDigit(body[i + 2])
        if (upper >= 0 && lower >= 0) {
          byte = upper * 16 + lower
          // An escape in the base would make the body's bytes differ from the name's.
          if (baseEnd === -1 && byte !== 0x5b) return undefined
          i += 2
        }
      }
      state = nextNameState(state, byte)
      if (state === NAME_BAD) return undefined
      if (state === NAME_INDEX) {
        if (baseEnd === -1) {
          baseEnd = charStart
        } else {
          index = (index === -1 ? 0 : index * 10) + byte - 0x30
          indexDigits++
        }
      }
    }
    if (state !== NAME_PLAIN && state !== NAME_LIST) return undefined
    if (indexDigits > 1 && (index < 10 ** (indexDigits - 1) || indexDigits > 9)) return undefined
    const nameEnd = baseEnd === -1 ? i : baseEnd
    const valueStart = i < end ? i + 1 : end
    if (percent !== -1 && percent < valueStart) percent = text.indexOf("%", valueStart)
    if (plus !== -1 && plus < valueStart) plus = text.indexOf("+", valueStart)
    const encodedValue = (percent !== -1 && percent < end) || (plus !== -1 && plus < end)
    const order = compareRanges(body, start, nameEnd, previousStart, previousEnd)
    if (baseEnd === -1 && nameEnd - start === hashField.length && text.startsWith(hashField, start)) {
      // A signature holding `%` or `+` is not hexadecimal: the general reader says so.
      if (signature !== undefined || encodedValue) return undefined
      signature = text.slice(valueStart, end)
      continue
    }
    if (at + (end - start) + 64 > capacity) return undefined
    if (listTexts === null || baseEnd === -1 || order !== 0) {
      if (listTexts !== null) {
        target[at++] = 0x7d
        // The count stands on one digit; ten elements or more are left to readUrlencodedFast.
        if (listTexts.length > 9) return undefined
        target[listCountAt] = 0x30 + listTexts.length
        listTexts = null
      }
      // Sorted, each name once: anything else (a field twice, a list interrupted, a list named
      // like the signature) goes to the sorting reader.
      if (order <= 0 && names.length > 0) return undefined
      const name = text.slice(start, nameEnd)
      if (name === hashField) return undefined
      previousStart = start
      previousEnd = nameEnd
      names.push(name)
      at = writeStringHeader(target, at, nameEnd - start)
      for (let j = start; j < nameEnd; j++) target[at++] = body[j]
      at = writeStringEnd(target, at)
      if (baseEnd !== -1) {
        listTexts = []
        texts.push(listTexts)
        target[at++] = 0x61 // a
        target[at++] = 0x3a // :
        listCountAt = at++
        target[at++] = 0x3a
        target[at++] = 0x7b // {
      }
    }
    const into = listTexts ?? texts
    if (listTexts !== null) {
      if (index !== -1 && index !== listTexts.length) return undefined
      at = writeIndex(target, at, listTexts.length)
    }
    const entities = nameEnd - start === ENTITY_DECODED_FIELD.length && text.startsWith(ENTITY_DECODED_FIELD, start)
    at = writeSortedValue(target, at, body, text, valueStart, end, encodedValue, entities, into)
    if (at < 0) return undefined
  }
  if (signature === undefined) return undefined
  if (listTexts !== null) {
    target[at++] = 0x7d
    if (listTexts.length > 9) return undefined
    target[listCountAt] = 0x30 + listTexts.length
  }
  target[at++] = 0x7d
  const headerStart = HEADER_ROOM - (4 + digitCount(names.length))
  writeArrayHeader(target, headerStart, names.length)
  const signedBytes = target.subarray(headerStart, at)
  if (!isUtf8(signedBytes)) return undefined
  return { names, texts, signedBytes, signature }
}

/**
 * Writes `s:<length>:"<bytes>";` for the value `body[start, end)`, percent-decoded when
 * `encoded`, HTML entities decoded for tx_urls (`entities`), and appends its text to `into`;
 * returns the offset after it, or -1 when the value is left to the general reader (tx_urls that is
 * not UTF-8, or that outgrows the buffer).
 */
function writeSortedValue(
  target: Buffer,
  at: number,
  body: Buffer,
  text: string,
  start: number,
  end: number,
  encoded: boolean,
  entities: boolean,
  into: string[] | Array<string | string[]>,
): number {
  // A raw value cannot hold `&` (it separates parts): only a decoded one can hold an entity.
  if (!encoded) {
    at = writeStringHeader(target, at, end - start)
    if (end - start >= NATIVE_COPY_MIN) at += body.copy(target, at, start, end)
    else for (let i = start; i < end; i++) target[at++] = body[i]
    at = writeStringEnd(target, at)
    into.push(text.slice(start, end))
    return at
  }
  // Decoded bytes are at most as many as the raw ones: decode after room for the longest
  // `s:<length>:"`, then move them back if the real length has fewer digits.
  const decodedStart = at + 4 + digitCount(end - start)
  let decodedEnd = decodedStart
  let high = 0
  let ampersand = false
  for (let i = start; i < end; i++) {
    let byte = body[i]
    if (byte === PLUS) {
      byte = 0x20
    } else if (byte === PERCENT && i + 2 < end) {
      const upper = hexDigit(body[i + 1])
      const lower = hexDigit(body[i + 2])
      if (upper >= 0 && lower >= 0) {
        byte = upper * 16 + lower
        high |= byte
        if (byte === AMPERSAND) ampersand = true
        i += 2
      }
    }
    target[decodedEnd++] = byte
  }
  const valueText = high >= 0x80 ? utf8Text(target, decodedStart, decodedEnd) : latin1Text(target, decodedStart, decodedEnd)
  if (entities && ampersand) {
    // tx_urls is signed with its HTML entities decoded (spec §6.3), from bytes that must be UTF-8.
    if (high >= 0x80 && !isUtf8(target.subarray(decodedStart, decodedEnd))) return -1
    const decoded = decodeEntities(valueText)
    if (decoded !== valueText) {
      const size = Buffer.byteLength(decoded, "utf8")
      if (at + size + 16 > target.length) return -1
      at = writeStringHeader(target, at, size)
      at += target.write(decoded, at, "utf8")
      at = writeStringEnd(target, at)
      into.push(decoded)
      return at
    }
  }
  const size = decodedEnd - decodedStart
  const valueStart = writeStringHeader(target, at, size)
  if (valueStart !== decodedStart) target.copyWithin(valueStart, decodedStart, decodedEnd)
  at = valueStart + size
  into.push(valueText)
  at = writeStringEnd(target, at)
  return at
}

/**
 * Pass 1: per non-empty part, PART_SIZE numbers: start, name end (its `=`, or the part's end),
 * end, the value's decoded byte count, flags, and the offset of `[` in the decoded name (-1 for a
 * plain name). Undefined when a name breaks the grammar.
 */
function scanParts(body: Buffer): number[] | undefined {
  const length = body.length
  const parts: number[] = []
  let start = 0
  let equals = -1
  let state = NAME_EMPTY
  let nameLength = 0
  let bracket = -1
  let size = 0
  let flags = 0
  for (let i = 0; i <= length; i++) {
    const byte = i < length ? body[i] : AMPERSAND
    if (byte === AMPERSAND) {
      if (i > start) {
        if (state !== NAME_PLAIN && state !== NAME_LIST) return undefined
        parts.push(start, equals === -1 ? i : equals, i, size, flags, bracket)
      }
      start = i + 1
      equals = -1
      state = NAME_EMPTY
      nameLength = 0
      bracket = -1
      size = 0
      flags = 0
      continue
    }
    if (equals !== -1) {
      // The value: count its decoded bytes.
      size++
      if (byte === PLUS) {
        flags |= VALUE_ENCODED
      } else if (byte === PERCENT && i + 2 < length) {
        const upper = hexDigit(body[i + 1])
        const lower = hexDigit(body[i + 2])
        if (upper >= 0 && lower >= 0) {
          flags |= upper >= 8 ? VALUE_ENCODED | VALUE_HIGH : VALUE_ENCODED
          i += 2
        }
      }
      continue
    }
    if (byte === EQUALS) {
      equals = i
      continue
    }
    // The name: check its decoded bytes against the grammar.
    let decoded = byte
    if (byte === PERCENT && i + 2 < length) {
      const upper = hexDigit(body[i + 1])
      const lower = hexDigit(body[i + 2])
      if (upper >= 0 && lower >= 0) {
        decoded = upper * 16 + lower
        flags |= NAME_ENCODED
        i += 2
      }
    }
    state = nextNameState(state, decoded)
    if (state === NAME_BAD) return undefined
    if (state === NAME_INDEX && bracket === -1) bracket = nameLength
    nameLength++
  }
  return parts
}

/**
 * Decodes the HTML entities of a tx_urls value (spec §6.3): its text becomes the decoded one, and
 * its signed bytes that text's UTF-8. False when the value's bytes are not UTF-8.
 */
function decodeEntityValue(body: Buffer, value: Value): boolean {
  let text = value.text
  let bytes: Buffer | null = null
  if ((value.flags & VALUE_ENCODED) !== 0) {
    bytes = Buffer.allocUnsafe(value.size)
    decodeInto(bytes, 0, body, value.start, value.end)
    if (!isUtf8(bytes)) return false
    text = bytes.toString("utf8")
  }
  const decoded = decodeEntities(text)
  if (decoded !== text) bytes = Buffer.from(decoded, "utf8")
  if (bytes !== null) {
    value.signed = bytes
    value.size = bytes.length
  }
  value.text = decoded
  return true
}

/** Percent-decodes `source[start, end)` into `target` at `at` (`+` is a space); returns the offset after it. */
function decodeInto(target: Buffer, at: number, source: Buffer, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    let byte = source[i]
    if (byte === PLUS) {
      byte = 0x20
    } else if (byte === PERCENT && i + 2 < end) {
      const upper = hexDigit(source[i + 1])
      const lower = hexDigit(source[i + 2])
      if (upper >= 0 && lower >= 0) {
        byte = upper * 16 + lower
        i += 2
      }
    }
    target[at++] = byte
  }
  return at
}

/** Writes PHP's `s:<length>:"<bytes>";` for a value; keeps the text of an encoded one. */
function writeValue(target: Buffer, at: number, body: Buffer, value: Value): number {
  at = writeStringHeader(target, at, value.size)
  const valueStart = at
  const signed = value.signed
  if (signed !== null) {
    for (let i = 0; i < signed.length; i++) target[at++] = signed[i]
  } else if ((value.flags & VALUE_ENCODED) === 0) {
    for (let i = value.start; i < value.end; i++) target[at++] = body[i]
  } else {
    at = decodeInto(target, at, body, value.start, value.end)
    value.text = target.toString((value.flags & VALUE_HIGH) === 0 ? "latin1" : "utf8", valueStart, at)
  }
  at = writeStringEnd(target, at)
  return at
}

/**
 * Pass 2: the signed bytes (spec §6.3), `a:<count>:{` then per field its name and its value
 * (`s:…;`, or `a:<n>:{i:0;s:…;…}` for a list), then `}`.
 */
function serialize(body: Buffer, fields: readonly Field[]): Buffer {
  let size = arrayFrameSize(fields.length)
  for (const { name, value, list } of fields) {
    size += stringSize(name.length)
    if (list === null) {
      size += stringSize((value as Value).size)
    } else {
      size += arrayFrameSize(list.length)
      for (let j = 0; j < list.length; j++) size += indexSize(j) + stringSize(list[j].size)
    }
  }
  const target = Buffer.allocUnsafe(size)
  let at = writeArrayHeader(target, 0, fields.length)
  for (const { name, value, list } of fields) {
    at = writeByteString(target, at, name)
    if (list === null) {
      at = writeValue(target, at, body, value as Value)
      continue
    }
    at = writeArrayHeader(target, at, list.length)
    for (let j = 0; j < list.length; j++) {
      at = writeIndex(target, at, j)
      at = writeValue(target, at, body, list[j])
    }
    target[at++] = 0x7d // }
  }
  target[at] = 0x7d
  return target
}
