/**
 * Callback verification and signing (spec §6, NOTES.md "Callbacks").
 *
 * `verifyCallback` checks the `verify_hash` of a callback body exactly as spec §6.3 says and returns
 * the fields that were signed, nothing else. `signCallback` is the same canonicalization run the other
 * way, so the sandbox and the tests sign exactly as the verifier verifies (the stripe-node model).
 *
 * Readings chosen where the spec is silent (the README's "Callback verification" repeats them):
 * - Form bodies (urlencoded and multipart) are read into the array PHP's `$_POST` would hold; lists
 *   travel as `tx_urls[0]=…&tx_urls[1]=…` (`tx_urls[]=` is read too). The HMAC covers PHP
 *   `serialize()` of the fields sorted by name, with HTML entities of `tx_urls` decoded (strict HTML
 *   decoding by the `entities` package: only `;`-terminated references). The returned `tx_urls` is
 *   the DECODED value, the one the signature covers: `a&amp;b` and `a&b` sign alike, so returning the
 *   raw text would let a sender change it without the key.
 * - JSON bodies: accepted when the HMAC matches the compact serialization of the received object
 *   (without `verify_hash`, key order kept, numbers as their received lexeme) in any gateway
 *   serializer's escaping: `/` raw or `\/`, non-ASCII raw or `\uXXXX` (plus PHP's escaping of
 *   U+2028/U+2029 in raw mode and Python's escaping of DEL in escaped mode). Every variant needs the
 *   key, so accepting several weakens nothing. Duplicate keys, unpaired surrogates and invalid UTF-8
 *   are refused as malformed: each would make "the signed fields" ambiguous.
 * - `verify_hash` is 40 hex digits; upper-case hex is accepted (the bytes are compared, in constant
 *   time). An empty `verify_hash` counts as missing.
 * - A body over 1 MiB is refused before it is read, with reason `malformed_body`.
 */
import { createHmac, randomBytes, timingSafeEqual, type Hmac } from "node:crypto"
import { isAscii, isUtf8 } from "node:buffer"
import { GatewayError } from "./errors"
import { classifyContentType } from "../internal/callback-content-type"
import { buildFieldObject } from "../internal/callback-object"
import { toByteString } from "../internal/php-serialize"
import { readSortedUrlencoded, readUrlencodedFast } from "../internal/callback-urlencoded"
import {
  describeName,
  ENTITY_DECODED_FIELD,
  FormFieldCollector,
  formSigningText,
  FormSyntaxError,
  isPlainFieldName,
  readMultipartForm,
  readUrlencodedForm,
  writeMultipartBody,
  writeUrlencodedBody,
  decodeEntities,
  type FormField,
  type FormFieldToWrite,
} from "../internal/callback-form"
import {
  defineField,
  findTrailingSignature,
  hasUnpairedSurrogate,
  isJsonNumberLexeme,
  JsonSyntaxError,
  markNumber,
  parseJsonCallback,
  readSignedJsonText,
  writeCompactJson,
  type JsonDocument,
  type JsonEscapeStyle,
  type JsonObject,
  type JsonValue,
} from "../internal/callback-json"

/** Largest callback body read, in bytes; larger bodies are refused before parsing. */
export const MAX_CALLBACK_BODY_BYTES = 1024 * 1024

/** The field that carries the signature (spec §5.5, §6.3). */
export const VERIFY_HASH_FIELD = "verify_hash"

/** Why a callback was refused. */
export type CallbackVerificationReason =
  | "missing_signature"
  | "bad_signature"
  | "malformed_body"
  | "unsupported_content_type"

/**
 * A callback that must not be trusted. `reason` says why; the message names the field or the
 * problem but never holds the secret key or the body.
 */
export class CallbackVerificationError extends GatewayError {
  readonly reason: CallbackVerificationReason

  constructor(reason: CallbackVerificationReason, message: string) {
    super(message)
    this.reason = reason
  }
}

/**
 * A field value as verified. Form callbacks give strings, and string lists for list fields
 * (`tx_urls`). JSON callbacks give every JSON value: numbers as their exact received lexeme (a
 * string such as `"0.00000001"`, never a JS number), strings, booleans, null, arrays and objects.
 */
