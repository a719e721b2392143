/**
 * Callback verification (spec §6.3, docs/gateway-readings.md#callbacks) against vectors computed by
 * PHP itself (scripts/make-callback-vectors.php: serialize, ksort, html_entity_decode, json_encode, hash_hmac).
 */
import {
  CallbackNumber,
  CallbackVerificationError,
  MAX_CALLBACK_BODY_BYTES,
  signCallback,
  verifyCallback,
  type CallbackFields,
  type CallbackInputFields,
  type CallbackVerificationReason,
  type SignCallbackOptions,
} from ".."
import { createHmac } from "node:crypto"
import vectors from "./fixtures/callback-vectors.json"

type KeyName = keyof typeof vectors.secretKeys

interface Vector {
  name: string
  secretKey: string
  contentType: string
  body: string
  verifyHash: string
  fields: Record<string, unknown>
}

interface JsonVector extends Vector {
  style?: { slashes: string; unicode: string }
  signedText?: string
  numberFields?: string[]
}

const formVectors: Vector[] = vectors.form
const jsonVectors: JsonVector[] = vectors.json
const keyOf = (vector: { secretKey: string }): string => vectors.secretKeys[vector.secretKey as KeyName]
const SECRET = vectors.secretKeys.ascii

function vectorNamed<T extends Vector>(list: T[], name: string): T {
  const found = list.find((vector) => vector.name === name)
  if (found === undefined) throw new Error(`no vector named ${name}`)
  return found
}

const invoiceUrlencoded = vectorNamed(formVectors, "invoice, ascii key, urlencoded RFC1738 (+ for space)")
const invoiceMultipart = vectorNamed(formVectors, "invoice, ascii key, multipart indexed list")
const invoiceJson = vectorNamed(jsonVectors, "invoice, ascii key, slashes raw, unicode raw")

/** The error verifyCallback throws for these arguments (fails the test when it returns). */
function refusal(body: Buffer | string, contentType: string | undefined, secretKey = SECRET): CallbackVerificationError {
  try {
    verifyCallback({ body, contentType, secretKey })
  } catch (error) {
    if (error instanceof CallbackVerificationError) return error
    throw error
  }
  throw new Error("the callback was accepted")
}

function reasonOf(body: Buffer | string, contentType: string | undefined, secretKey = SECRET): CallbackVerificationReason {
  return refusal(body, contentType, secretKey).reason
}

/** Replaces the value of one multipart part (by its exact part name) with `value`. */
function replaceMultipartValue(body: string, partName: string, edit: (value: string) => string | null): string {
  const header = `Content-Disposition: form-data; name="${partName}"\r\n\r\n`
  const start = body.indexOf(header)
  if (start === -1) throw new Error(`no part ${partName}`)
  const valueStart = start + header.length
  const valueEnd = body.indexOf("\r\n--", valueStart)
  const edited = edit(body.slice(valueStart, valueEnd))
  if (edited === null) {
    // Drop the whole part: from its delimiter line to the next one.
    const delimiterLine = body.lastIndexOf("\n", start - 2) + 1
    return body.slice(0, delimiterLine) + body.slice(valueEnd + 2)
  }
  return body.slice(0, valueStart) + edited + body.slice(valueEnd)
}

function multipartPartNames(body: string): string[] {
  return [...body.matchAll(/name="([^"]+)"/g)].map((match) => match[1])
}

