/**
 * Differential property tests of callback verification (spec §6.3): the fast paths against the
 * general readers they stand in for. For generated signed bodies and mutations of them, whenever a
 * fast path gives a verdict, the general path gives the same verdict and the same fields, in the
 * same order; a fast path may only decline, never disagree.
 *
 * This file imports an internal module (internal/callbacks/paths.ts), for this one purpose: the
 * public verifyCallback runs a fast path first and falls back to the general one, so only the two
 * side by side show that they agree. Every other test goes through the public entry point.
 *
 * Paths compared:
 * - JSON: the trailing-signature path (one HMAC over the received bytes, then JSON.parse with the
 *   number lexemes read back) against the strict reader with its cut and its serializer variants;
 *   and, on any body ending with a signature member, the fast reading of the signed text against
 *   the strict reading of the same text.
 * - urlencoded: the one-pass (sorted) and two-pass readers against the general form reader: the
 *   same signed bytes (PHP serialize()), the same fields, the same verify_hash, for any body.
 * - multipart has no fast path; its general reading is checked against the urlencoded one of the
 *   same fields.
 */
import { createHmac } from "node:crypto"
import { isUtf8 } from "node:buffer"
import fc from "fast-check"
import { CallbackNumber, signCallback, type CallbackInputFields, type CallbackInputValue, type SignCallbackOptions } from ".."
import {
  buildFieldObject,
  CallbackVerificationError,
  findTrailingSignature,
  formFieldObject,
  readFormGenerally,
  readSignedJsonText,
  readSignedTextStrictly,
  readUrlencodedFastly,
  serializeFormFields,
  verifyFormGeneral,
  verifyJsonFast,
  verifyJsonGeneral,
  verifyUrlencodedFast,
  VERIFY_HASH_FIELD,
} from "../internal/callbacks/paths"

const SECRET = "differential-test-secret"

type Fields = Record<string, unknown>
type Verdict = { readonly accepted: Fields } | { readonly refused: string } | "declined"

/** A verdict from a path; anything but a CallbackVerificationError is a bug and fails the test. */
function verdictOf(run: () => Fields | undefined): Verdict {
  try {
    const fields = run()
    return fields === undefined ? "declined" : { accepted: fields }
  } catch (error) {
    if (!(error instanceof CallbackVerificationError)) throw error
    return { refused: error.reason }
  }
}

/** A value with every object turned into its [key, value] entries: equal only in the same order. */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered)
  if (value !== null && typeof value === "object") {
    return Object.entries(value).map(([key, item]) => [key, ordered(item)])
  }
  return value
}

/** The general verdict equals the fast one, fields and their order included, unless the fast path declined. */
function expectAgreement(fast: Verdict, general: Verdict): void {
  if (fast === "declined") return
  expect(general).toStrictEqual(fast)
  if ("accepted" in fast && typeof general === "object" && "accepted" in general) {
    expect(ordered(general.accepted)).toEqual(ordered(fast.accepted))
  }
}

const hmacHex = (bytes: Buffer | string): string => createHmac("sha1", SECRET).update(bytes).digest("hex")

/** Any Unicode text, with the characters the codecs treat specially weighted in. */
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 24 }),
  fc.string({
    unit: fc.constantFrom("&", "amp;", "&quot;", "/", '"', "\\", "+", "%", "=", "é", "🚀", "\u2028", "\u007f", "\r\n", "-", "1"),
    maxLength: 16,
  }),
)

/** Explorer URLs with HTML entities, as the gateway writes tx_urls. */
const txUrl = fc
  .tuple(fc.stringMatching(/^[0-9a-f]{4,16}$/), fc.constantFrom("", "?net=main&amp;ref=shop", "?a=1&amp;b=&quot;x&quot;", "?q=é"))
  .map(([hash, query]) => `https://explorer.example/tx/${hash}${query}`)