export type CallbackValue = string | boolean | null | CallbackValue[] | { [key: string]: CallbackValue }

/** The signed fields of a callback, `verify_hash` excluded. */
export type CallbackFields = { [name: string]: CallbackValue }

/** A verified callback: its body format and the fields its signature covers. */
export interface VerifiedCallback {
  readonly format: "form" | "json"
  readonly fields: CallbackFields
}

export interface VerifyCallbackInput {
  /** The raw request body, exactly as received (not a parsed object). */
  readonly body: Buffer | Uint8Array | string
  /** The request's Content-Type header, parameters included. */
  readonly contentType: string | undefined
  /** The shop secret key (spec §5.5). */
  readonly secretKey: string
}

/**
 * Verifies a callback (spec §6.3) and returns the fields its signature covers.
 * Throws CallbackVerificationError when the callback must not be trusted.
 */
export function verifyCallback(input: VerifyCallbackInput): VerifiedCallback {
  const secretKey = requireSecretKey(input.secretKey)
  const body = readBody(input.body)
  const contentType = input.contentType
  if (typeof contentType !== "string" || contentType.trim() === "") {
    throw new CallbackVerificationError("unsupported_content_type", "the callback has no content type")
  }
  const reading = classifyContentType(contentType)
  if (!reading.ok) throw new CallbackVerificationError("unsupported_content_type", reading.problem)
  if (reading.kind === "json") return verifyJson(body, secretKey)
  return verifyForm(body, reading.kind === "multipart" ? contentType : null, secretKey)
}

function requireSecretKey(secretKey: unknown): string {
  // An empty key would let anyone sign: a configuration error, not a bad callback.
  if (typeof secretKey !== "string" || secretKey.length === 0) {
    throw new TypeError("secretKey must be a non-empty string")
  }
  return secretKey
}

function tooLarge(size: string): CallbackVerificationError {
  return new CallbackVerificationError(
    "malformed_body",
    `the callback body is too large: ${size} bytes, the limit is ${MAX_CALLBACK_BODY_BYTES}`,
  )
}

function readBody(body: unknown): Buffer {
  if (typeof body === "string") {
    // UTF-16 length <= UTF-8 length: a string this long is over the limit without encoding it.
    if (body.length > MAX_CALLBACK_BODY_BYTES) throw tooLarge(`more than ${MAX_CALLBACK_BODY_BYTES}`)
    if (hasUnpairedSurrogate(body)) {
      throw new CallbackVerificationError("malformed_body", "the callback body holds an unpaired surrogate")
    }
    const bytes = Buffer.from(body, "utf8")
    if (bytes.length > MAX_CALLBACK_BODY_BYTES) throw tooLarge(String(bytes.length))
    return bytes
  }
  if (body instanceof Uint8Array) {
    if (body.length > MAX_CALLBACK_BODY_BYTES) throw tooLarge(String(body.length))
    return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.length)
  }
  throw new CallbackVerificationError("malformed_body", "the callback body must be the raw bytes (a Buffer or a string)")
}

function hexDigitValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  if (code >= 0x61 && code <= 0x66) return code - 0x57
  if (code >= 0x41 && code <= 0x46) return code - 0x37
  return -1
}

/** The 20 bytes of a 40-hex-digit `verify_hash` (either case); undefined for any other text. */
function hexDigest(value: string): Buffer | undefined {
  if (value.length !== 40) return undefined
  const digest = Buffer.allocUnsafe(20)
  for (let i = 0; i < 20; i++) {
    const high = hexDigitValue(value.charCodeAt(2 * i))
    const low = hexDigitValue(value.charCodeAt(2 * i + 1))
    if (high < 0 || low < 0) return undefined
    digest[i] = high * 16 + low
  }
  return digest
}

/** The 20 bytes a `verify_hash` stands for, or a failure. */
function readVerifyHash(value: unknown): Buffer {
  if (value === "") {
    throw new CallbackVerificationError("missing_signature", "the callback's verify_hash is empty")
  }
  if (typeof value !== "string") {
    throw new CallbackVerificationError("bad_signature", "the callback's verify_hash is not a string")
  }
  const digest = hexDigest(value)
  if (digest === undefined) {
    throw new CallbackVerificationError("bad_signature", "the callback's verify_hash is not 40 hexadecimal digits")
  }
  return digest
}

