/**
 * Property-based tests of callback signing and verification (spec §6.3): whatever the fields, a
 * signed body verifies to exactly those fields in every format, and no mutation of a signed body
 * yields fields other than the signed ones.
 */
import { createHmac } from "node:crypto"
import fc from "fast-check"
import { parse as losslessParse } from "lossless-json"
import {
  CallbackNumber,
  CallbackVerificationError,
  signCallback,
  verifyCallback,
  type CallbackInputFields,
  type CallbackInputValue,
  type SignCallbackOptions,
  type SignedCallback,
} from ".."

const SECRET = "property-test-secret"

type Format = SignCallbackOptions["format"]

/** Every body the signer writes: each form encoding and each JSON serializer variant. */
const SIGNINGS: ReadonlyArray<{ name: string; options: Omit<SignCallbackOptions, "secretKey"> }> = [
  { name: "urlencoded", options: { format: "urlencoded" } },
  // A fixed boundary, so a forged body and the genuine one share the content type.
  { name: "multipart", options: { format: "multipart", boundary: "Xq7-boundary-Zp9" } },
  { name: "JSON, raw", options: { format: "json", slashes: "raw", unicode: "raw" } },
  { name: "JSON, PHP escapes", options: { format: "json", slashes: "escaped", unicode: "escaped" } },
  { name: "JSON, escaped slashes", options: { format: "json", slashes: "escaped", unicode: "raw" } },
  { name: "JSON, escaped unicode", options: { format: "json", slashes: "raw", unicode: "escaped" } },
]

/** Any Unicode text (astral characters, controls, quotes, `&`, `/`...), never an unpaired surrogate. */
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.constantFrom("&", "amp;", "/", '"', "\\", "+", "%", "=", "é", "🚀", "\u2028", "\u007f", "\r\n", "-"), maxLength: 20 }),
)

/** Form field names (the form reader's grammar), never verify_hash. */
const formName = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,12}$/).filter((name) => name !== "verify_hash")

const formValue: fc.Arbitrary<CallbackInputValue> = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 1, arbitrary: fc.array(text, { minLength: 1, maxLength: 3 }) },
)

const formFields: fc.Arbitrary<CallbackInputFields> = fc.dictionary(formName, formValue, { minKeys: 1, maxKeys: 8 })

const numberLexeme = fc
  .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.option(fc.stringMatching(/^[0-9]{1,20}$/)), fc.option(fc.integer({ min: -400, max: 400 })))
  .map(([whole, fraction, exponent]) => `${whole}${fraction === null ? "" : `.${fraction}`}${exponent === null ? "" : `e${exponent}`}`)

/** Any JSON value the signer accepts, numbers given by their lexeme. */
const jsonValue: fc.Arbitrary<CallbackInputValue> = fc.letrec<{ value: CallbackInputValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    text,
    numberLexeme.map((lexeme) => new CallbackNumber(lexeme)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(text, tie("value"), { maxKeys: 3 }),
  ),
})).value

const jsonFields: fc.Arbitrary<CallbackInputFields> = fc.dictionary(
  text.filter((key) => key !== "verify_hash"),
  jsonValue,
  { minKeys: 1, maxKeys: 8 },
)

function fieldsFor(format: Format): fc.Arbitrary<CallbackInputFields> {
  return format === "json" ? jsonFields : formFields
}

/** The fields verifyCallback gives, or the reason it refused. */
function outcome(signed: SignedCallback, body: Buffer): { fields: unknown } | { reason: string } {
  try {
    return { fields: verifyCallback({ body, contentType: signed.contentType, secretKey: SECRET }).fields }
  } catch (error) {
    // Anything but a CallbackVerificationError (a TypeError, a RangeError) is a bug.
    if (!(error instanceof CallbackVerificationError)) throw error
    return { reason: error.reason }
  }
}