/** tx_urls in both forms a form callback carries: one JSON string (PHP-escaped slashes) or a list. */
const txUrls: fc.Arbitrary<CallbackInputValue> = fc.oneof(
  fc.array(txUrl, { minLength: 1, maxLength: 3 }).map((urls) => JSON.stringify(urls).replaceAll("/", "\\/")),
  fc.array(txUrl, { minLength: 1, maxLength: 3 }),
)

const formName = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,10}$/).filter((name) => name !== VERIFY_HASH_FIELD && name !== "tx_urls")

const formFields: fc.Arbitrary<CallbackInputFields> = fc
  .tuple(
    fc.dictionary(
      formName,
      fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: fc.array(text, { minLength: 1, maxLength: 3 }) }),
      { minKeys: 1, maxKeys: 8 },
    ),
    fc.option(txUrls),
  )
  .map(([fields, urls]) => (urls === null ? fields : { ...fields, tx_urls: urls }))

const numberLexeme = fc
  .tuple(
    fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
    fc.option(fc.stringMatching(/^[0-9]{1,12}$/)),
    fc.option(fc.integer({ min: -40, max: 40 })),
  )
  .map(([whole, fraction, exponent]) => `${whole}${fraction === null ? "" : `.${fraction}`}${exponent === null ? "" : `e${exponent}`}`)

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

/** The common invoice shape (flat strings, numbers, lists of strings: what the fast reader reads), or any JSON. */
const jsonFields: fc.Arbitrary<CallbackInputFields> = fc.oneof(
  fc
    .tuple(
      fc.dictionary(formName, fc.oneof(text, numberLexeme.map((lexeme) => new CallbackNumber(lexeme)), fc.boolean(), fc.constant(null)), {
        minKeys: 1,
        maxKeys: 10,
      }),
      fc.option(fc.array(txUrl, { maxLength: 3 })),
    )
    .map(([fields, urls]) => (urls === null ? fields : { ...fields, tx_urls: urls })),
  fc.dictionary(text.filter((key) => key !== VERIFY_HASH_FIELD), jsonValue, { minKeys: 1, maxKeys: 6 }),
)

const jsonStyles: ReadonlyArray<Pick<SignCallbackOptions, "slashes" | "unicode">> = [
  { slashes: "raw", unicode: "raw" },
  { slashes: "escaped", unicode: "escaped" },
  { slashes: "raw", unicode: "escaped" },
  { slashes: "escaped", unicode: "raw" },
  { slashes: "raw", unicode: "raw-php" },
  { slashes: "raw", unicode: "escaped-python" },
]
const jsonStyle = fc.constantFrom(...jsonStyles)

// ---- JSON ----

const jsonFast = (body: Buffer): Verdict => verdictOf(() => (isUtf8(body) ? verifyJsonFast(body, SECRET) : undefined))
const jsonGeneral = (body: Buffer): Verdict => verdictOf(() => verifyJsonGeneral(body, SECRET))

/** The body a sender writes for the signed text `signed`: the verify_hash member placed last. */
function jsonBody(signed: Buffer, verifyHash: string): Buffer {
  const text = signed.toString("latin1")
  const open = text.endsWith("}") ? text.slice(0, -1) : text
  const member = `"${VERIFY_HASH_FIELD}":"${verifyHash}"}`
  return Buffer.from(open === "{" ? `{${member}` : `${open},${member}`, "latin1")
}

/** The signed text of a body that ends with its signature member. */
function signedTextOf(body: Buffer): Buffer {
  const trailing = findTrailingSignature(body, VERIFY_HASH_FIELD)
  if (trailing === undefined) throw new Error("the signer's body does not end with its signature member")
  return Buffer.concat([body.subarray(0, trailing.cutStart), Buffer.from("}")])
}

