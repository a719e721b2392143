/**
 * The reader of form callbacks (spec §6.1, §6.3): `application/x-www-form-urlencoded` and
 * `multipart/form-data` bodies read into the field array a PHP receiver's `$_POST` would hold.
 *
 * Readings chosen where the spec is silent (docs/gateway-readings.md#form-callback-signature):
 * - `tx_urls` travels either as one string field (the gateway's own form, a JSON text that PHP
 *   receivers `html_entity_decode`) or as a list PHP style, `tx_urls[0]=…&tx_urls[1]=…` (what
 *   http_build_query writes); the append form `tx_urls[]=…` is read too. Each element's index must
 *   be its position: PHP keeps explicit keys, so `[1]` before `[0]` would be signed in a different
 *   order than a list has.
 * - Field names are ASCII `[A-Za-z_][A-Za-z0-9_-]*`, optionally followed by `[]` or `[n]`. PHP
 *   rewrites other names (`a.b` becomes `a_b`, ` a` becomes `a`, `12` becomes the integer key 12 and
 *   sorts differently), so a receiver cannot know what the sender signed: such a body is refused.
 * - A field given twice is refused (PHP keeps the last, other stacks the first: an ambiguity).
 * - urlencoded decoding is the WHATWG one (URLSearchParams): `+` is a space, `%XX` a byte, a `%` not
 *   followed by two hex digits stays literal, a part without `=` is a field with an empty value.
 *   PHP's php_url_decode() does exactly the same. Values must be UTF-8.
 */
import { isAscii, isUtf8 } from "node:buffer"
import busboy from "busboy"
import { decodeHTML, DecodingMode } from "entities"
import { hexDigit } from "../hex"
import { toByteString, type PhpFormField } from "../php-serialize"

/** Thrown for a body that is not a form this verifier can read unambiguously. */
export class FormSyntaxError extends Error {}

/** A form field after reading: `text` as returned, `bytes` its UTF-8 as a byte string (signed). */
export interface FormField extends PhpFormField {
  readonly text: string | string[]
}

const NAME_RE = /^([A-Za-z_][A-Za-z0-9_-]*)(?:\[([0-9]*)\])?$/
const PLAIN_NAME_RE = /^[A-Za-z_][A-Za-z0-9_-]*$/

/** The field whose HTML entities are decoded before signing (spec §6.3). */
export const ENTITY_DECODED_FIELD = "tx_urls"

/** A field name shortened and quoted for an error message (never a value). */
export function describeName(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name)
}

/** True when `name` is a form field name this module reads and writes (see the file comment). */
export function isPlainFieldName(name: string): boolean {
  return PLAIN_NAME_RE.test(name)
}

/**
 * Decodes HTML entities as the gateway's PHP does with html_entity_decode() (spec §6.3), using the
 * `entities` package in strict mode: only `;`-terminated references are decoded, as PHP requires.
 * Known differences with PHP's default (ENT_QUOTES | ENT_HTML401): HTML5-only names (`&apos;`,
 * `&sol;`, `&NewLine;`…) are decoded here and left by PHP; invalid numeric references (`&#0;`,
 * `&#128;`, surrogates) become U+FFFD or the windows-1252 character here and stay literal in PHP.
 */
export function decodeEntities(value: string): string {
  return value.indexOf("&") === -1 ? value : decodeHTML(value, DecodingMode.Strict)
}

/** Collects fields as they are read, enforcing the naming, list and duplicate rules above. */
export class FormFieldCollector {
  // Plain fields in arrays (the common case, no per-field object); lists by name.
  private readonly names: string[] = []
  private readonly texts: string[] = []
  private readonly bytes: string[] = []
  private readonly lists = new Map<string, { texts: string[]; bytes: string[] }>()

  /** Adds one field; `bytes` is the UTF-8 of `text` as a byte string when the reader has it. */
  add(rawName: string, text: string, bytes: string = toByteString(text)): void {
    if (PLAIN_NAME_RE.test(rawName)) {
      this.names.push(rawName)
      this.texts.push(text)
      this.bytes.push(bytes)
      return
    }
    const match = NAME_RE.exec(rawName)
    if (match === null) throw new FormSyntaxError(`unsupported field name ${describeName(rawName)}`)
    const name = match[1]
    const index = match[2]
    let list = this.lists.get(name)
    if (list === undefined) {
      list = { texts: [], bytes: [] }
      this.lists.set(name, list)
    }
    const position = list.texts.length
    if (index !== "" && index !== String(position)) {
      throw new FormSyntaxError(`list field ${describeName(name)} has index [${index}] where [${position}] was expected`)
    }
    list.texts.push(text)
    list.bytes.push(bytes)
  }