describe("verifyCallback with PHP-computed vectors", () => {
  it.each(formVectors.map((vector) => [vector.name, vector] as const))(
    "accepts the form callback %s and returns the fields PHP signed",
    (_name, vector) => {
      const result = verifyCallback({ body: Buffer.from(vector.body, "utf8"), contentType: vector.contentType, secretKey: keyOf(vector) })
      expect(result).toEqual({ format: "form", fields: vector.fields })
    },
  )

  it.each(jsonVectors.map((vector) => [vector.name, vector] as const))(
    "accepts the JSON callback %s and returns the fields as received",
    (_name, vector) => {
      const result = verifyCallback({ body: Buffer.from(vector.body, "utf8"), contentType: vector.contentType, secretKey: keyOf(vector) })
      expect(result).toEqual({ format: "json", fields: vector.fields })
    },
  )

  it("refuses a JSON callback whose keys were reordered", () => {
    const { body, contentType } = vectors.jsonReordered
    expect(reasonOf(body, contentType, keyOf(vectors.jsonReordered))).toBe("bad_signature")
  })

  it("returns JSON numbers as their exact lexeme, never a JS number", () => {
    const vector = vectorNamed(jsonVectors, "numbers with many digits keep their lexeme")
    const { fields } = verifyCallback({ body: vector.body, contentType: vector.contentType, secretKey: keyOf(vector) })
    expect(fields.amount).toBe("123456789.123456789012345678")
    expect(fields.confirmations).toBe("1E+2")
    expect(fields.source_rate).toBe("0.00000001")
  })

  it("refuses a JSON number rewritten to an equal value with another lexeme", () => {
    const vector = vectorNamed(jsonVectors, "numbers with many digits keep their lexeme")
    const body = vector.body.replace(":0.00000001,", ":1e-8,")
    expect(body).not.toBe(vector.body)
    expect(reasonOf(body, vector.contentType, keyOf(vector))).toBe("bad_signature")
  })

  it("returns tx_urls of a form callback with HTML entities decoded, as signed", () => {
    const { fields } = verifyCallback({ body: invoiceUrlencoded.body, contentType: invoiceUrlencoded.contentType, secretKey: SECRET })
    expect(fields.tx_urls).toEqual([
      "https://explorer.example/tx/ab12?network=test&ref=shop",
      "https://explorer.example/tx/cd34?a=1&b=\"x\"&c='y'&d=é",
    ])
  })

  it("returns tx_urls of a JSON callback exactly as received", () => {
    const { fields } = verifyCallback({ body: invoiceJson.body, contentType: invoiceJson.contentType, secretKey: SECRET })
    expect(fields.tx_urls).toEqual(["https://explorer.example/tx/ab12?network=test&amp;ref=shop", expect.stringContaining("&amp;b=&quot;x&quot;")])
  })

  it("does not return verify_hash among the fields", () => {
    const { fields } = verifyCallback({ body: invoiceJson.body, contentType: invoiceJson.contentType, secretKey: SECRET })
    expect(fields).not.toHaveProperty("verify_hash")
  })

  it("refuses every vector under another secret key", () => {
    for (const vector of [...formVectors, ...jsonVectors]) {
      const otherKey = vector.secretKey === "ascii" ? vectors.secretKeys.utf8 : vectors.secretKeys.ascii
      expect(reasonOf(vector.body, vector.contentType, otherKey)).toBe("bad_signature")
    }
  })
})

describe("signCallback agrees with PHP", () => {
  const styled = jsonVectors.filter((vector) => vector.style !== undefined)

  it.each(styled.map((vector) => [vector.name, vector] as const))("writes byte for byte PHP's JSON body for %s", (_name, vector) => {
    const input: Record<string, CallbackFields[string] | CallbackNumber> = { ...(vector.fields as CallbackFields) }
    for (const name of vector.numberFields ?? []) input[name] = new CallbackNumber(String(input[name]))
    const style = vector.style as { slashes: "raw" | "escaped"; unicode: SignCallbackOptions["unicode"] }
    const signed = signCallback(input, { secretKey: keyOf(vector), format: "json", slashes: style.slashes, unicode: style.unicode })
    expect(signed.verifyHash).toBe(vector.verifyHash)
    expect(signed.body.toString("utf8")).toBe(vector.body)
    expect(signed.contentType).toBe("application/json")
  })

  it.each(formVectors.map((vector) => [vector.name, vector] as const))("gives PHP's verify_hash for the form fields of %s", (_name, vector) => {
    const fields = vector.fields as CallbackInputFields
    expect(signCallback(fields, { secretKey: keyOf(vector), format: "urlencoded" }).verifyHash).toBe(vector.verifyHash)
    expect(signCallback(fields, { secretKey: keyOf(vector), format: "multipart" }).verifyHash).toBe(vector.verifyHash)
  })
})