/** Checks both JSON paths and both readings of the signed text on one body. */
function checkJson(body: Buffer): { fast: Verdict; general: Verdict } {
  const fast = jsonFast(body)
  const general = jsonGeneral(body)
  expectAgreement(fast, general)
  const trailing = isUtf8(body) ? findTrailingSignature(body, VERIFY_HASH_FIELD) : undefined
  if (trailing !== undefined) {
    // The readers only: no key involved, whatever the signature.
    const quick = readSignedJsonText(Buffer.from(body), trailing.cutStart, VERIFY_HASH_FIELD)
    if (quick !== undefined) {
      const strict = verdictOf(() => readSignedTextStrictly(body, trailing.cutStart))
      expectAgreement({ accepted: quick }, strict)
    }
  }
  return { fast, general }
}

/** A mutation of a signed JSON text (as bytes), from a generated choice. */
type TextMutation = (signed: Buffer, fields: CallbackInputFields, style: Pick<SignCallbackOptions, "slashes" | "unicode">) => Buffer

const NUMBER_IN_TEXT = /(?<=[:[,])-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?=[,}\]])/g

const textMutation: fc.Arbitrary<{ name: string; apply: TextMutation }> = fc.oneof(
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([at, mask]) => ({
    name: "flipped byte",
    apply: (signed: Buffer): Buffer => {
      const copy = Buffer.from(signed)
      copy[at % copy.length] ^= mask
      return copy
    },
  })),
  fc.nat().map((at) => ({ name: "truncated", apply: (signed: Buffer): Buffer => signed.subarray(0, at % signed.length) })),
  fc.tuple(fc.nat(), text).map(([pick, value]) => ({
    name: "changed field",
    apply: (_signed: Buffer, fields: CallbackInputFields, style: Pick<SignCallbackOptions, "slashes" | "unicode">): Buffer => {
      const names = Object.keys(fields)
      const changed = { ...fields, [names[pick % names.length]]: value }
      return signedTextOf(signCallback(changed, { secretKey: SECRET, format: "json", ...style }).body)
    },
  })),
  fc.nat().map((seed) => ({
    name: "reordered keys",
    apply: (_signed: Buffer, fields: CallbackInputFields, style: Pick<SignCallbackOptions, "slashes" | "unicode">): Buffer => {
      const entries = Object.entries(fields)
      // A rotation and a reversal: a different order whenever there are two keys or more.
      const rotated = [...entries.slice(seed % entries.length), ...entries.slice(0, seed % entries.length)].reverse()
      return signedTextOf(signCallback(Object.fromEntries(rotated), { secretKey: SECRET, format: "json", ...style }).body)
    },
  })),
  fc.tuple(fc.nat(), fc.constantFrom(".0", "0", "E", "e+0")).map(([pick, edit]) => ({
    name: "changed number lexeme",
    apply: (signed: Buffer): Buffer => {
      const textOf = signed.toString("latin1")
      const numbers = [...textOf.matchAll(NUMBER_IN_TEXT)]
      if (numbers.length === 0) return signed
      const match = numbers[pick % numbers.length]
      const lexeme = match[0]
      let next: string
      if (edit === ".0") next = /[.eE]/.test(lexeme) ? lexeme : `${lexeme}.0`
      else if (edit === "0") next = lexeme.includes(".") && !/[eE]/.test(lexeme) ? `${lexeme}0` : `${lexeme}`
      else if (edit === "E") next = lexeme.replace("e", "E")
      else next = /[eE]/.test(lexeme) ? lexeme : `${lexeme}e+0`
      const at = match.index ?? 0
      return Buffer.from(textOf.slice(0, at) + next + textOf.slice(at + lexeme.length), "latin1")
    },
  })),
  fc.constant({
    name: "entity-encoded tx_urls",
    apply: (signed: Buffer): Buffer =>
      Buffer.from(signed.toString("latin1").replaceAll("&amp;", "&amp;amp;").replaceAll("?", "?x=1&amp;"), "latin1"),
  }),
  fc.nat().map((pick) => ({
    name: "duplicate key",
    apply: (signed: Buffer, fields: CallbackInputFields): Buffer => {
      const names = Object.keys(fields)
      const name = names[pick % names.length]
      return Buffer.concat([Buffer.from(`{${JSON.stringify(name)}:"dup",`, "utf8"), signed.subarray(1)])
    },
  })),
  fc.constant({
    name: "verify_hash inside the signed text",
    apply: (signed: Buffer): Buffer => Buffer.concat([Buffer.from(`{"${VERIFY_HASH_FIELD}":"x",`), signed.subarray(1)]),
  }),
  fc.tuple(fc.nat(), fc.constantFrom(" ", "\n", "\t")).map(([at, space]) => ({
    name: "whitespace",
    apply: (signed: Buffer): Buffer => {
      const where = 1 + (at % Math.max(1, signed.length - 1))
      return Buffer.concat([signed.subarray(0, where), Buffer.from(space), signed.subarray(where)])
    },
  })),
  fc.constant({
    name: "slashes escaped",
    apply: (signed: Buffer): Buffer => Buffer.from(signed.toString("latin1").replaceAll("/", "\\/"), "latin1"),
  }),
  fc.constant({
    name: "nested object",
    apply: (signed: Buffer): Buffer => Buffer.concat([Buffer.from('{"nested":{"a":"1","b":[1,2.50]},'), signed.subarray(1)]),
  }),
)

