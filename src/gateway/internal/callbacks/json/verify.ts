/**
 * Verification of JSON callbacks (spec §6.3, second bullet; docs/gateway-readings.md#json-callback-signature):
 * accepted when the HMAC matches the compact serialization of the received object (without
 * `verify_hash`, key order kept, numbers as their received lexeme) in any gateway serializer's
 * escaping. Every variant needs the key, so accepting several weakens nothing.
 *
 * Two paths, which must agree (__tests__/callbacks-differential.unit.spec.ts):
 * - verifyJsonFast: the body exactly as signed, verify_hash last. One HMAC over the received bytes
 *   without that member, before anything is parsed; only on a match are the fields read, from
 *   exactly those verified bytes (signed-text.ts).
 * - verifyJsonGeneral: the strict reader (reader.ts), the member cut out wherever it stands, then
 *   each serializer's compact writing of the parsed object (writer.ts).
 */
import { isUtf8 } from "node:buffer"
import { timingSafeEqual } from "node:crypto"
import {
  badSignature,
  hmacOf,
  hmacSha1,
  malformed,
  missingSignature,
  readVerifyHash,
  VERIFY_HASH_FIELD,
} from "../verification"
import { JsonSyntaxError, parseJsonCallback, type JsonObject, type ParsedJsonCallback } from "./reader"
import { findTrailingSignature, readSignedJsonText } from "./signed-text"
import { writeCompactJson, type JsonEscapeStyle } from "./writer"

/** The writer styles tried, most common first (four serializer variants, plus two edges). */
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

/** The `}` that closes the signed text of a body whose trailing signature member is cut off. */
const CLOSING_BRACE = Buffer.from("}")

/** The signed fields of a JSON callback, or a CallbackVerificationError. */
export function verifyJson(body: Buffer, secretKey: string): JsonObject {
  requireUtf8(body)
  return verifyJsonFast(body, secretKey) ?? verifyJsonGeneral(body, secretKey)
}

function requireUtf8(body: Buffer): void {
  if (!isUtf8(body)) throw malformed("the JSON callback is not valid UTF-8")
}

/**
 * The fast path, for a UTF-8 body. Undefined when the body does not end with a compact signature
 * member or that signature does not match the bytes before it: the general path then decides.
 * Throws malformed_body when the signature matches but the signed text is not one JSON object.
 */
export function verifyJsonFast(body: Buffer, secretKey: string): JsonObject | undefined {
  const trailing = findTrailingSignature(body, VERIFY_HASH_FIELD)
  if (trailing === undefined) return undefined
  const { cutStart, expected } = trailing
  // The signed text is the body up to the member's comma, closed by `}`: fed to the HMAC in two
  // pieces, with no copy (measured cheaper than a copied buffer or a latin1 string).
  const digest = hmacSha1(secretKey).update(body.subarray(0, cutStart)).update(CLOSING_BRACE).digest()
  if (!timingSafeEqual(digest, expected)) return undefined
  return readSignedJsonText(body, cutStart, VERIFY_HASH_FIELD) ?? readSignedTextStrictly(body, cutStart)
}

/**
 * The fields of a signed text (the body's first `cutStart` bytes, then `}`) by the strict reader.
 * Such a body is valid JSON exactly when this text is one JSON object with at least one member and
 * no member named verify_hash (findTrailingSignature), so refusing any other text refuses exactly
 * what the strict reading of the whole body refuses.
 */
export function readSignedTextStrictly(body: Buffer, cutStart: number): JsonObject {
  const parsed = parseStrictly(Buffer.concat([body.subarray(0, cutStart), CLOSING_BRACE]))
  if (parsed.omitted !== undefined) {
    throw malformed("the JSON callback is not readable: duplicate member name verify_hash")
  }
  if (Object.keys(parsed.root).length === 0) {
    throw malformed("the JSON callback is not readable: a comma opens the object")
  }
  return parsed.root
}

function parseStrictly(bytes: Buffer): ParsedJsonCallback {
  try {
    return parseJsonCallback(bytes, VERIFY_HASH_FIELD)
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw malformed(`the JSON callback is not readable: ${error.message}`)
    throw error
  }
}

/** The general path: any UTF-8 body, verify_hash anywhere at the top level, any serializer. */
export function verifyJsonGeneral(body: Buffer, secretKey: string): JsonObject {
  requireUtf8(body)
  const parsed = parseStrictly(body)
  const { root, omitted, cutStart, cutEnd } = parsed
  if (omitted === undefined) throw missingSignature()
  // The fields returned are the signed ones: the parse keeps verify_hash out of them.
  const expected = readVerifyHash(omitted)

  // The received bytes without the verify_hash member, wherever it stands: cut it (and one comma)
  // out at the offsets the strict parse found.
  const signedBytes = Buffer.allocUnsafe(body.length - (cutEnd - cutStart))
  body.copy(signedBytes, 0, 0, cutStart)
  body.copy(signedBytes, cutStart, cutEnd)
  if (timingSafeEqual(hmacOf(secretKey, signedBytes), expected)) return root

  // The body was re-encoded in transit (whitespace, other escapes): re-serialize the parsed object
  // compactly in each serializer's style and try each.
  const tried = new Set<string>()
  for (const style of JSON_STYLES) {
    const text = writeCompactJson(parsed, style, VERIFY_HASH_FIELD)
    if (tried.has(text)) continue
    tried.add(text)
    if (timingSafeEqual(hmacOf(secretKey, Buffer.from(text, "utf8")), expected)) return root
  }
  throw badSignature()
}
