import { Readable } from "node:stream"
import { CallbackNumber, signCallback, verifyCallback } from "../../../../gateway"
import { callbackContentHash, callbackRefusal, callbackSummary, CallbackBodyTooLargeError, readRawBody } from "../callback-request"
import { isTestCallback, testCallbackAnswer, testCallbackFields } from "../../../../core/payment/test-callback"

const secretKey = "shop-secret"
const fields = {
  txn_id: "txn_1",
  ipn_type: "invoice",
  order_number: "cart_1",
  status: "completed",
  amount: "0.00000001",
  switch_id: "txn_0",
}

describe("readRawBody", () => {
  it("returns the exact bytes of the stream", async () => {
    const body = await readRawBody(Readable.from([Buffer.from("a=1&"), Buffer.from("b=2")]))
    expect(body.toString("utf8")).toBe("a=1&b=2")
  })

  it("refuses a body over the limit", async () => {
    await expect(readRawBody(Readable.from([Buffer.alloc(6), Buffer.alloc(6)]), 10)).rejects.toBeInstanceOf(CallbackBodyTooLargeError)
  })

  it("accepts a body exactly at the limit", async () => {
    expect((await readRawBody(Readable.from([Buffer.alloc(10)]), 10)).length).toBe(10)
  })
})

/** What the route does with a raw callback: the gateway's verifier, then, if it refuses, the answer. */
function answer(input: { body: Buffer; contentType: string | undefined; secretKey: string }) {
  try {
    return { accepted: verifyCallback(input) }
  } catch (error) {
    return { refused: callbackRefusal(error) }
  }
}

describe("verifyCallback and callbackRefusal, as the route calls them", () => {
  it("accepts a correctly signed JSON callback and returns its fields", () => {
    const signed = signCallback({ ...fields, amount: new CallbackNumber("0.00000001") }, { secretKey, format: "json" })
    const decision = answer({ body: signed.body, contentType: signed.contentType, secretKey })
    expect(decision).toMatchObject({ accepted: { format: "json", fields: { txn_id: "txn_1", amount: "0.00000001" } } })
  })

  it("accepts a correctly signed multipart callback", () => {
    const signed = signCallback(fields, { secretKey, format: "multipart" })
    expect(answer({ body: signed.body, contentType: signed.contentType, secretKey })).toMatchObject({ accepted: { format: "form" } })
  })

  it("answers 401 to a callback signed with another key", () => {
    const signed = signCallback(fields, { secretKey: "someone-else", format: "json" })
    expect(answer({ body: signed.body, contentType: signed.contentType, secretKey })).toMatchObject({
      refused: { status: 401, reason: "bad_signature" },
    })
  })

  it("answers 401 to a callback without verify_hash", () => {
    const body = Buffer.from(JSON.stringify(fields))
    expect(answer({ body, contentType: "application/json", secretKey })).toMatchObject({ refused: { status: 401, reason: "missing_signature" } })
  })

  it("answers 400 to a body that is not JSON", () => {
    expect(answer({ body: Buffer.from("{nope"), contentType: "application/json", secretKey })).toMatchObject({ refused: { status: 400 } })
  })

  it("answers 400 to an unsupported content type", () => {
    expect(answer({ body: Buffer.from("x"), contentType: "image/png", secretKey })).toMatchObject({
      refused: { status: 400, reason: "unsupported_content_type" },
    })
  })

  it("never puts the key or the body in the rejection message", () => {
    const signed = signCallback(fields, { secretKey: "other", format: "json" })
    expect(answer({ body: signed.body, contentType: signed.contentType, secretKey }).refused?.message).toBe("Invalid callback signature")
  })

  it("throws again an error that is not a refused callback", () => {
    const failure = new TypeError("not a callback's fault")
    expect(() => callbackRefusal(failure)).toThrow(failure)
  })
})

describe("callbackContentHash", () => {
  it("gives the same content the same hash whether it came as JSON or as a form", () => {
    const json = signCallback(fields, { secretKey, format: "json" })
    const form = signCallback(fields, { secretKey, format: "urlencoded" })
    expect(callbackContentHash(json.fields)).toBe(callbackContentHash(form.fields))
  })

  it("ignores key order", () => {
    expect(callbackContentHash({ a: "1", b: "2" })).toBe(callbackContentHash({ b: "2", a: "1" }))
  })

  it("changes when a value changes", () => {
    expect(callbackContentHash({ ...fields, status: "pending" })).not.toBe(callbackContentHash(fields))
  })
})

describe("callbackSummary", () => {
  it("extracts the correlation fields", () => {
    expect(callbackSummary(fields)).toEqual({ ipn_type: "invoice", txn_id: "txn_1", order_number: "cart_1", switch_id: "txn_0", status: "completed" })
  })

  it("reads a missing or empty field as null", () => {
    expect(callbackSummary({ ipn_type: "pay_in", switch_id: "" })).toMatchObject({ order_number: null, switch_id: null })
  })
})

describe("a test callback of the settings page's check (docs/troubleshooting.md#check-the-callback-url)", () => {
  it("is recognised once verified, and answered with its nonce and the provider id", () => {
    const signed = signCallback(testCallbackFields("nonce-1"), { secretKey, format: "json" })
    const { fields: verified } = verifyCallback({ body: signed.body, contentType: signed.contentType, secretKey })
    expect(isTestCallback(verified)).toBe(true)
    expect(testCallbackAnswer("pp_crypto_crypto", verified)).toEqual({ test: true, provider_id: "pp_crypto_crypto", txn_id: "nonce-1" })
  })

  it("signed with another key is refused as any bad callback (401), before it is recognised", () => {
    const signed = signCallback(testCallbackFields("nonce-1"), { secretKey: "someone-else", format: "json" })
    expect(answer({ body: signed.body, contentType: signed.contentType, secretKey })).toMatchObject({ refused: { status: 401, reason: "bad_signature" } })
  })

  it("is not an invoice or a pay_in callback", () => {
    expect(isTestCallback(fields)).toBe(false)
    expect(isTestCallback({ ...fields, ipn_type: "pay_in" })).toBe(false)
  })
})