describe("tampering", () => {
  const urlencodedNames = [...new URLSearchParams(invoiceUrlencoded.body).keys()].filter((name) => name !== "verify_hash")

  it.each(urlencodedNames)("refuses an urlencoded callback whose %s was changed", (name) => {
    const params = new URLSearchParams(invoiceUrlencoded.body)
    params.set(name, `${params.get(name)}x`)
    expect(reasonOf(params.toString(), invoiceUrlencoded.contentType)).toBe("bad_signature")
  })

  it.each(urlencodedNames.filter((name) => name !== "tx_urls[0]"))("refuses an urlencoded callback whose %s was dropped", (name) => {
    const params = new URLSearchParams(invoiceUrlencoded.body)
    params.delete(name)
    expect(reasonOf(params.toString(), invoiceUrlencoded.contentType)).toBe("bad_signature")
  })

  it("refuses an urlencoded callback whose first list element was dropped, as malformed (tx_urls[1] without [0])", () => {
    const params = new URLSearchParams(invoiceUrlencoded.body)
    params.delete("tx_urls[0]")
    expect(reasonOf(params.toString(), invoiceUrlencoded.contentType)).toBe("malformed_body")
  })

  it("refuses an urlencoded callback with an added field", () => {
    expect(reasonOf(`${invoiceUrlencoded.body}&extra=1`, invoiceUrlencoded.contentType)).toBe("bad_signature")
  })

  it("accepts an urlencoded callback whose fields arrive in another order (the signature sorts them)", () => {
    const sorted = invoiceUrlencoded.body.split("&").sort().join("&")
    expect(sorted).not.toBe(invoiceUrlencoded.body)
    expect(verifyCallback({ body: sorted, contentType: invoiceUrlencoded.contentType, secretKey: SECRET }).fields).toEqual(invoiceUrlencoded.fields)
  })

  const multipartNames = multipartPartNames(invoiceMultipart.body).filter((name) => name !== "verify_hash")

  it.each(multipartNames)("refuses a multipart callback whose %s was changed", (name) => {
    const body = replaceMultipartValue(invoiceMultipart.body, name, (value) => `${value}x`)
    expect(reasonOf(body, invoiceMultipart.contentType)).toBe("bad_signature")
  })

  it.each(multipartNames.filter((name) => name !== "tx_urls[0]"))("refuses a multipart callback whose %s was dropped", (name) => {
    const body = replaceMultipartValue(invoiceMultipart.body, name, () => null)
    expect(multipartPartNames(body)).not.toContain(name)
    expect(reasonOf(body, invoiceMultipart.contentType)).toBe("bad_signature")
  })

  const jsonNames = Object.keys(invoiceJson.fields)

  it.each(jsonNames)("refuses a JSON callback whose %s was changed", (name) => {
    const object = JSON.parse(invoiceJson.body) as Record<string, unknown>
    const value = object[name]
    object[name] = Array.isArray(value) ? [...value, "https://evil.example/"] : typeof value === "number" ? value + 1 : `${String(value)}x`
    expect(reasonOf(JSON.stringify(object), "application/json")).toBe("bad_signature")
  })

  it.each(jsonNames)("refuses a JSON callback whose %s was dropped", (name) => {
    const object = JSON.parse(invoiceJson.body) as Record<string, unknown>
    delete object[name]
    expect(reasonOf(JSON.stringify(object), "application/json")).toBe("bad_signature")
  })

  it("refuses a JSON callback with an added field", () => {
    const body = invoiceJson.body.replace(/^\{/, '{"extra":"1",')
    expect(reasonOf(body, "application/json")).toBe("bad_signature")
  })

  it("refuses a callback whose verify_hash was changed by one digit", () => {
    const hash = invoiceJson.verifyHash
    const flipped = hash.slice(0, -1) + (hash.endsWith("0") ? "1" : "0")
    expect(reasonOf(invoiceJson.body.replace(hash, flipped), "application/json")).toBe("bad_signature")
  })
})

describe("signature field", () => {
  const signed = signCallback({ txn_id: "T1", amount: "1.5" }, { secretKey: SECRET, format: "json" })
  const body = signed.body.toString("utf8")

  it.each([
    ["json", '{"txn_id":"T1","amount":"1.5"}', "application/json"],
    ["urlencoded", "txn_id=T1&amount=1.5", "application/x-www-form-urlencoded"],
    ["multipart", '--b\r\nContent-Disposition: form-data; name="txn_id"\r\n\r\nT1\r\n--b--\r\n', "multipart/form-data; boundary=b"],
  ])("a %s callback without verify_hash is missing_signature", (_format, unsigned, contentType) => {
    expect(reasonOf(unsigned, contentType)).toBe("missing_signature")
  })

  it("an empty verify_hash is missing_signature", () => {
    expect(reasonOf(body.replace(signed.verifyHash, ""), "application/json")).toBe("missing_signature")
  })

  it("a verify_hash of the wrong length is bad_signature", () => {
    expect(reasonOf(body.replace(signed.verifyHash, signed.verifyHash.slice(2)), "application/json")).toBe("bad_signature")
  })

  it("a verify_hash that is not hexadecimal is bad_signature", () => {
    expect(reasonOf(body.replace(signed.verifyHash, "z".repeat(40)), "application/json")).toBe("bad_signature")
  })

  it("a JSON verify_hash that is not a string is bad_signature", () => {
    expect(reasonOf(body.replace(`"${signed.verifyHash}"`, "12345"), "application/json")).toBe("bad_signature")
  })

  it("an upper-case hexadecimal verify_hash is accepted", () => {
    const upper = body.replace(signed.verifyHash, signed.verifyHash.toUpperCase())
    expect(verifyCallback({ body: upper, contentType: "application/json", secretKey: SECRET }).fields).toEqual(signed.fields)
  })

  it("a verify_hash nested inside a JSON value is an ordinary field, not the signature", () => {
    const nested = signCallback({ meta: { verify_hash: "x" } }, { secretKey: SECRET, format: "json" })
    expect(verifyCallback({ body: nested.body, contentType: "application/json", secretKey: SECRET }).fields).toEqual({ meta: { verify_hash: "x" } })
  })

  it("verify_hash may stand anywhere among the JSON members", () => {
    const middle = `{"txn_id":"T1","verify_hash":"${signed.verifyHash}","amount":"1.5"}`
    expect(verifyCallback({ body: middle, contentType: "application/json", secretKey: SECRET }).fields).toEqual({ txn_id: "T1", amount: "1.5" })
  })

  it("a form verify_hash given twice is malformed", () => {
    const form = signCallback({ txn_id: "T1" }, { secretKey: SECRET, format: "urlencoded" })
    expect(reasonOf(`${form.body.toString()}&verify_hash=${form.verifyHash}`, form.contentType)).toBe("malformed_body")
  })

  it("never puts the secret key or the body in the error message", () => {
    const error = refusal(invoiceJson.body, "application/json", "another-secret-key")
    expect(error.message).not.toContain("another-secret-key")
    expect(error.message).not.toContain("Ünïcødé")
    expect(error.message).not.toContain(invoiceJson.verifyHash)
  })
})

describe("content types", () => {
  const json = signCallback({ txn_id: "T1" }, { secretKey: SECRET, format: "json" })
  const form = signCallback({ txn_id: "T1" }, { secretKey: SECRET, format: "urlencoded" })
  const multipart = signCallback({ txn_id: "T1" }, { secretKey: SECRET, format: "multipart", boundary: "b0und" })

  it.each(["application/json", "application/json; charset=utf-8", "Application/JSON; Charset=\"UTF-8\"", "application/vnd.gateway+json"])(
    "reads %s as JSON",
    (contentType) => {
      expect(verifyCallback({ body: json.body, contentType, secretKey: SECRET }).format).toBe("json")
    },
  )

  it.each(["application/x-www-form-urlencoded", "Application/X-WWW-Form-Urlencoded; charset=UTF-8"])("reads %s as a form", (contentType) => {
    expect(verifyCallback({ body: form.body, contentType, secretKey: SECRET }).format).toBe("form")
  })

  it.each(["multipart/form-data; boundary=b0und", 'Multipart/Form-Data; BOUNDARY="b0und"'])("reads %s as a form", (contentType) => {
    expect(verifyCallback({ body: multipart.body, contentType, secretKey: SECRET }).format).toBe("form")
  })

  it.each(["text/plain", "application/xml", "text/html; charset=utf-8"])("refuses %s as unsupported_content_type", (contentType) => {
    expect(reasonOf(json.body, contentType)).toBe("unsupported_content_type")
  })

  it("refuses a missing content type as unsupported_content_type", () => {
    expect(reasonOf(json.body, undefined)).toBe("unsupported_content_type")
  })

  it("refuses a charset other than UTF-8 as unsupported_content_type", () => {
    expect(reasonOf(json.body, "application/json; charset=iso-8859-1")).toBe("unsupported_content_type")
  })

  it("refuses a multipart content type without a boundary as malformed_body", () => {
    expect(reasonOf(multipart.body, "multipart/form-data")).toBe("malformed_body")
  })
})

describe("malformed bodies", () => {
  it("refuses a body over 1 MiB before reading it, saying it is too large", () => {
    const body = Buffer.alloc(MAX_CALLBACK_BODY_BYTES + 1, 0x20)
    const error = refusal(body, "application/json")
    expect(error.reason).toBe("malformed_body")
    expect(error.message).toMatch(/too large/)
  })

  it("refuses a string body over 1 MiB of UTF-8", () => {
    expect(refusal("é".repeat(MAX_CALLBACK_BODY_BYTES / 2 + 1), "application/json").message).toMatch(/too large/)
  })

  it.each([
    ["a duplicate top-level key", '{"a":"1","a":"2","verify_hash":"0000000000000000000000000000000000000000"}'],
    ["a duplicate nested key", '{"a":{"b":1,"b":2},"verify_hash":"0000000000000000000000000000000000000000"}'],
    ["verify_hash given twice", '{"verify_hash":"0000000000000000000000000000000000000000","verify_hash":"0000000000000000000000000000000000000000"}'],
    ["an unpaired surrogate escape", '{"a":"\\ud800","verify_hash":"0000000000000000000000000000000000000000"}'],
    ["a trailing comma", '{"a":"1",}'],
    ["an array at the top", "[]"],
    ["data after the object", '{"a":"1"} {}'],
    ["a number with a leading zero", '{"a":01}'],
    ["a raw control character in a string", '{"a":"x\ny"}'],
    ["truncated JSON", '{"a":"1"'],
  ])("refuses a JSON body with %s as malformed_body", (_what, body) => {
    expect(reasonOf(body, "application/json")).toBe("malformed_body")
  })

  it("refuses a JSON body that is not valid UTF-8 as malformed_body", () => {
    expect(reasonOf(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), "application/json")).toBe("malformed_body")
  })

  it.each([
    ["a field given twice", "a=1&a=2&verify_hash=x"],
    ["a field given as a value and a list", "a=1&a[]=2&verify_hash=x"],
    ["a list index out of order", "a[1]=1&a[0]=2&verify_hash=x"],
    ["a field name PHP would rewrite", "a.b=1&verify_hash=x"],
    ["a nested list", "a[0][0]=1&verify_hash=x"],
    ["an empty field name", "=1&verify_hash=x"],
    ["percent-encoded bytes that are not UTF-8", "a=%C3%28&verify_hash=x"],
  ])("refuses an urlencoded body with %s as malformed_body", (_what, body) => {
    expect(reasonOf(body, "application/x-www-form-urlencoded")).toBe("malformed_body")
  })

  it("refuses a multipart body that ends before its closing delimiter", () => {
    const cut = invoiceMultipart.body.slice(0, invoiceMultipart.body.length - 30)
    expect(reasonOf(cut, invoiceMultipart.contentType)).toBe("malformed_body")
  })

  it("refuses a multipart body with a file part", () => {
    const body = '--b\r\nContent-Disposition: form-data; name="a"; filename="a.txt"\r\n\r\nx\r\n--b--\r\n'
    expect(reasonOf(body, "multipart/form-data; boundary=b")).toBe("malformed_body")
  })

  it("refuses a body that is neither bytes nor a string", () => {
    expect(refusal({ a: 1 } as unknown as string, "application/json").reason).toBe("malformed_body") // a parsed object is the classic misuse
  })
})

