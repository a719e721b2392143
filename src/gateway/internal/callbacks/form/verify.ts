/**
 * Verification of form callbacks (spec §6.3, first bullet; docs/gateway-readings.md#form-callback-signature):
 * the HMAC covers PHP `serialize()` of the fields sorted by name, `tx_urls` with its HTML entities
 * decoded. The returned `tx_urls` is the DECODED value, the one the signature covers: `a&amp;b`
 * and `a&b` sign alike, so returning the raw text would let a sender change it without the key.
 *
 * One path for both encodings: urlencoded or multipart read into the array PHP's `$_POST` would
 * hold (reader.ts), then PHP-serialized (php-serialize.ts) and HMACed.
 */
import { timingSafeEqual } from "node:crypto"
import { buildFieldObject, type FieldObject } from "../field-object"
import { serializeFormFields } from "../php-serialize"
import { badSignature, hmacOf, malformed, missingSignature, readVerifyHash, VERIFY_HASH_FIELD } from "../verification"
import { FormFieldCollector, FormSyntaxError, readMultipartForm, readUrlencodedForm, type FormField } from "./reader"

/**
 * The signed fields of a form callback, or a CallbackVerificationError. `multipartContentType` is
 * the Content-Type header (with its boundary) of a multipart body, null for urlencoded.
 */
export function verifyForm(body: Buffer, multipartContentType: string | null, secretKey: string): FieldObject {
  const { signed, signature } = readForm(body, multipartContentType)
  const expected = readVerifyHash(signature)
  if (!timingSafeEqual(hmacOf(secretKey, serializeFormFields(signed)), expected)) throw badSignature()
  return formFieldObject(signed)
}

/** What the reader makes of a form body: the signed fields, in order, and verify_hash. */
interface FormReading {
  readonly signed: FormField[]
  readonly signature: string
}

/** Reads a form body; throws CallbackVerificationError when it cannot. */
function readForm(body: Buffer, multipartContentType: string | null): FormReading {
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

/** The object of form fields; their names are distinct and never integer-like (the reader's rules). */
export function formFieldObject(fields: readonly FormField[]): FieldObject {
  return buildFieldObject(
    fields.map((field) => field.name),
    fields.map((field) => field.text),
  ).object
}