describe("JSON callbacks: the trailing-signature fast path and the strict reader", () => {
  it("both accept every signed body, with the same fields, and the fast path takes it", () => {
    fc.assert(
      fc.property(jsonFields, jsonStyle, (fields, style) => {
        const signed = signCallback(fields, { secretKey: SECRET, format: "json", ...style })
        const { fast, general } = checkJson(signed.body)
        expect(fast).toStrictEqual({ accepted: signed.fields })
        expect(general).toStrictEqual(fast)
      }),
      { numRuns: 200 },
    )
  })

  it("give the same verdict and fields for mutated bodies, under the original signature or a fresh one", () => {
    const outcomes = new Map<string, number>()
    fc.assert(
      fc.property(jsonFields, jsonStyle, textMutation, fc.boolean(), (fields, style, mutation, resign) => {
        const original = signCallback(fields, { secretKey: SECRET, format: "json", ...style })
        const mutated = mutation.apply(signedTextOf(original.body), fields, style)
        // Re-signed: a key holder signed exactly the mutated text; otherwise a forger kept the signature.
        const body = jsonBody(mutated, resign ? hmacHex(mutated) : original.verifyHash)
        const { fast } = checkJson(body)
        const kind = fast === "declined" ? "declined" : "accepted" in fast ? "accepted" : fast.refused
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1)
      }),
      { numRuns: 600 },
    )
    // The mutations reach the fast path's every verdict, so the agreement above is not vacuous.
    expect([...outcomes.keys()].sort()).toEqual(expect.arrayContaining(["accepted", "declined", "malformed_body"]))
  })

  it("read a signed text alike when the signature member stands last with upper-case hex", () => {
    fc.assert(
      fc.property(jsonFields, (fields) => {
        const signed = signCallback(fields, { secretKey: SECRET, format: "json" })
        const body = jsonBody(signedTextOf(signed.body), signed.verifyHash.toUpperCase())
        const { fast } = checkJson(body)
        expect(fast).toStrictEqual({ accepted: signed.fields })
      }),
    )
  })
})

// ---- Forms ----

