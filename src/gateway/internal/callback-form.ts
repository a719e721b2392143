/**
 * Form callbacks (spec §6.1, §6.3): reading `application/x-www-form-urlencoded` and
 * `multipart/form-data` bodies into the field array a PHP receiver's `$_POST` would hold, and
 * writing such bodies for the signer.
 *
 * Readings chosen where the spec is silent (README "Callback verification"):
 * - A list travels PHP style, `tx_urls[0]=…&tx_urls[1]=…` (what http_build_query writes); the
 *   append form `tx_urls[]=…` is read too. Each element's index must be its position: PHP keeps
 *   explicit keys, so `[1]` before `[0]` would be signed in a different order than a list has.
 * - Field names are ASCII `[A-Za-z_][A-Za-z0-9_-]*`, optionally followed by `[]` or `[n]`. PHP
 *   rewrites other names (`a.b` becomes `a_b`, ` a` becomes `a`, `12` becomes the integer key 12 and
 *   sorts differently), so a receiver cannot know what the sender signed: such a body is refused.
 * - A field given twice is refused (PHP keeps the last, other stacks the first: an ambiguity).
 * - urlencoded decoding is the WHATWG one (URLSearchParams): `+` is a space, `%XX` a byte, a `%` not
 *   followed by two hex digits stays literal, a part without `=` is a field with an empty value.
 *   PHP's php_url_decode() does exactly the same. Values must be UTF-8.
 */
import { isUtf8 } from "node:buffer"
import busboy from "busboy"
import { decodeHTML, DecodingMode } from "entities"
import { phpSerializeFormFields, type PhpFormField } from "./php-serialize"

/** Thrown for a body that is not a form this verifier can read unambiguously. */
export class FormSyntaxError extends Error {}

/** A form field after reading: `value` as the receiver sees it, `bytes` as PHP would sign them. */
export interface FormField extends PhpFormField {
  readonly value: Buffer | readonly Buffer[]
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

interface PendingField {
  scalar: { text: string; bytes: Buffer } | null
  list: { texts: string[]; bytes: Buffer[] } | null
}

/** Collects fields as they are read, enforcing the naming, list and duplicate rules above. */
export class FormFieldCollector {
  private readonly fields = new Map<string, PendingField>()

  add(rawName: string, text: string, bytes: Buffer): void {
    const match = NAME_RE.exec(rawName)
    if (match === null) throw new FormSyntaxError(`unsupported field name ${describeName(rawName)}`)
    const name = match[1]
    const index = match[2]
    let pending = this.fields.get(name)
    if (pending === undefined) {
      pending = { scalar: null, list: null }
      this.fields.set(name, pending)
    }
    if (index === undefined) {
      if (pending.scalar !== null || pending.list !== null) {
        throw new FormSyntaxError(`field ${describeName(name)} is given more than once`)
      }
      pending.scalar = { text, bytes }
      return
    }
    if (pending.scalar !== null) {
      throw new FormSyntaxError(`field ${describeName(name)} is given both as a value and as a list`)
    }
    if (pending.list === null) pending.list = { texts: [], bytes: [] }
    const position = pending.list.texts.length
    if (index !== "" && index !== String(position)) {
      throw new FormSyntaxError(`list field ${describeName(name)} has index [${index}] where [${position}] was expected`)
    }
    pending.list.texts.push(text)
    pending.list.bytes.push(bytes)
  }

  /** The fields sorted by name in byte order, as PHP's ksort() orders these (all non-numeric) keys. */
  finish(): FormField[] {
    const names = [...this.fields.keys()].sort()
    const out: FormField[] = []
    for (const name of names) {
      const pending = this.fields.get(name) as PendingField
      const decode = name === ENTITY_DECODED_FIELD
      if (pending.scalar !== null) {
        const { text, bytes } = pending.scalar
        const decoded = decode ? decodeEntities(text) : text
        out.push({ name, text: decoded, value: decoded === text ? bytes : Buffer.from(decoded, "utf8") })
      } else if (pending.list !== null) {
        const texts = pending.list.texts
        const values = pending.list.bytes
        if (decode) {
          for (let i = 0; i < texts.length; i++) {
            const decoded = decodeEntities(texts[i])
            if (decoded !== texts[i]) {
              texts[i] = decoded
              values[i] = Buffer.from(decoded, "utf8")
            }
          }
        }
        out.push({ name, text: texts, value: values })
      }
    }
    return out
  }
}

function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37
  return -1
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
  // Raw (not percent-encoded) bytes must be UTF-8 too; percentDecode checks what it decodes.
  if (!isUtf8(body)) throw new FormSyntaxError("the body is not valid UTF-8")
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
      collector.add(name, bytes.toString("utf8"), bytes)
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
      collector.add(name, value, Buffer.from(value, "utf8"))
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

/** The canonical bytes the HMAC covers for a form callback (spec §6.3). */
export function formSigningBytes(fields: readonly FormField[]): Buffer {
  return phpSerializeFormFields(fields)
}

/** One field to write: a scalar or a list. */
export interface FormFieldToWrite {
  readonly name: string
  readonly value: string | readonly string[]
}

function flatten(fields: readonly FormFieldToWrite[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (const field of fields) {
    if (typeof field.value === "string") {
      pairs.push([field.name, field.value])
    } else {
      field.value.forEach((item, index) => pairs.push([`${field.name}[${index}]`, item]))
    }
  }
  return pairs
}

/** Writes an urlencoded body (WHATWG serializer: spaces as `+`, brackets percent-encoded). */
export function writeUrlencodedBody(fields: readonly FormFieldToWrite[]): Buffer {
  return Buffer.from(new URLSearchParams(flatten(fields)).toString(), "utf8")
}

/** Writes a multipart/form-data body with the given boundary (one text part per field or element). */
export function writeMultipartBody(fields: readonly FormFieldToWrite[], boundary: string): Buffer {
  const chunks: string[] = []
  for (const [name, value] of flatten(fields)) {
    chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  }
  chunks.push(`--${boundary}--\r\n`)
  return Buffer.from(chunks.join(""), "utf8")
}
