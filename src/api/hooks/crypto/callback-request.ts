import { createHash } from "node:crypto"
import type { Readable } from "node:stream"
import { CallbackVerificationError, MAX_CALLBACK_BODY_BYTES, type CallbackFields, type CallbackValue } from "../../../gateway"
import type { TestCallbackAnswer } from "../../../core/payment/test-callback"

/** The body is larger than the callback limit (1 MiB): refused before it is all read. */
export class CallbackBodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`callback body exceeds ${limit} bytes`)
    this.name = "CallbackBodyTooLargeError"
  }
}

/** How far past the limit an oversized body is still read (and dropped) before the stream is cut. */
const DRAIN_FACTOR = 8

/**
 * Reads a request body as raw bytes, up to `limit` bytes. The route runs with Medusa's body
 * parser off (src/api/middlewares.ts) because the signature covers the exact bytes, and the
 * gateway's default body is multipart, which Medusa does not parse
 * (docs/architecture.md#callback-route).
 *
 * Past the limit nothing more is kept; the rest is read and dropped so the sender still gets its
 * 413 answer, unless it goes on beyond `DRAIN_FACTOR` times the limit, when the stream is cut.
 */
export async function readRawBody(stream: Readable, limit: number = MAX_CALLBACK_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const buffer: Buffer = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array)
    size += buffer.length
    if (size <= limit) {
      chunks.push(buffer)
    } else if (size > limit * DRAIN_FACTOR) {
      stream.destroy()
      break
    }
  }
  if (size > limit) {
    throw new CallbackBodyTooLargeError(limit)
  }
  return Buffer.concat(chunks, size)
}

/** 401: no or wrong signature (spec §6.3). 400: a body that cannot be read. Nothing is stored. */
export interface CallbackRefusal {
  status: 400 | 401
  reason: string
  message: string
}

/**
 * What the callback route answers the gateway: `{ received, duplicate }` once stored (200), else why
 * not; a verified test callback of the settings page's check gets its nonce back (TestCallbackAnswer).
 */
export type CallbackAnswer = { received: true; duplicate: boolean } | { message: string } | TestCallbackAnswer

/**
 * What the route answers a callback the gateway's verifier (`verifyCallback`, the one verifier)
 * refused. Any other error is not a bad callback: it is thrown again.
 */
export function callbackRefusal(error: unknown): CallbackRefusal {
  if (!(error instanceof CallbackVerificationError)) {
    throw error
  }
  const unauthorized = error.reason === "missing_signature" || error.reason === "bad_signature"
  return {
    status: unauthorized ? 401 : 400,
    reason: error.reason,
    message: unauthorized ? "Invalid callback signature" : "Malformed or unsupported callback body",
  }
}

function canonical(value: CallbackValue): unknown {
  if (Array.isArray(value)) {
    return value.map(canonical)
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical(value[key])])
    )
  }
  return value
}

/**
 * SHA-256 of the verified fields with keys sorted: the same content gives the same hash whether
 * it came as JSON or as a form, so a redelivery is recognised (the unique index of
 * `crypto_callback.content_hash`).
 */
export function callbackContentHash(fields: CallbackFields): string {
  return createHash("sha256").update(JSON.stringify(canonical(fields))).digest("hex")
}

const str = (fields: CallbackFields, name: string): string | null => {
  const value = fields[name]
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null
}

/** The fields used to find the invoice a callback is about (spec §6.1, §6.2). */
export function callbackSummary(fields: CallbackFields): {
  ipn_type: string | null
  txn_id: string | null
  order_number: string | null
  switch_id: string | null
  status: string | null
} {
  return {
    ipn_type: str(fields, "ipn_type"),
    txn_id: str(fields, "txn_id"),
    order_number: str(fields, "order_number"),
    switch_id: str(fields, "switch_id"),
    status: str(fields, "status"),
  }
}