/** Checks the fast and the general reading of an urlencoded body, then both verdicts. */
function checkUrlencoded(body: Buffer): { fast: Verdict; general: Verdict; read: boolean } {
  const quick = readUrlencodedFastly(body)
  if (quick !== undefined) {
    // The fast reading is only ever a reading the general reader gives too.
    const generally = readFormGenerally(body, null)
    expect(quick.signedBytes.toString("latin1")).toBe(serializeFormFields(generally.signed).toString("latin1"))
    expect(quick.signature).toBe(generally.signature)
    const fastFields = buildFieldObject(quick.names, quick.texts).object
    const generalFields = formFieldObject(generally.signed)
    expect(ordered(fastFields)).toEqual(ordered(generalFields))
  }
  const fast = verdictOf(() => verifyUrlencodedFast(body, SECRET))
  const general = verdictOf(() => verifyFormGeneral(body, null, SECRET))
  expectAgreement(fast, general)
  return { fast, general, read: quick !== undefined }
}

/** The body with its verify_hash replaced by the HMAC of what the general reader reads (a key holder's signature). */
function resignUrlencoded(body: string): string {
  let reading
  try {
    reading = readFormGenerally(Buffer.from(body, "latin1"), null)
  } catch {
    return body
  }
  const hash = hmacHex(serializeFormFields(reading.signed))
  return body.replace(/(^|&)verify_hash=[^&]*/, `$1verify_hash=${hash}`)
}

const partMutation: fc.Arbitrary<{ name: string; apply: (parts: string[]) => string[] }> = fc.oneof(
  fc.array(fc.nat(), { minLength: 1, maxLength: 12 }).map((keys) => ({
    name: "reordered fields",
    apply: (parts: string[]): string[] =>
      parts
        .map((part, i) => ({ part, key: keys[i % keys.length] * 100 + i }))
        .sort((a, b) => a.key - b.key)
        .map(({ part }) => part),
  })),
  fc.nat().map((pick) => ({ name: "duplicate field", apply: (parts: string[]): string[] => [...parts, parts[pick % parts.length]] })),
  fc.nat().map((pick) => ({
    name: "dropped field",
    apply: (parts: string[]): string[] => parts.filter((_, i) => i !== pick % parts.length),
  })),
  fc.tuple(fc.nat(), text).map(([pick, value]) => ({
    name: "changed field",
    apply: (parts: string[]): string[] =>
      parts.map((part, i) => (i === pick % parts.length ? `${part.split("=")[0]}=${encodeURIComponent(value)}` : part)),
  })),
  fc.tuple(fc.nat(), fc.boolean()).map(([pick, lower]) => ({
    name: "percent-encoded letter",
    apply: (parts: string[]): string[] =>
      parts.map((part, i) => {
        if (i !== pick % parts.length) return part
        const at = part.search(/[A-Za-z0-9]/)
        if (at === -1) return part
        const hex = part.charCodeAt(at).toString(16)
        return `${part.slice(0, at)}%${lower ? hex : hex.toUpperCase()}${part.slice(at + 1)}`
      }),
  })),
  fc.constant({ name: "+ as %20", apply: (parts: string[]): string[] => parts.map((part) => part.replaceAll("+", "%20")) }),
  fc.constant({
    name: "lists in the append form",
    apply: (parts: string[]): string[] => parts.map((part) => part.replace(/%5B[0-9]+%5D=/, "[]=")),
  }),
  fc.constant({
    name: "raw brackets",
    apply: (parts: string[]): string[] => parts.map((part) => part.replace(/%5B([0-9]*)%5D=/, "[$1]=")),
  }),
  fc.constant({
    name: "list elements swapped",
    apply: (parts: string[]): string[] =>
      parts.map((part) => part.replace("%5B0%5D=", "%5B9%5D=").replace("%5B1%5D=", "%5B0%5D=").replace("%5B9%5D=", "%5B1%5D=")),
  }),
  fc.tuple(txUrls, fc.boolean()).map(([urls, asString]) => ({
    name: "entity-encoded tx_urls",
    apply: (parts: string[]): string[] => {
      const rest = parts.filter((part) => !part.startsWith("tx_urls"))
      const values = typeof urls === "string" ? [urls] : (urls as string[])
      const added =
        asString || typeof urls === "string"
          ? [`tx_urls=${encodeURIComponent(values.join(" "))}`]
          : values.map((url, i) => `tx_urls%5B${i}%5D=${encodeURIComponent(url)}`)
      return [...added, ...rest]
    },
  })),
  fc.constant({ name: "empty parts", apply: (parts: string[]): string[] => ["", ...parts.flatMap((part) => [part, ""])] }),
  fc.constant({ name: "a part without =", apply: (parts: string[]): string[] => ["flag", ...parts] }),
)