describe.each(SIGNINGS)("$name bodies", ({ options }) => {
  const sign = (fields: CallbackInputFields): SignedCallback => signCallback(fields, { ...options, secretKey: SECRET })

  it("verify to exactly the fields that were signed", () => {
    fc.assert(
      fc.property(fieldsFor(options.format), (fields) => {
        const signed = sign(fields)
        expect(verifyCallback({ body: signed.body, contentType: signed.contentType, secretKey: SECRET }).fields).toEqual(signed.fields)
      }),
    )
  })

  it("never yield other fields after a byte is flipped", () => {
    fc.assert(
      fc.property(fieldsFor(options.format), fc.nat(), fc.integer({ min: 1, max: 255 }), (fields, at, mask) => {
        const signed = sign(fields)
        const body = Buffer.from(signed.body)
        body[at % body.length] ^= mask
        const result = outcome(signed, body)
        // A flip may leave an equivalent encoding (`%2F` and `%2f`, a header name's case); what must
        // never happen is a body that verifies with different fields.
        if ("fields" in result) expect(result.fields).toEqual(signed.fields)
      }),
    )
  })

  it("are refused when a field value changes", () => {
    fc.assert(
      fc.property(fieldsFor(options.format), fc.nat(), text, (fields, pick, suffix) => {
        const names = Object.keys(fields)
        const name = names[pick % names.length]
        const original = fields[name]
        const changed = typeof original === "string" ? `${original}${suffix || "x"}` : "changed"
        const signed = sign(fields)
        const forged = sign({ ...fields, [name]: changed })
        fc.pre(JSON.stringify(forged.fields) !== JSON.stringify(signed.fields))
        // The forger's body with the genuine signature.
        const body = forged.body.toString("latin1").replace(forged.verifyHash, signed.verifyHash)
        expect(outcome(signed, Buffer.from(body, "latin1"))).toEqual({ reason: expect.stringMatching(/^(bad_signature|malformed_body)$/) })
      }),
    )
  })

  it("are refused when a field is dropped", () => {
    fc.assert(
      fc.property(fieldsFor(options.format), fc.nat(), (fields, pick) => {
        const names = Object.keys(fields)
        fc.pre(names.length > 1)
        const dropped = names[pick % names.length]
        const signed = sign(fields)
        const rest = Object.fromEntries(Object.entries(fields).filter(([name]) => name !== dropped))
        const forged = sign(rest)
        const body = forged.body.toString("latin1").replace(forged.verifyHash, signed.verifyHash)
        expect(outcome(signed, Buffer.from(body, "latin1"))).toEqual({ reason: "bad_signature" })
      }),
    )
  })

  it("are refused when a field is added", () => {
    fc.assert(
      fc.property(fieldsFor(options.format), formName, text, (fields, name, value) => {
        fc.pre(!Object.prototype.hasOwnProperty.call(fields, name))
        const signed = sign(fields)
        const forged = sign({ ...fields, [name]: value })
        const body = forged.body.toString("latin1").replace(forged.verifyHash, signed.verifyHash)
        expect(outcome(signed, Buffer.from(body, "latin1"))).toEqual({ reason: "bad_signature" })
      }),
    )
  })
})

describe("JSON bodies re-encoded in transit", () => {
  it("verify after pretty-printing, to the same fields", () => {
    fc.assert(
      fc.property(
        fc.dictionary(text.filter((key) => key !== "verify_hash"), fc.oneof(text, fc.array(text, { maxLength: 3 })), { minKeys: 1, maxKeys: 8 }),
        (fields) => {
          const signed = signCallback(fields, { secretKey: SECRET, format: "json" })
          const pretty = JSON.stringify(JSON.parse(signed.body.toString("utf8")), null, 2)
          expect(verifyCallback({ body: pretty, contentType: "application/json", secretKey: SECRET }).fields).toEqual(signed.fields)
        },
      ),
    )
  })

  it("are refused when two members swap places", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z]{1,8}$/), text), { minLength: 2, maxLength: 6, selector: ([key]) => key }).filter(
          (entries) => entries.every(([key]) => key !== "verify_hash"),
        ),
        (entries) => {
          const signed = signCallback(Object.fromEntries(entries), { secretKey: SECRET, format: "json" })
          const swapped = [entries[1], entries[0], ...entries.slice(2)]
          const forged = signCallback(Object.fromEntries(swapped), { secretKey: SECRET, format: "json" })
          const body = forged.body.toString("utf8").replace(forged.verifyHash, signed.verifyHash)
          expect(outcome(signed, Buffer.from(body, "utf8"))).toEqual({ reason: "bad_signature" })
        },
      ),
    )
  })
})

/** A JSON value as entries (so any name, `__proto__` aside, stays a plain name), numbers as lexemes. */
type Written = { string: string } | { number: string } | { literal: "true" | "false" | "null" } | { list: Written[] } | { members: Array<[string, Written]> }

const memberName = text.filter((name) => name !== "__proto__")

