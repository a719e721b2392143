/**
 * Verification of JSON callbacks (spec §6.3, second bullet; docs/gateway-readings.md#json-callback-signature):
 * accepted when the HMAC matches the compact serialization of the received object (without
 * `verify_hash`, key order kept, numbers as their received lexeme) in any gateway serializer's
 * escaping. Every variant needs the key, so accepting several weakens nothing.
 *
 * One path for every body: the strict reader (reader.ts) reads the object and finds the
 * verify_hash member wherever it stands; the HMAC is tried first on the received bytes without that
 * member (a body sent as signed), then on each serializer's compact writing of the parsed object
 * (writer.ts). The reader is ours rather than lossless-json's `parse` because the signature needs
 * what a JS object loses: the received key order (integer-like keys included), refusal of unpaired
 * surrogates, and the byte offsets of the verify_hash member.
 */
import { isUtf8 } from "node:buffer"
import { timingSafeEqual } from "node:crypto"
import {
  badSignature,
  hmacOf,
  malformed,
  missingSignature,
  readVerifyHash,
  VERIFY_HASH_FIELD,
} from "../verification"
import { JsonSyntaxError, parseJsonCallback, type JsonObject, type ParsedJsonCallback } from "./reader"
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

/** The signed fields of a JSON callback, or a CallbackVerificationError. */
export function verifyJson(body: Buffer, secretKey: string): JsonObject {
  if (!isUtf8(body)) throw malformed("the JSON callback is not valid UTF-8")
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

function parseStrictly(bytes: Buffer): ParsedJsonCallback {
  try {
    return parseJsonCallback(bytes, VERIFY_HASH_FIELD)
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw malformed(`the JSON callback is not readable: ${error.message}`)
    throw error
  }
}