  /** The fields sorted by name in byte order, as PHP's ksort() orders these (all non-numeric) keys. */
  finish(): FormField[] {
    const { names, texts, bytes, lists } = this
    const count = names.length
    // Insertion sort of the indexes by name: linear when the sender already sorted its fields (as
    // the signature does), and a few hundred comparisons at worst for a callback's two dozen.
    // Names are ASCII: comparing JS strings is comparing their bytes.
    const order: number[] = new Array<number>(count)
    for (let i = 0; i < count; i++) {
      let j = i
      while (j > 0 && names[order[j - 1]] > names[i]) {
        order[j] = order[j - 1]
        j--
      }
      order[j] = i
    }
    const out: FormField[] = []
    let previous = ""
    for (let k = 0; k < count; k++) {
      const i = order[k]
      const name = names[i]
      if (name === previous) throw new FormSyntaxError(`field ${describeName(name)} is given more than once`)
      if (lists.has(name)) throw new FormSyntaxError(`field ${describeName(name)} is given both as a value and as a list`)
      previous = name
      if (name === ENTITY_DECODED_FIELD) {
        const decoded = decodeEntities(texts[i])
        out.push({ name, text: decoded, bytes: decoded === texts[i] ? bytes[i] : toByteString(decoded) })
      } else {
        out.push({ name, text: texts[i], bytes: bytes[i] })
      }
    }
    if (lists.size > 0) {
      for (const [name, list] of lists) {
        if (name === ENTITY_DECODED_FIELD) {
          for (let i = 0; i < list.texts.length; i++) {
            const decoded = decodeEntities(list.texts[i])
            if (decoded !== list.texts[i]) {
              list.texts[i] = decoded
              list.bytes[i] = toByteString(decoded)
            }
          }
        }
        let j = out.length
        while (j > 0 && out[j - 1].name > name) j--
        out.splice(j, 0, { name, text: list.texts, bytes: list.bytes })
      }
    }
    return out
  }
}

/** Percent-decodes body[start, end) (`+` is a space); a view of the body when nothing is encoded. */
function percentDecode(body: Buffer, start: number, end: number): Buffer {
  let i = start
  while (i < end) {
    const byte = body[i]
    if (byte === 0x25 || byte === 0x2b) break
    i++
  }
  if (i === end) return body.subarray(start, end)
  const out = Buffer.allocUnsafe(end - start)
  let length = body.copy(out, 0, start, i)
  let highByte = false
  while (i < end) {
    const byte = body[i]
    if (byte === 0x2b) {
      out[length++] = 0x20
      i++
      continue
    }
    if (byte === 0x25 && i + 2 < end) {
      const high = hexDigit(body[i + 1])
      const low = hexDigit(body[i + 2])
      if (high >= 0 && low >= 0) {
        const decoded = high * 16 + low
        if (decoded >= 0x80) highByte = true
        out[length++] = decoded
        i += 3
        continue
      }
    }
    if (byte >= 0x80) highByte = true
    out[length++] = byte
    i++
  }
  const decoded = out.subarray(0, length)
  if (highByte && !isUtf8(decoded)) throw new FormSyntaxError("a percent-encoded field is not valid UTF-8")
  return decoded
}

/** Reads an `application/x-www-form-urlencoded` body into `collector`. */
export function readUrlencodedForm(body: Buffer, collector: FormFieldCollector): void {
  if (isAscii(body)) {
    readAsciiUrlencodedForm(body.toString("latin1"), collector)
    return
  }
  // Raw (not percent-encoded) bytes must be UTF-8 too; percentDecode checks what it decodes.
  if (!isUtf8(body)) throw new FormSyntaxError("the body is not valid UTF-8")
  readBinaryUrlencodedForm(body, collector)
}

/**
 * The usual case, an all-ASCII body, read as a string. A value is percent-decoded to a byte string
 * (one char per byte) with `unescape`, whose %XX decoding is exactly the WHATWG/PHP one: a `%` not
 * followed by two hex digits stays literal. Its only extra, `%uXXXX`, is not PHP's: a part holding
 * `%u` is decoded byte by byte instead. Bytes >= 0x80 must then form UTF-8.
 */