describe("urlencoded decoding, as PHP's php_url_decode", () => {
  /** verify_hash for these fields, to put on a body written by hand. */
  const hashOf = (fields: CallbackInputFields): string => signCallback(fields, { secretKey: SECRET, format: "urlencoded" }).verifyHash

  it.each([
    ["'+' as a space", "a+b%20c", "a b c"],
    ["a '%' not followed by two hex digits as itself", "50%+off%zz%4", "50% off%zz%4"],
    ["'%u0041' as the six characters it is, not as 'A'", "100%u0041", "100%u0041"],
    ["lower-case and upper-case hex alike", "%2f%2F", "//"],
    ["percent-encoded UTF-8 as its characters", "Caf%C3%A9+%F0%9F%9A%80", "Café 🚀"],
  ])("reads %s", (_what, encoded, decoded) => {
    const body = `note=${encoded}&verify_hash=${hashOf({ note: decoded })}`
    expect(verifyCallback({ body, contentType: "application/x-www-form-urlencoded", secretKey: SECRET }).fields).toEqual({ note: decoded })
  })

  it("reads a part without '=' as a field with an empty value", () => {
    const body = `flag&verify_hash=${hashOf({ flag: "" })}`
    expect(verifyCallback({ body, contentType: "application/x-www-form-urlencoded", secretKey: SECRET }).fields).toEqual({ flag: "" })
  })

  it("reads raw UTF-8 bytes in a body like their percent-encoded form", () => {
    const body = Buffer.from(`note=Café&verify_hash=${hashOf({ note: "Café" })}`, "utf8")
    expect(verifyCallback({ body, contentType: "application/x-www-form-urlencoded", secretKey: SECRET }).fields).toEqual({ note: "Café" })
  })
})

