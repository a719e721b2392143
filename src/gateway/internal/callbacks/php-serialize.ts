/**
 * The one writer of PHP `serialize()` in the callback codec: the bytes a form callback's HMAC
 * covers (spec §6.3), i.e. `serialize()` of the array a PHP receiver's `$_POST` holds, with string
 * keys whose values are strings or lists of strings. The form verifier and the signer both call
 * `serializeFormFields`.
 *
 * The format, as PHP writes it (checked against PHP 8.2 by scripts/make-callback-vectors.php):
 *   string  s:<length in BYTES>:"<bytes>";
 *   list    a:<count>:{i:0;<string>i:1;<string>...}     (no ';' after '}')
 *   array   a:<count>:{<key><value>...}
 * PHP strings are bytes, and lengths count bytes: "é" is `s:2:"é";`. Values here are "byte
 * strings": one JS char per byte (latin1), so their `.length` is the byte length and writing them
 * as latin1 gives back exactly those bytes.
 */

/** One field of the PHP array: its name (ASCII) and its value as byte strings. */
export interface PhpFormField {
  readonly name: string
  readonly bytes: string | readonly string[]
}

const NON_ASCII_RE = /[^\u0000-\u007f]/

/** The UTF-8 bytes of `text` as a byte string (itself when `text` is ASCII). */
export function toByteString(text: string): string {
  return NON_ASCII_RE.test(text) ? Buffer.from(text, "utf8").toString("latin1") : text
}

/** Decimal digits of a non-negative integer below 10^8 (a body is at most 1 MiB). */
export function digitCount(value: number): number {
  if (value < 10) return 1
  if (value < 100) return 2
  if (value < 1000) return 3
  if (value < 10000) return 4
  if (value < 100000) return 5
  if (value < 1000000) return 6
  if (value < 10000000) return 7
  return 8
}

/** Writes the decimal digits of a non-negative integer at `at`; returns the offset after them. */
export function writeNumber(target: Buffer, at: number, value: number): number {
  const end = at + digitCount(value)
  let rest = value
  for (let i = end - 1; i >= at; i--) {
    const next = (rest / 10) | 0
    target[i] = 0x30 + rest - next * 10
    rest = next
  }
  return end
}

/** Writes `a:<count>:{` (an array's start); returns the offset after it. */
export function writeArrayHeader(target: Buffer, at: number, count: number): number {
  target[at++] = 0x61 // a
  target[at++] = 0x3a // :
  at = writeNumber(target, at, count)
  target[at++] = 0x3a
  target[at++] = 0x7b // {
  return at
}

/** The size of `a:<count>:{` plus its closing `}`. */
export function arrayFrameSize(count: number): number {
  return digitCount(count) + 5
}

/** Writes `i:<index>;` (a list element's key); returns the offset after it. */
export function writeIndex(target: Buffer, at: number, index: number): number {
  target[at++] = 0x69 // i
  target[at++] = 0x3a // :
  at = writeNumber(target, at, index)
  target[at++] = 0x3b // ;
  return at
}

/** The size of `i:<index>;`. */
export function indexSize(index: number): number {
  return digitCount(index) + 3
}

/** Writes PHP's `s:<length>:"` (the start of a string); returns the offset after it. */
export function writeStringHeader(target: Buffer, at: number, length: number): number {
  target[at++] = 0x73 // s
  target[at++] = 0x3a // :
  at = writeNumber(target, at, length)
  target[at++] = 0x3a
  target[at++] = 0x22 // "
  return at
}

/** Writes `";`, the end of a string; returns the offset after it. */
export function writeStringEnd(target: Buffer, at: number): number {
  target[at++] = 0x22
  target[at++] = 0x3b
  return at
}

/** The size of PHP's `s:<length>:"<bytes>";` for `length` bytes. */
export function stringSize(length: number): number {
  return length + digitCount(length) + 6
}

/** Writes `s:<length>:"<bytes>";` for a byte string; returns the offset after it. */
export function writeByteString(target: Buffer, at: number, bytes: string): number {
  at = writeStringHeader(target, at, bytes.length)
  // Short strings (names, most values) are copied faster in JS than through the native write.
  if (bytes.length < 32) for (let i = 0; i < bytes.length; i++) target[at++] = bytes.charCodeAt(i)
  else at += target.write(bytes, at, "latin1")
  return writeStringEnd(target, at)
}

/**
 * `serialize()` of the array `fields` describes, in the order given (sort first: PHP's ksort is the
 * caller's job): the bytes the HMAC covers.
 */
export function serializeFormFields(fields: readonly PhpFormField[]): Buffer {
  let size = arrayFrameSize(fields.length)
  for (const { name, bytes } of fields) {
    size += stringSize(name.length)
    if (typeof bytes === "string") {
      size += stringSize(bytes.length)
    } else {
      size += arrayFrameSize(bytes.length)
      for (let j = 0; j < bytes.length; j++) size += indexSize(j) + stringSize(bytes[j].length)
    }
  }
  const target = Buffer.allocUnsafe(size)
  let at = writeArrayHeader(target, 0, fields.length)
  for (const { name, bytes } of fields) {
    at = writeByteString(target, at, name)
    if (typeof bytes === "string") {
      at = writeByteString(target, at, bytes)
      continue
    }
    at = writeArrayHeader(target, at, bytes.length)
    for (let j = 0; j < bytes.length; j++) {
      at = writeIndex(target, at, j)
      at = writeByteString(target, at, bytes[j])
    }
    target[at++] = 0x7d // }
  }
  target[at] = 0x7d
  return target
}
