/**
 * Callback verification and signing (spec §6; docs/gateway-readings.md#callbacks): the public
 * surface. The codec behind it is in internal/callbacks/, one folder per body format.
 *
 * `verifyCallback` checks the `verify_hash` of a callback body exactly as spec §6.3 says and returns
 * the fields that were signed, nothing else. `signCallback` is the same canonicalization run the other
 * way, so the sandbox and the tests sign exactly as the verifier verifies (the stripe-node model).
 *
 * Readings chosen where the spec is silent (the README's "Callback verification" repeats them):
 * - Form bodies (urlencoded and multipart) are read into the array PHP's `$_POST` would hold.
 *   `tx_urls` travels as one string field or as a list, `tx_urls[0]=…&tx_urls[1]=…` (`tx_urls[]=`
 *   is read too). The HMAC covers PHP `serialize()` of the fields sorted by name, with HTML entities
 *   of `tx_urls` decoded (strict HTML decoding by the `entities` package: only `;`-terminated
 *   references). The returned `tx_urls` is the DECODED value, the one the signature covers
 *   (docs/gateway-readings.md#form-callback-signature).
 * - JSON bodies: accepted when the HMAC matches the compact serialization of the received object
 *   (without `verify_hash`, key order kept, numbers as their received lexeme) in any gateway
 *   serializer's escaping: `/` raw or `\/`, non-ASCII raw or `\uXXXX` (plus PHP's escaping of
 *   U+2028/U+2029 in raw mode and Python's escaping of DEL in escaped mode). Duplicate keys,
 *   unpaired surrogates and invalid UTF-8 are refused as malformed: each would make "the signed
 *   fields" ambiguous (docs/gateway-readings.md#json-callback-signature).
 * - `verify_hash` is 40 hex digits; upper-case hex is accepted (the bytes are compared, in constant
 *   time). An empty `verify_hash` counts as missing.
 * - A body over 1 MiB is refused before it is read, with reason `malformed_body`.
 */
import { randomBytes } from "node:crypto"
import { classifyContentType } from "../internal/callbacks/content-type"
import { serializeFormFields, toByteString } from "../internal/callbacks/php-serialize"
import {
  CallbackVerificationError,
  hmacOf,
  malformed,
  VERIFY_HASH_FIELD,
} from "../internal/callbacks/verification"
import {
  decodeEntities,
  describeName,
  ENTITY_DECODED_FIELD,
  isPlainFieldName,
  type FormField,
} from "../internal/callbacks/form/reader"
import { formFieldObject, verifyForm } from "../internal/callbacks/form/verify"
import { writeMultipartBody, writeUrlencodedBody, type FormFieldToWrite } from "../internal/callbacks/form/writer"
import { defineField } from "../internal/callbacks/field-object"
import {
  hasUnpairedSurrogate,
  isJsonNumberLexeme,
  markNumber,
  type JsonDocument,
  type JsonObject,
  type JsonValue,
} from "../internal/callbacks/json/reader"
import { verifyJson } from "../internal/callbacks/json/verify"
import { writeCompactJson, type JsonEscapeStyle } from "../internal/callbacks/json/writer"

export { CallbackVerificationError, VERIFY_HASH_FIELD }
export type { CallbackVerificationReason } from "../internal/callbacks/verification"

/** Largest callback body read, in bytes; larger bodies are refused before parsing. */
export const MAX_CALLBACK_BODY_BYTES = 1024 * 1024

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
  if (reading.kind === "json") return { format: "json", fields: verifyJson(body, secretKey) }
  return { format: "form", fields: verifyForm(body, reading.kind === "multipart" ? contentType : null, secretKey) }
}

function requireSecretKey(secretKey: unknown): string {
  // An empty key would let anyone sign: a configuration error, not a bad callback.
  if (typeof secretKey !== "string" || secretKey.length === 0) {
    throw new TypeError("secretKey must be a non-empty string")
  }
  return secretKey
}

function tooLarge(size: string): CallbackVerificationError {
  return malformed(`the callback body is too large: ${size} bytes, the limit is ${MAX_CALLBACK_BODY_BYTES}`)
}

function readBody(body: unknown): Buffer {
  if (typeof body === "string") {
    // UTF-16 length <= UTF-8 length: a string this long is over the limit without encoding it.
    if (body.length > MAX_CALLBACK_BODY_BYTES) throw tooLarge(`more than ${MAX_CALLBACK_BODY_BYTES}`)
    if (hasUnpairedSurrogate(body)) {
      throw malformed("the callback body holds an unpaired surrogate")
    }
    const bytes = Buffer.from(body, "utf8")
    if (bytes.length > MAX_CALLBACK_BODY_BYTES) throw tooLarge(String(bytes.length))
    return bytes
  }
  if (body instanceof Uint8Array) {
    if (body.length > MAX_CALLBACK_BODY_BYTES) throw tooLarge(String(body.length))
    return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.length)
  }
  throw malformed("the callback body must be the raw bytes (a Buffer or a string)")
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
  const verifyHash = hmacOf(secretKey, serializeFormFields(signed)).toString("hex")
  toWrite.push({ name: VERIFY_HASH_FIELD, value: verifyHash })
  const result = { verifyHash, fields: formFieldObject(signed) }

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