describe("bodies and keys", () => {
  const signed = signCallback({ txn_id: "T1", order_name: "Café 🚀" }, { secretKey: SECRET, format: "json" })

  it.each([
    ["a Buffer", signed.body],
    ["a string", signed.body.toString("utf8")],
    ["a Uint8Array", new Uint8Array(signed.body)],
  ])("accepts the body as %s", (_what, body) => {
    expect(verifyCallback({ body, contentType: signed.contentType, secretKey: SECRET }).fields).toEqual(signed.fields)
  })

  it("refuses an empty secret key as a programming error", () => {
    expect(() => verifyCallback({ body: signed.body, contentType: signed.contentType, secretKey: "" })).toThrow(TypeError)
  })

  it("keeps a JSON __proto__ member as an own field, not a prototype", () => {
    const body = `{"__proto__":{"admin":true},"verify_hash":"0000000000000000000000000000000000000000"}`
    const proto = signCallback(JSON.parse(body.replace(/,"verify_hash".*$/, "}")) as CallbackInputFields, { secretKey: SECRET, format: "json" })
    const { fields } = verifyCallback({ body: proto.body, contentType: proto.contentType, secretKey: SECRET })
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype)
    expect(Object.prototype.hasOwnProperty.call(fields, "__proto__")).toBe(true)
    expect((fields as Record<string, unknown>).admin).toBeUndefined()
  })
})

