/**
 * Verification of form callbacks (spec §6.3, first bullet; docs/gateway-readings.md#form-callback-signature):
 * the HMAC covers PHP `serialize()` of the fields sorted by name, `tx_urls` with its HTML entities
 * decoded. The returned `tx_urls` is the DECODED value, the one the signature covers: `a&amp;b`
 * and `a&b` sign alike, so returning the raw text would let a sender change it without the key.
 *
 * Two paths, which must agree (__tests__/callbacks-differential.unit.spec.ts):
 * - verifyUrlencodedFast: an all-ASCII urlencoded body read in one pass (fields sorted) or two
 *   (any order) straight into the signed bytes (urlencoded-fast.ts); it gives up on anything else.
 * - verifyFormGeneral: urlencoded or multipart read into PHP's `$_POST` array (reader.ts), then
 *   serialized (php-serialize.ts). Multipart has no fast path: busboy's parse dominates it.
 */
import { isAscii } from "node:buffer"
import { timingSafeEqual } from "node:crypto"
import { buildFieldObject, type FieldObject } from "../field-object"
import { digestOfHex } from "../hex"
import { serializeFormFields } from "../php-serialize"
import { badSignature, hmacOf, malformed, missingSignature, readVerifyHash, VERIFY_HASH_FIELD } from "../verification"
import { FormFieldCollector, FormSyntaxError, readMultipartForm, readUrlencodedForm, type FormField } from "./reader"
import { readSortedUrlencoded, readUrlencodedFast, type UrlencodedReading } from "./urlencoded-fast"

/**
 * The signed fields of a form callback, or a CallbackVerificationError. `multipartContentType` is
 * the Content-Type header (with its boundary) of a multipart body, null for urlencoded.
 */
export function verifyForm(body: Buffer, multipartContentType: string | null, secretKey: string): FieldObject {
  return (multipartContentType === null ? verifyUrlencodedFast(body, secretKey) : undefined) ?? verifyFormGeneral(body, multipartContentType, secretKey)
}

/** The fast reading of an urlencoded body (sorted first, then any order); undefined when it gives up. */
export function readUrlencodedFastly(body: Buffer): UrlencodedReading | undefined {
  if (!isAscii(body)) return undefined
  return readSortedUrlencoded(body, VERIFY_HASH_FIELD) ?? readUrlencodedFast(body, VERIFY_HASH_FIELD)
}

/**
 * The fast path for an urlencoded body: its fields when the fast reading applies and its signature
 * matches; undefined otherwise, and the general path then decides.
 */
export function verifyUrlencodedFast(body: Buffer, secretKey: string): FieldObject | undefined {
  const reading = readUrlencodedFastly(body)
  if (reading === undefined) return undefined
  const expected = digestOfHex(reading.signature)
  if (expected === undefined || !timingSafeEqual(hmacOf(secretKey, reading.signedBytes), expected)) return undefined
  return buildFieldObject(reading.names, reading.texts).object
}

/** What the general reader makes of a form body: the signed fields, in order, and verify_hash. */
export interface GeneralFormReading {
  readonly signed: FormField[]
  readonly signature: string
}

/** Reads a form body with the general reader; throws CallbackVerificationError when it cannot. */
export function readFormGenerally(body: Buffer, multipartContentType: string | null): GeneralFormReading {
  const collector = new FormFieldCollector()
  let all: FormField[]
  try {
    if (multipartContentType === null) readUrlencodedForm(body, collector)
    else readMultipartForm(body, multipartContentType, collector)
    all = collector.finish()
  } catch (error) {
    if (error instanceof FormSyntaxError) throw malformed(`the form callback is not readable: ${error.message}`)
    throw error
  }
  const hashIndex = all.findIndex((field) => field.name === VERIFY_HASH_FIELD)
  if (hashIndex === -1) throw missingSignature()
  const hashField = all[hashIndex]
  if (typeof hashField.text !== "string") throw malformed("the callback's verify_hash is a list")
  return { signed: all.filter((_, i) => i !== hashIndex), signature: hashField.text }
}

/** The general path: any urlencoded or multipart body. */
export function verifyFormGeneral(body: Buffer, multipartContentType: string | null, secretKey: string): FieldObject {
  const { signed, signature } = readFormGenerally(body, multipartContentType)
  const expected = readVerifyHash(signature)
  if (!timingSafeEqual(hmacOf(secretKey, serializeFormFields(signed)), expected)) throw badSignature()
  return formFieldObject(signed)
}

/** The object of form fields; their names are distinct and never integer-like (the reader's rules). */
export function formFieldObject(fields: readonly FormField[]): FieldObject {
  return buildFieldObject(
    fields.map((field) => field.name),
    fields.map((field) => field.text),
  ).object
}
