/**
 * What both body formats share when verifying (spec §6.3): the signature field, the refusal error,
 * the HMAC, and the reading of `verify_hash`. `CallbackVerificationError` is public: core/callbacks.ts
 * re-exports it, and it is defined here only so the format modules can throw it without importing
 * the public surface back.
 */
import { createHmac } from "node:crypto"
import { GatewayError } from "../../core/errors"
import { digestOfHex } from "./hex"

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

export function badSignature(): CallbackVerificationError {
  return new CallbackVerificationError("bad_signature", "the callback's verify_hash does not match its fields")
}

export function missingSignature(): CallbackVerificationError {
  return new CallbackVerificationError("missing_signature", "the callback has no verify_hash")
}

export function malformed(message: string): CallbackVerificationError {
  return new CallbackVerificationError("malformed_body", message)
}

/** The 20 bytes a `verify_hash` stands for, or a failure. An empty one counts as missing. */
export function readVerifyHash(value: unknown): Buffer {
  if (value === "") {
    throw new CallbackVerificationError("missing_signature", "the callback's verify_hash is empty")
  }
  if (typeof value !== "string") {
    throw new CallbackVerificationError("bad_signature", "the callback's verify_hash is not a string")
  }
  const digest = digestOfHex(value)
  if (digest === undefined) {
    throw new CallbackVerificationError("bad_signature", "the callback's verify_hash is not 40 hexadecimal digits")
  }
  return digest
}

/**
 * HMAC-SHA1 (spec §6.3) of `data` keyed with the shop secret. Nothing is cached between calls: no
 * secret or key object outlives the call that used it.
 */
export function hmacOf(secretKey: string, data: Buffer): Buffer {
  return createHmac("sha1", secretKey).update(data).digest()
}