describe("signCallback", () => {
  it("adds verify_hash as the last JSON member", () => {
    const signed = signCallback({ a: "1" }, { secretKey: SECRET, format: "json" })
    expect(signed.body.toString()).toBe(`{"a":"1","verify_hash":"${signed.verifyHash}"}`)
  })

  it("writes CallbackNumber and safe integers as JSON numbers", () => {
    const signed = signCallback({ amount: new CallbackNumber("0.00000001"), expire_utc: 1763712000 }, { secretKey: SECRET, format: "json" })
    expect(signed.body.toString()).toMatch(/^\{"amount":0\.00000001,"expire_utc":1763712000,/)
  })

  it("writes expire_utc as its decimal text in a form", () => {
    const signed = signCallback({ expire_utc: 1763712000 }, { secretKey: SECRET, format: "form" })
    expect(signed.fields).toEqual({ expire_utc: "1763712000" })
    expect(signed.contentType).toBe("application/x-www-form-urlencoded")
  })

  it("writes lists PHP style with indexes", () => {
    const signed = signCallback({ tx_urls: ["u1", "u2"] }, { secretKey: SECRET, format: "urlencoded" })
    expect(signed.body.toString()).toBe(`tx_urls%5B0%5D=u1&tx_urls%5B1%5D=u2&verify_hash=${signed.verifyHash}`)
  })

  it("uses the multipart boundary it is given", () => {
    const signed = signCallback({ a: "1" }, { secretKey: SECRET, format: "multipart", boundary: "my-boundary" })
    expect(signed.contentType).toBe("multipart/form-data; boundary=my-boundary")
    expect(signed.body.toString()).toMatch(/^--my-boundary\r\n/)
  })

  it("refuses a multipart boundary that occurs in a value", () => {
    expect(() => signCallback({ a: "x--my-boundary" }, { secretKey: SECRET, format: "multipart", boundary: "my-boundary" })).toThrow(TypeError)
  })

  it("refuses fields that already hold verify_hash", () => {
    expect(() => signCallback({ verify_hash: "x" }, { secretKey: SECRET, format: "json" })).toThrow(/verify_hash/)
  })

  it("refuses a JS number that is not a safe integer", () => {
    expect(() => signCallback({ amount: 0.1 }, { secretKey: SECRET, format: "json" })).toThrow(/amount/)
  })

  it("refuses a form field name PHP would rewrite", () => {
    expect(() => signCallback({ "a.b": "1" }, { secretKey: SECRET, format: "urlencoded" })).toThrow(TypeError)
  })

  it("refuses an object value in a form", () => {
    expect(() => signCallback({ a: { b: "1" } }, { secretKey: SECRET, format: "urlencoded" })).toThrow(/a: a form field/)
  })

  it("refuses a string with an unpaired surrogate", () => {
    expect(() => signCallback({ a: "\ud800" }, { secretKey: SECRET, format: "json" })).toThrow(/unpaired surrogate/)
  })

  it("refuses a CallbackNumber that is not a JSON number", () => {
    expect(() => new CallbackNumber("1.")).toThrow(TypeError)
  })
})

describe("JSON bodies whose signed text is unusual (the key holder signed exactly that text)", () => {
  /** The body a signer of `signedText` sends: the text with verify_hash appended as its last member. */
  const bodyOf = (signedText: string): string => {
    const verifyHash = createHmac("sha1", SECRET).update(signedText, "utf8").digest("hex")
    return `${signedText.slice(0, -1)},"verify_hash":"${verifyHash}"}`
  }
  const fieldsOf = (signedText: string): CallbackFields =>
    verifyCallback({ body: bodyOf(signedText), contentType: "application/json", secretKey: SECRET }).fields

  it("returns each number as the lexeme signed, even where JS would write it otherwise", () => {
    expect(fieldsOf('{"a":1E2,"b":100,"c":1.0,"d":-0,"e":0.00000001,"f":123456789.123456789012}')).toEqual({
      a: "1E2",
      b: "100",
      c: "1.0",
      d: "-0",
      e: "0.00000001",
      f: "123456789.123456789012",
    })
  })

  it("returns numbers in lists and nested objects as their lexemes", () => {
    expect(fieldsOf('{"a":[1,2.50],"b":{"c":"é","d":1e-7}}')).toEqual({ a: ["1", "2.50"], b: { c: "é", d: "1e-7" } })
  })

  it("reads escapes and whitespace of the signed text", () => {
    expect(fieldsOf('{ "a" : "x\\/y\\u00e9" ,\n"b":"\\ud83d\\ude80"}')).toEqual({ a: "x/yé", b: "🚀" })
  })

  it("reads integer-like and non-ASCII member names", () => {
    expect(fieldsOf('{"b":"1","10":"x","2":"y","é":"ü"}')).toEqual({ b: "1", 10: "x", 2: "y", é: "ü" })
  })

  it("decodes every non-ASCII string of a compact text, list items included", () => {
    expect(fieldsOf('{"a":"é","b":"plain","c":["x","–🚀","y","Zoë"],"d":7,"e":"Ü"}')).toEqual({
      a: "é",
      b: "plain",
      c: ["x", "–🚀", "y", "Zoë"],
      d: "7",
      e: "Ü",
    })
  })

  it("reads a non-ASCII member name that follows non-ASCII values", () => {
    expect(fieldsOf('{"a":"é","ñame":"ü","z":["ø"]}')).toEqual({ a: "é", ñame: "ü", z: ["ø"] })
  })

  it("keeps a __proto__ string member as an own field", () => {
    const fields = fieldsOf('{"__proto__":"x","a":"é"}')
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(fields, "__proto__")?.value).toBe("x")
  })

  it.each([
    ["a duplicate name", '{"a":"1","a":"2"}'],
    ["a duplicate name holding numbers", '{"n":1,"n":2}'],
    ["a duplicate name with a number and a string", '{"n":"1","n":2}'],
    ["a duplicate nested name", '{"a":{"b":"1","b":"2"}}'],
    ["verify_hash already", '{"a":"1","verify_hash":"x"}'],
    ["no member (the body opens with a comma)", "{}"],
    ["an unpaired surrogate escape", '{"a":"\\ud800"}'],
  ])("refuses as malformed_body a signed text with %s", (_what, signedText) => {
    expect(reasonOf(bodyOf(signedText), "application/json")).toBe("malformed_body")
  })
})