function badSignature(): CallbackVerificationError {
  return new CallbackVerificationError("bad_signature", "the callback's verify_hash does not match its fields")
}

/**
 * A fresh HMAC-SHA1 (spec §6.3) keyed with the shop secret. Nothing is cached between calls: no
 * secret or key object outlives the call that used it.
 */
function hmacSha1(secretKey: string): Hmac {
  return createHmac("sha1", secretKey)
}

function hmacOf(secretKey: string, data: Buffer): Buffer {
  return hmacSha1(secretKey).update(data).digest()
}

// ---- JSON (spec §6.3, second bullet) ----

/** The writer styles tried, most common first (NOTES.md "Callbacks": four variants, plus two edges). */
const JSON_STYLES: readonly JsonEscapeStyle[] = [
  { escapeSlashes: false, unicode: "raw" },
  { escapeSlashes: true, unicode: "escaped" },
  { escapeSlashes: false, unicode: "escaped" },
  { escapeSlashes: true, unicode: "raw" },
  { escapeSlashes: true, unicode: "raw-php" },
  { escapeSlashes: false, unicode: "raw-php" },
  { escapeSlashes: false, unicode: "escaped-python" },
  { escapeSlashes: true, unicode: "escaped-python" },
]

function verifyJson(body: Buffer, secretKey: string): VerifiedCallback {
  if (!isUtf8(body)) throw new CallbackVerificationError("malformed_body", "the JSON callback is not valid UTF-8")

  // Fast path: most bodies arrive exactly as they were signed, verify_hash last (issue 2 §4). The
  // HMAC covers the received bytes with only that member (and its comma) removed, fed in two
  // pieces, before anything is parsed. Only on a match are the fields read, and from exactly those
  // verified bytes: nothing outside them can reach the fields.
  const trailing = findTrailingSignature(body, VERIFY_HASH_FIELD)
  if (trailing !== undefined) {
    const { cutStart, expected } = trailing
    // The signed text is the body up to the member's comma, closed by `}`: fed to the HMAC in two
    // pieces, with no copy (measured cheaper than a copied buffer or a latin1 string).
    const digest = hmacSha1(secretKey).update(body.subarray(0, cutStart)).update(CLOSING_BRACE).digest()
    if (timingSafeEqual(digest, expected)) return { format: "json", fields: fieldsOfSignedJson(body, cutStart) }
  }

  let parsed
  try {
    parsed = parseJsonCallback(body, VERIFY_HASH_FIELD)
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      throw new CallbackVerificationError("malformed_body", `the JSON callback is not readable: ${error.message}`)
    }
    throw error
  }
  const { root, omitted, cutStart, cutEnd } = parsed
  if (omitted === undefined) throw new CallbackVerificationError("missing_signature", "the callback has no verify_hash")
  // The fields returned are the signed ones: the parse keeps verify_hash out of them.
  const expected = readVerifyHash(omitted)

  // The received bytes without the verify_hash member, wherever it stands (the fast path above
  // takes only the last member): cut it (and one comma) out at the offsets the strict parse found.
  const signedBytes = Buffer.allocUnsafe(body.length - (cutEnd - cutStart))
  body.copy(signedBytes, 0, 0, cutStart)
  body.copy(signedBytes, cutStart, cutEnd)
  if (timingSafeEqual(hmacOf(secretKey, signedBytes), expected)) return { format: "json", fields: root }

  // Slow path: the body was re-encoded in transit (whitespace, other escapes). Re-serialize the
  // parsed object compactly in each serializer's style (spec §6.3, NOTES.md) and try each.
  const tried = new Set<string>()
  for (const style of JSON_STYLES) {
    const text = writeCompactJson(parsed, style, VERIFY_HASH_FIELD)
    if (tried.has(text)) continue
    tried.add(text)
    const digest = hmacOf(secretKey, Buffer.from(text, "utf8"))
    if (timingSafeEqual(digest, expected)) return { format: "json", fields: root }
  }
  throw badSignature()
}