describe("urlencoded callbacks: the fast readers and the general form reader", () => {
  it("read every signed body alike, and the fast path takes it", () => {
    fc.assert(
      fc.property(formFields, (fields) => {
        const signed = signCallback(fields, { secretKey: SECRET, format: "urlencoded" })
        const { fast, general, read } = checkUrlencoded(signed.body)
        expect(read).toBe(true)
        expect(fast).toStrictEqual({ accepted: signed.fields })
        expect(general).toStrictEqual(fast)
      }),
      { numRuns: 200 },
    )
  })

  it("read mutated bodies alike and give the same verdict, under the original signature or a fresh one", () => {
    const outcomes = new Map<string, number>()
    fc.assert(
      fc.property(formFields, fc.array(partMutation, { minLength: 1, maxLength: 3 }), fc.boolean(), (fields, mutations, resign) => {
        const signed = signCallback(fields, { secretKey: SECRET, format: "urlencoded" })
        let parts = signed.body.toString("latin1").split("&")
        for (const mutation of mutations) parts = mutation.apply(parts)
        const text = parts.join("&")
        const body = Buffer.from(resign ? resignUrlencoded(text) : text, "latin1")
        const { fast, read } = checkUrlencoded(body)
        const kind = `${read ? "read" : "not read"}, ${fast === "declined" ? "declined" : "accepted"}`
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1)
      }),
      { numRuns: 600 },
    )
    // Mutated bodies the fast readers take, verify or leave: the agreement above is not vacuous.
    expect([...outcomes.keys()]).toEqual(expect.arrayContaining(["read, accepted", "read, declined", "not read, declined"]))
  })

  it("read alike after a byte is flipped or the body is cut short", () => {
    fc.assert(
      fc.property(formFields, fc.nat(), fc.integer({ min: 0, max: 255 }), (fields, at, mask) => {
        const signed = signCallback(fields, { secretKey: SECRET, format: "urlencoded" })
        const flipped = Buffer.from(signed.body)
        flipped[at % flipped.length] ^= mask
        checkUrlencoded(flipped)
        checkUrlencoded(signed.body.subarray(0, at % signed.body.length))
      }),
      { numRuns: 300 },
    )
  })
})

describe("multipart callbacks (no fast path)", () => {
  it("are read by the general reader exactly as the urlencoded body of the same fields", () => {
    fc.assert(
      fc.property(formFields, (fields) => {
        const multipart = signCallback(fields, { secretKey: SECRET, format: "multipart", boundary: "differential-boundary" })
        const urlencoded = signCallback(fields, { secretKey: SECRET, format: "urlencoded" })
        const fromMultipart = readFormGenerally(multipart.body, multipart.contentType)
        const fromUrlencoded = readFormGenerally(urlencoded.body, null)
        const signedBytes = (reading: typeof fromMultipart): string => serializeFormFields(reading.signed).toString("latin1")
        expect(signedBytes(fromMultipart)).toBe(signedBytes(fromUrlencoded))
        expect(ordered(formFieldObject(fromMultipart.signed))).toEqual(ordered(formFieldObject(fromUrlencoded.signed)))
        const verdict = verdictOf(() => verifyFormGeneral(multipart.body, multipart.contentType, SECRET))
        expect(verdict).toStrictEqual({ accepted: multipart.fields })
      }),
    )
  })
})