describe("urlencoded bodies in the less common shapes a PHP sender writes", () => {
  const form = (fields: CallbackInputFields): string => signCallback(fields, { secretKey: SECRET, format: "urlencoded" }).body.toString()
  const verified = (body: string): CallbackFields =>
    verifyCallback({ body, contentType: "application/x-www-form-urlencoded", secretKey: SECRET }).fields
  const hashOf = (fields: CallbackInputFields): string => signCallback(fields, { secretKey: SECRET, format: "urlencoded" }).verifyHash

  it("reads a list of ten elements or more", () => {
    const urls = Array.from({ length: 12 }, (_, i) => `https://explorer.example/tx/${i}?a=1&amp;b=2`)
    expect(verified(form({ amount: "1", tx_urls: urls }))).toEqual({ amount: "1", tx_urls: urls.map((url) => url.replace("&amp;", "&")) })
  })

  it("reads a list given in the append form name[]", () => {
    const body = `a=1&tx_urls[]=x%26amp%3By&tx_urls[]=z&verify_hash=${hashOf({ a: "1", tx_urls: ["x&amp;y", "z"] })}`
    expect(verified(body)).toEqual({ a: "1", tx_urls: ["x&y", "z"] })
  })

  it("reads a plain tx_urls with its HTML entities decoded", () => {
    expect(verified(form({ tx_urls: "https://x.example/?a=1&amp;b=&quot;é&quot;" }))).toEqual({ tx_urls: 'https://x.example/?a=1&b="é"' })
  })

  it("reads a percent-encoded letter in a field name", () => {
    const body = `%61mount=1&b=2&verify_hash=${hashOf({ amount: "1", b: "2" })}`
    expect(verified(body)).toEqual({ amount: "1", b: "2" })
  })

  it("reads a list whose elements are separated by verify_hash", () => {
    const body = `tx_urls%5B0%5D=a&verify_hash=${hashOf({ tx_urls: ["a", "b"] })}&tx_urls%5B1%5D=b`
    expect(verified(body)).toEqual({ tx_urls: ["a", "b"] })
  })

  it("reads fields given in reverse order, lists included", () => {
    const body = form({ a: "1", b: "é", tx_urls: ["x", "y"], z: "2" })
    const parts = body.split("&")
    const list = parts.filter((part) => part.startsWith("tx_urls"))
    const others = parts.filter((part) => !part.startsWith("tx_urls"))
    // The list elements keep their order ([0] before [1]); the other fields are reversed around them.
    const reordered = [...others.reverse(), ...list]
    expect(reordered.join("&")).not.toBe(body)
    expect(verified(reordered.join("&"))).toEqual({ a: "1", b: "é", tx_urls: ["x", "y"], z: "2" })
  })

  it.each([
    ["a list index with a leading zero", "a[00]=1&verify_hash=x"],
    ["a list index with a leading zero after the first element", "a[0]=1&a[01]=2&verify_hash=x"],
    ["a field given twice in order", "a=1&a=1&verify_hash=x"],
    ["a list named verify_hash", "verify_hash[0]=x"],
    ["a value and a list of the same name", "a=1&a[0]=2&verify_hash=x"],
    ["a list then a value of the same name", "a[0]=1&a=2&verify_hash=x"],
    ["a percent-encoded list value that is not UTF-8", "tx_urls[0]=%C3%28&verify_hash=x"],
    ["a field name with an escaped space", "a%20b=1&verify_hash=x"],
  ])("refuses an urlencoded body with %s as malformed_body", (_what, body) => {
    expect(reasonOf(body, "application/x-www-form-urlencoded")).toBe("malformed_body")
  })
})