/** The `}` that closes the signed text of a body whose trailing signature member is cut off. */
const CLOSING_BRACE = Buffer.from("}")

/**
 * The fields of a signed text: a body ending with its signature member, without that member and
 * its comma (the body's first `cutStart` bytes, then `}`). Such a body is valid JSON exactly when
 * this text is one JSON object with at least one member and no member named verify_hash
 * (findTrailingSignature), so refusing any other text refuses exactly what the strict reading of
 * the whole body refuses.
 */
function fieldsOfSignedJson(body: Buffer, cutStart: number): JsonObject {
  const fast = readSignedJsonText(body, cutStart, VERIFY_HASH_FIELD)
  if (fast !== undefined) return fast
  const signed = Buffer.concat([body.subarray(0, cutStart), CLOSING_BRACE])
  let parsed
  try {
    parsed = parseJsonCallback(signed, VERIFY_HASH_FIELD)
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      throw new CallbackVerificationError("malformed_body", `the JSON callback is not readable: ${error.message}`)
    }
    throw error
  }
  if (parsed.omitted !== undefined) {
    throw new CallbackVerificationError("malformed_body", "the JSON callback is not readable: duplicate member name verify_hash")
  }
  if (Object.keys(parsed.root).length === 0) {
    throw new CallbackVerificationError("malformed_body", "the JSON callback is not readable: a comma opens the object")
  }
  return parsed.root
}

// ---- Forms (spec §6.3, first bullet) ----

function verifyForm(body: Buffer, multipartContentType: string | null, secretKey: string): VerifiedCallback {
  // Fast path for the usual urlencoded body: one pass to the signed text, one HMAC. It reads a
  // body exactly as the general reader below does, or leaves it to that reader.
  if (multipartContentType === null && isAscii(body)) {
    const reading = readSortedUrlencoded(body, VERIFY_HASH_FIELD) ?? readUrlencodedFast(body, VERIFY_HASH_FIELD)
    const expected = reading === undefined ? undefined : hexDigest(reading.signature)
    if (reading !== undefined && expected !== undefined) {
      const digest = hmacSha1(secretKey).update(reading.signedBytes).digest()
      if (timingSafeEqual(digest, expected)) {
        return { format: "form", fields: buildFieldObject(reading.names, reading.texts).object }
      }
    }
  }
  const collector = new FormFieldCollector()
  let all: FormField[]
  try {
    if (multipartContentType === null) readUrlencodedForm(body, collector)
    else readMultipartForm(body, multipartContentType, collector)
    all = collector.finish()
  } catch (error) {
    if (error instanceof FormSyntaxError) {
      throw new CallbackVerificationError("malformed_body", `the form callback is not readable: ${error.message}`)
    }
    throw error
  }
  const hashIndex = all.findIndex((field) => field.name === VERIFY_HASH_FIELD)
  if (hashIndex === -1) throw new CallbackVerificationError("missing_signature", "the callback has no verify_hash")
  const hashField = all[hashIndex]
  if (typeof hashField.text !== "string") {
    throw new CallbackVerificationError("malformed_body", "the callback's verify_hash is a list")
  }
  const expected = readVerifyHash(hashField.text)
  const signedFields = all.filter((_, i) => i !== hashIndex)
  const digest = hmacSha1(secretKey).update(formSigningText(signedFields), "latin1").digest()
  if (!timingSafeEqual(digest, expected)) throw badSignature()
  return { format: "form", fields: formFields(signedFields) }
}

function formFields(fields: readonly FormField[]): CallbackFields {
  // Names are distinct and never integer-like (the form reader's rules).
  return buildFieldObject(
    fields.map((field) => field.name),
    fields.map((field) => field.text),
  ).object
}

// ---- Signing ----

/**
 * A JSON number given by its exact text, for signing amounts without a float
 * (`new CallbackNumber("0.00000001")`). The verifier returns it as that same text.
 */
export class CallbackNumber {
  readonly lexeme: string

  constructor(lexeme: string) {
    if (!isJsonNumberLexeme(lexeme)) throw new TypeError(`${JSON.stringify(lexeme)} is not a JSON number`)
    this.lexeme = lexeme
  }
}