const written: fc.Arbitrary<Written> = fc.letrec<{ value: Written }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    text.map((value) => ({ string: value })),
    numberLexeme.map((lexeme) => ({ number: lexeme })),
    fc.constantFrom("true" as const, "false" as const, "null" as const).map((literal) => ({ literal })),
    fc.array(tie("value"), { maxLength: 3 }).map((list) => ({ list })),
    fc.uniqueArray(fc.tuple(memberName, tie("value")), { maxLength: 3, selector: ([name]) => name }).map((members) => ({ members })),
  ),
})).value

/** How a signer may write JSON: whitespace after `{ [ : ,`, `/` as `\/`, non-ASCII as `\uXXXX`. */
interface Style {
  readonly space: string
  readonly slashes: boolean
  readonly unicode: boolean
}

function writeString(value: string, style: Style): string {
  let out = JSON.stringify(value)
  if (style.slashes) out = out.replaceAll("/", "\\/")
  if (style.unicode) out = out.replace(/[^\u0000-\u007f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
  return out
}

function writeJson(value: Written, style: Style): string {
  if ("string" in value) return writeString(value.string, style)
  if ("number" in value) return value.number
  if ("literal" in value) return value.literal
  if ("list" in value) return `[${style.space}${value.list.map((item) => writeJson(item, style)).join(`,${style.space}`)}]`
  const members = value.members.map(([name, item]) => `${writeString(name, style)}:${style.space}${writeJson(item, style)}`)
  return `{${style.space}${members.join(`,${style.space}`)}}`
}

const style: fc.Arbitrary<Style> = fc.record({
  space: fc.constantFrom("", " ", "\n  "),
  slashes: fc.boolean(),
  unicode: fc.boolean(),
})

/** The body a signer of `signedText` sends: verify_hash appended as the last member. */
function signedBody(signedText: string): string {
  const verifyHash = createHmac("sha1", SECRET).update(signedText, "utf8").digest("hex")
  return `${signedText.slice(0, -1)},"verify_hash":"${verifyHash}"}`
}

describe("JSON bodies signed over any JSON text", () => {
  it("verify to that text's lossless reading, numbers as their lexemes", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(memberName.filter((name) => name !== "verify_hash"), written), { minLength: 1, maxLength: 8, selector: ([name]) => name }),
        style,
        (members, how) => {
          const signedText = writeJson({ members }, how)
          const expected = losslessParse(signedText, null, (lexeme: string) => lexeme)
          const { fields } = verifyCallback({ body: signedBody(signedText), contentType: "application/json", secretKey: SECRET })
          expect(fields).toEqual(expected)
        },
      ),
    )
  })

  it("are refused as malformed when a member name repeats", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(memberName.filter((name) => name !== "verify_hash"), written), { minLength: 1, maxLength: 6, selector: ([name]) => name }),
        written,
        fc.nat(),
        style,
        (members, repeated, pick, how) => {
          const [name] = members[pick % members.length]
          const signedText = writeJson({ members: [...members, [name, repeated]] }, how)
          try {
            verifyCallback({ body: signedBody(signedText), contentType: "application/json", secretKey: SECRET })
          } catch (error) {
            if (!(error instanceof CallbackVerificationError)) throw error
            expect(error.reason).toBe("malformed_body")
            return
          }
          throw new Error("a body with a repeated member name was accepted")
        },
      ),
    )
  })
})

describe("urlencoded bodies whose fields arrive in any order", () => {
  it("verify to the fields that were signed", () => {
    fc.assert(
      fc.property(formFields, fc.array(fc.nat(), { minLength: 16, maxLength: 16 }), (fields, keys) => {
        const signed = signCallback(fields, { secretKey: SECRET, format: "urlencoded" })
        // Whole fields move (a list's elements stay together and in order); verify_hash too.
        const groups = new Map<string, string[]>()
        for (const part of signed.body.toString().split("&")) {
          const name = part.slice(0, part.indexOf("=")).replace(/%5B.*$/, "")
          groups.set(name, [...(groups.get(name) ?? []), part])
        }
        const shuffled = [...groups.values()].map((parts, i) => ({ parts, key: keys[i % keys.length] * 32 + i })).sort((a, b) => a.key - b.key)
        const body = shuffled.flatMap(({ parts }) => parts).join("&")
        expect(verifyCallback({ body, contentType: signed.contentType, secretKey: SECRET }).fields).toEqual(signed.fields)
      }),
    )
  })
})
