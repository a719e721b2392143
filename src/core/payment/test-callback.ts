import type { CallbackFields } from "../../gateway"

/**
 * The test callback of "Check the callback URL" (docs/troubleshooting.md#check-the-callback-url):
 * the one convention the check (src/workflows/admin/steps/check-crypto-callback-url.ts) and the callback route
 * (src/api/hooks/crypto/[id]/route.ts) share.
 *
 * It is signed like any callback (spec §6.3), so it passes through the real verification, and it is
 * marked by `ipn_type: "test"`: a kind the gateway never sends ("No other event kinds are sent",
 * spec §6.3), so no real delivery is mistaken for it. Its `txn_id` (spec §6.1: the callback's
 * transaction) is a random nonce; the route echoes it with its provider id, which proves that this
 * store, with this provider's key, answered. The route stores nothing for it and emits nothing.
 */
export const TEST_CALLBACK_IPN_TYPE = "test"

/** The fields of a test callback with `nonce` (signed by the sender; `verify_hash` is added then). */
export function testCallbackFields(nonce: string): { ipn_type: typeof TEST_CALLBACK_IPN_TYPE; txn_id: string } {
  return { ipn_type: TEST_CALLBACK_IPN_TYPE, txn_id: nonce }
}

/** Is this verified callback a test callback? Only the verifier's fields are asked: an unsigned one never gets here. */
export function isTestCallback(fields: CallbackFields): boolean {
  return fields.ipn_type === TEST_CALLBACK_IPN_TYPE
}

/** What the callback route answers a verified test callback (HTTP 200): nothing stored, nothing emitted. */
export interface TestCallbackAnswer {
  test: true
  provider_id: string
  /** The test callback's nonce, echoed. */
  txn_id: string | null
}

export function testCallbackAnswer(providerId: string, fields: CallbackFields): TestCallbackAnswer {
  return { test: true, provider_id: providerId, txn_id: typeof fields.txn_id === "string" ? fields.txn_id : null }
}

/** Is `body` (a parsed JSON answer) this store's answer to the test callback with `nonce` for `providerId`? */
export function isAnswerToTestCallback(body: unknown, providerId: string, nonce: string): boolean {
  if (typeof body !== "object" || body === null) {
    return false
  }
  const answer = body as Partial<Record<keyof TestCallbackAnswer, unknown>>
  return answer.test === true && answer.provider_id === providerId && answer.txn_id === nonce
}