/**
 * A value to sign. JS numbers are accepted only as safe integers (confirmations, timestamps);
 * amounts go as strings or CallbackNumber. Form bodies take strings, numbers (written as their
 * decimal text, as spec §6.3 wants for `expire_utc`) and lists of those.
 */
export type CallbackInputValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | CallbackNumber
  | readonly CallbackInputValue[]
  | { readonly [key: string]: CallbackInputValue }

export type CallbackInputFields = { readonly [name: string]: CallbackInputValue }

/** Body formats the signer writes. `"form"` is urlencoded. */
export type CallbackSignFormat = "json" | "urlencoded" | "multipart" | "form"

export interface SignCallbackOptions {
  readonly secretKey: string
  readonly format: CallbackSignFormat
  /** multipart only: the boundary to use (default: a random one). */
  readonly boundary?: string
  /**
   * json only: how `/` is written. `"raw"` (default: JSON.stringify, Python, PHP with
   * JSON_UNESCAPED_SLASHES) or `"escaped"` as `\/` (PHP's default json_encode).
   */
  readonly slashes?: "raw" | "escaped"
  /**
   * json only: how non-ASCII is written. `"raw"` (default) as UTF-8 like JSON.stringify and Python
   * with ensure_ascii=False; `"escaped"` as `\uXXXX` lowercase, surrogate pairs for astral
   * characters, like PHP's default json_encode; `"raw-php"` is raw except U+2028/U+2029, like PHP
   * with JSON_UNESCAPED_UNICODE; `"escaped-python"` also escapes DEL, like Python's default.
   */
  readonly unicode?: JsonEscapeStyle["unicode"]
}

/** Everything a sender needs to post a signed callback. */
export interface SignedCallback {
  readonly body: Buffer
  readonly contentType: string
  readonly verifyHash: string
  /** The fields as verifyCallback will return them for this body. */
  readonly fields: CallbackFields
}

/**
 * Signs `fields` as the gateway does (spec §6.3) and writes the body. `verify_hash` is added by the
 * signer (last member or field); `fields` must not hold it. Throws TypeError for a value the format
 * cannot carry (a field name PHP would rewrite, an unpaired surrogate, a float, a nested form value).
 */
export function signCallback(fields: CallbackInputFields, options: SignCallbackOptions): SignedCallback {
  const secretKey = requireSecretKey(options.secretKey)
  if (Object.prototype.hasOwnProperty.call(fields, VERIFY_HASH_FIELD)) {
    throw new TypeError("fields must not contain verify_hash: the signer adds it")
  }
  switch (options.format) {
    case "json":
      return signJson(fields, options, secretKey)
    case "form":
    case "urlencoded":
    case "multipart":
      return signForm(fields, options, secretKey)
    default:
      throw new TypeError(`unknown callback format ${JSON.stringify(options.format)}`)
  }
}

function requireWellFormed(value: string, path: string): string {
  if (hasUnpairedSurrogate(value)) throw new TypeError(`${path} holds an unpaired surrogate`)
  return value
}

function scalarLexeme(value: number | bigint | CallbackNumber, path: string): string {
  if (value instanceof CallbackNumber) return value.lexeme
  if (typeof value === "bigint") return value.toString()
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(`${path} is a JS number that is not a safe integer: give it as a string or CallbackNumber`)
  }
  return String(value)
}

function toJsonValue(value: CallbackInputValue, path: string, numbers: JsonDocument["numbers"]): JsonValue {
  if (typeof value === "string") return requireWellFormed(value, path)
  if (value === null || typeof value === "boolean") return value
  if (typeof value === "number" || typeof value === "bigint" || value instanceof CallbackNumber) {
    throw new TypeError(`${path}: numbers are written by their container`)
  }
  if (Array.isArray(value)) {
    const items: JsonValue[] = []
    value.forEach((item: CallbackInputValue, i: number) => {
      if (typeof item === "number" || typeof item === "bigint" || item instanceof CallbackNumber) {
        markNumber(numbers, items, i)
        items.push(scalarLexeme(item, `${path}[${i}]`))
      } else {
        items.push(toJsonValue(item, `${path}[${i}]`, numbers))
      }
    })
    return items
  }
  const object: JsonObject = {}
  const input = value as { readonly [key: string]: CallbackInputValue }
  for (const key of Object.keys(input)) {
    requireWellFormed(key, `a key in ${path}`)
    const item = input[key]
    if (typeof item === "number" || typeof item === "bigint" || item instanceof CallbackNumber) {
      markNumber(numbers, object, key)
      defineField(object, key, scalarLexeme(item, `${path}.${key}`))
    } else {
      defineField(object, key, toJsonValue(item, `${path}.${key}`, numbers))
    }
  }
  return object
}