function readAsciiUrlencodedForm(body: string, collector: FormFieldCollector): void {
  // One pass over the chars: for each part, where its '=' is and whether its name or value holds
  // a '+' or a '%' (most hold neither, and are then plain slices of the body).
  const length = body.length
  let start = 0
  let equals = -1
  let nameEncoded = false
  let valueEncoded = false
  for (let i = 0; i <= length; i++) {
    const code = i < length ? body.charCodeAt(i) : 0x26
    if (code === 0x26) {
      if (i > start) {
        const nameEnd = equals === -1 ? i : equals
        const rawName = body.slice(start, nameEnd)
        const name = nameEncoded ? decodeAsciiBytes(rawName) : rawName
        if (equals === -1) {
          collector.add(name, "", "")
        } else {
          const rawValue = body.slice(equals + 1, i)
          if (valueEncoded) {
            const bytes = decodeAsciiBytes(rawValue)
            collector.add(name, textOfBytes(bytes), bytes)
          } else {
            collector.add(name, rawValue, rawValue)
          }
        }
      }
      start = i + 1
      equals = -1
      nameEncoded = false
      valueEncoded = false
    } else if (code === 0x3d) {
      if (equals === -1) equals = i
    } else if (code === 0x25 || code === 0x2b) {
      if (equals === -1) nameEncoded = true
      else valueEncoded = true
    }
  }
}

const HIGH_CHAR_RE = /[\u0080-\u00ff]/

/** Percent-decodes one name or value of an ASCII urlencoded body to a byte string. */
function decodeAsciiBytes(raw: string): string {
  const spaced = raw.indexOf("+") === -1 ? raw : raw.replaceAll("+", " ")
  if (spaced.indexOf("%") === -1) return spaced
  return spaced.indexOf("%u") === -1 && spaced.indexOf("%U") === -1
    ? unescape(spaced)
    : percentDecode(Buffer.from(raw, "latin1"), 0, raw.length).toString("latin1")
}

/** The text a byte string stands for; bytes >= 0x80 must form UTF-8. */
function textOfBytes(bytes: string): string {
  if (!HIGH_CHAR_RE.test(bytes)) return bytes
  const utf8 = Buffer.from(bytes, "latin1")
  if (!isUtf8(utf8)) throw new FormSyntaxError("a percent-encoded field is not valid UTF-8")
  return utf8.toString("utf8")
}

function readBinaryUrlencodedForm(body: Buffer, collector: FormFieldCollector): void {
  const length = body.length
  let start = 0
  while (start < length) {
    let end = start
    let equals = -1
    while (end < length) {
      const byte = body[end]
      if (byte === 0x26) break
      if (byte === 0x3d && equals === -1) equals = end
      end++
    }
    if (end > start) {
      const nameEnd = equals === -1 ? end : equals
      const name = percentDecode(body, start, nameEnd).toString("utf8")
      const bytes = equals === -1 ? Buffer.alloc(0) : percentDecode(body, equals + 1, end)
      collector.add(name, bytes.toString("utf8"), bytes.toString("latin1"))
    }
    start = end + 1
  }
}

/** Reads a `multipart/form-data` body into `collector` with busboy; `contentType` carries the boundary. */
export function readMultipartForm(body: Buffer, contentType: string, collector: FormFieldCollector): void {
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // Field names are UTF-8 (busboy's default reads parameters as latin1).
      defParamCharset: "utf8",
      limits: { fieldSize: body.length + 1, fieldNameSize: 1024 },
    })
  } catch (error) {
    throw new FormSyntaxError(error instanceof Error ? error.message : "unreadable multipart content type")
  }
  let failure: string | null = null
  const fail = (message: string): void => {
    if (failure === null) failure = message
  }
  parser.on("field", (name: string | undefined, value: string, info: busboy.FieldInfo) => {
    if (failure !== null) return
    if (name === undefined) return fail("a multipart part has no field name")
    if (info.valueTruncated || info.nameTruncated) return fail(`field ${describeName(name)} is too long`)
    try {
      collector.add(name, value)
    } catch (error) {
      fail(error instanceof Error ? error.message : "unreadable field")
    }
  })
  // A file part lands in PHP's $_FILES, outside the signed $_POST: a callback never carries one.
  parser.on("file", (name: string | undefined, stream: NodeJS.ReadableStream) => {
    stream.resume()
    fail(`part ${describeName(name ?? "")} is a file, not a field`)
  })
  // busboy reports some errors synchronously through 'error' and others by destroying itself
  // (`errored`); the listener also keeps a late 'error' event from crashing the process.
  parser.on("error", (error: unknown) => fail(error instanceof Error ? error.message : "unreadable multipart body"))
  parser.end(body)
  const errored = parser.errored
  if (errored !== null) fail(errored.message)
  if (failure !== null) throw new FormSyntaxError(failure)
}