describe("tx_urls in a form callback, as one string field or as a list", () => {
  // Computed by PHP 8 (http_build_query, then the receiver's html_entity_decode of tx_urls, ksort,
  // serialize and hash_hmac) for the key below: the gateway's own receivers read tx_urls as one
  // string field holding a JSON text with PHP-escaped slashes; PHP's array form reads it as a list.
  const key = "sk_test_tx_urls_forms"
  const stringForm = {
    body:
      "txn_id=INV-42&status=completed&amount=0.00123456&currency=BTC&tx_urls=%5B%22https%3A%5C%2F%5C%2Fexplorer.example%5C%2Ftx%5C%2Fab12%3Fnetwork%3Dtest%26amp%3Bref%3Dshop%22%2C%22https%3A%5C%2F%5C%2Fexplorer.example%5C%2Ftx%5C%2Fcd34%22%5D&verify_hash=c00b622d1dc0e14519cc8664c5869dae36c979db",
    txUrls: '["https:\\/\\/explorer.example\\/tx\\/ab12?network=test&ref=shop","https:\\/\\/explorer.example\\/tx\\/cd34"]',
  }
  const listForm = {
    body:
      "txn_id=INV-42&status=completed&amount=0.00123456&currency=BTC&tx_urls%5B0%5D=https%3A%2F%2Fexplorer.example%2Ftx%2Fab12%3Fnetwork%3Dtest%26amp%3Bref%3Dshop&tx_urls%5B1%5D=https%3A%2F%2Fexplorer.example%2Ftx%2Fcd34&verify_hash=809d1e39ae2e6d08f434b4aa0ed1b8f02fca2bab",
    txUrls: ["https://explorer.example/tx/ab12?network=test&ref=shop", "https://explorer.example/tx/cd34"],
  }
  const others = { txn_id: "INV-42", status: "completed", amount: "0.00123456", currency: "BTC" }

  /** The same fields as a multipart body, verify_hash kept: the signature does not depend on the encoding. */
  function asMultipart(urlencoded: string): { body: string; contentType: string } {
    const boundary = "tx-urls-boundary"
    const parts = [...new URLSearchParams(urlencoded)].map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    return { body: `${parts.join("")}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` }
  }

  it.each([
    ["one JSON string field", stringForm],
    ["a list", listForm],
  ])("accepts an urlencoded callback whose tx_urls is %s, returning it entity-decoded", (_form, vector) => {
    const verified = verifyCallback({ body: vector.body, contentType: "application/x-www-form-urlencoded", secretKey: key })
    expect(verified.fields).toEqual({ ...others, tx_urls: vector.txUrls })
  })

  it.each([
    ["one JSON string field", stringForm],
    ["a list", listForm],
  ])("accepts a multipart callback whose tx_urls is %s, returning it entity-decoded", (_form, vector) => {
    const { body, contentType } = asMultipart(vector.body)
    expect(verifyCallback({ body, contentType, secretKey: key }).fields).toEqual({ ...others, tx_urls: vector.txUrls })
  })

  it("refuses the string form under the list form's signature (they sign different fields)", () => {
    const forged = stringForm.body.replace(/verify_hash=[0-9a-f]+/, "verify_hash=809d1e39ae2e6d08f434b4aa0ed1b8f02fca2bab")
    expect(reasonOf(forged, "application/x-www-form-urlencoded", key)).toBe("bad_signature")
  })

  it("signs tx_urls given as one string as PHP does, in one field", () => {
    const txUrls = '["https:\\/\\/explorer.example\\/tx\\/ab12?network=test&amp;ref=shop","https:\\/\\/explorer.example\\/tx\\/cd34"]'
    const signed = signCallback({ ...others, tx_urls: txUrls }, { secretKey: key, format: "urlencoded" })
    expect(signed.verifyHash).toBe("c00b622d1dc0e14519cc8664c5869dae36c979db")
    expect([...new URLSearchParams(signed.body.toString())].filter(([name]) => name.startsWith("tx_urls"))).toEqual([["tx_urls", txUrls]])
  })
})