function signJson(fields: CallbackInputFields, options: SignCallbackOptions, secretKey: string): SignedCallback {
  const numbers: JsonDocument["numbers"] = new Map()
  const root = toJsonValue(fields, "fields", numbers) as JsonObject
  const style: JsonEscapeStyle = {
    escapeSlashes: options.slashes === "escaped",
    unicode: options.unicode ?? "raw",
  }
  const text = writeCompactJson({ root, numbers, keyOrder: new Map() }, style)
  const verifyHash = hmacOf(secretKey, Buffer.from(text, "utf8")).toString("hex")
  const member = `"${VERIFY_HASH_FIELD}":"${verifyHash}"}`
  const body = text === "{}" ? `{${member}` : `${text.slice(0, -1)},${member}`
  return {
    body: Buffer.from(body, "utf8"),
    contentType: "application/json",
    verifyHash,
    fields: root,
  }
}

function formText(value: CallbackInputValue, path: string): string {
  if (typeof value === "string") return requireWellFormed(value, path)
  if (typeof value === "number" || typeof value === "bigint" || value instanceof CallbackNumber) {
    return scalarLexeme(value, path)
  }
  throw new TypeError(`${path}: a form field holds a string, a number or a list of those`)
}

/** Multipart boundary characters (RFC 2046 bchars, without the space). */
const BOUNDARY_RE = /^[0-9A-Za-z'()+_,./:=?-]{1,70}$/

function signForm(fields: CallbackInputFields, options: SignCallbackOptions, secretKey: string): SignedCallback {
  const toWrite: FormFieldToWrite[] = []
  const signed: FormField[] = []
  const names = Object.keys(fields).sort()
  for (const name of names) {
    if (!isPlainFieldName(name)) {
      throw new TypeError(`form field name ${describeName(name)} is not [A-Za-z_][A-Za-z0-9_-]*: PHP would rewrite it`)
    }
    const raw = fields[name]
    const decode = name === ENTITY_DECODED_FIELD
    if (Array.isArray(raw)) {
      const texts = raw.map((item: CallbackInputValue, i: number) => formText(item, `${name}[${i}]`))
      toWrite.push({ name, value: texts })
      const signedTexts = decode ? texts.map(decodeEntities) : texts
      signed.push({ name, text: signedTexts, bytes: signedTexts.map(toByteString) })
    } else {
      const text = formText(raw as CallbackInputValue, name)
      toWrite.push({ name, value: text })
      const signedText = decode ? decodeEntities(text) : text
      signed.push({ name, text: signedText, bytes: toByteString(signedText) })
    }
  }
  const verifyHash = hmacSha1(secretKey).update(formSigningText(signed), "latin1").digest("hex")
  toWrite.push({ name: VERIFY_HASH_FIELD, value: verifyHash })
  const result = { verifyHash, fields: formFields(signed) }

  if (options.format !== "multipart") {
    return { ...result, body: writeUrlencodedBody(toWrite), contentType: "application/x-www-form-urlencoded" }
  }
  const contents = toWrite.flatMap((field) => (typeof field.value === "string" ? [field.value] : [...field.value]))
  let boundary = options.boundary
  if (boundary !== undefined) {
    if (!BOUNDARY_RE.test(boundary)) throw new TypeError("boundary must be 1 to 70 RFC 2046 boundary characters")
    const chosen = boundary
    if (contents.some((value) => value.includes(chosen))) throw new TypeError("a field value contains the boundary")
  } else {
    do {
      boundary = `----callback-${randomBytes(16).toString("hex")}`
    } while (contents.some((value) => value.includes(boundary as string)))
  }
  return {
    ...result,
    body: writeMultipartBody(toWrite, boundary),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}
