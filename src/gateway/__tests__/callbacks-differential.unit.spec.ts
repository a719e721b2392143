/**
 * Differential property tests of callback verification (spec §6.3): the codec (verifyCallback)
 * against an independent, straightforward implementation written here from the readings of
 * docs/gateway-readings.md, built on other code: URLSearchParams and a ten-line PHP serialize() for
 * forms, lossless-json for JSON. For generated signed bodies and mutations of them (under the
 * original signature, as a forger would send, or re-signed, as a key holder would), both must give
 * the same verdict and the same fields in the same order.
 *
 * Where the reference is deliberately simpler than the codec, the comparison says so:
 * - JSON: the reference tries the compact serializations (spec §6.3 with NOTES: `/` raw or `\/` ×
 *   non-ASCII raw or `\uXXXX`, plus PHP's U+2028/U+2029 and Python's DEL escapes). The codec also
 *   accepts a body whose received bytes, verify_hash member cut out, match the signature (whitespace
 *   kept); so a body that is not itself compact may be accepted by the codec alone, with the fields
 *   the reference reads. lossless-json parses into plain objects, which list integer-like keys first:
 *   bodies holding such a key are compared on their verdict only when the reference can keep the order.
 */
import { createHmac } from "node:crypto"
import { isUtf8 } from "node:buffer"
import fc from "fast-check"
import { decodeHTML, DecodingMode } from "entities"
import { isLosslessNumber, parse as parseLossless, stringify as stringifyLossless } from "lossless-json"
import {
  CallbackNumber,
  CallbackVerificationError,
  signCallback,
  verifyCallback,
  VERIFY_HASH_FIELD,
  type CallbackInputFields,
  type CallbackInputValue,
  type SignCallbackOptions,
} from ".."

const SECRET = "differential-test-secret"

type Fields = Record<string, unknown>
type Verdict = { readonly accepted: Fields } | "refused"

/** The codec's verdict; anything but a CallbackVerificationError is a bug and fails the test. */
function codec(body: Buffer, contentType: string): Verdict {
  try {
    return { accepted: verifyCallback({ body, contentType, secretKey: SECRET }).fields }
  } catch (error) {
    if (!(error instanceof CallbackVerificationError)) throw error
    return "refused"
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

function expectSame(actual: Verdict, expected: Verdict): void {
  expect(actual).toStrictEqual(expected)
  if (actual !== "refused" && expected !== "refused") expect(ordered(actual.accepted)).toEqual(ordered(expected.accepted))
}

const hmacHex = (bytes: Buffer | string): string => createHmac("sha1", SECRET).update(bytes).digest("hex")

/** Constant-time enough for a test: the received verify_hash against a computed one (hex, any case). */
const signatureMatches = (received: unknown, computed: string): boolean =>
  typeof received === "string" && /^[0-9a-fA-F]{40}$/.test(received) && received.toLowerCase() === computed

// ---- The reference: forms ----

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/

/** PHP serialize() of a string: its length in UTF-8 bytes. */
const phpString = (value: string): string => `s:${Buffer.byteLength(value, "utf8")}:"${value}";`

/** PHP serialize() of the $_POST array: string keys, string or list values. */
function phpSerialize(fields: ReadonlyArray<readonly [string, string | string[]]>): string {
  const item = (value: string | string[]): string =>
    typeof value === "string" ? phpString(value) : `a:${value.length}:{${value.map((v, i) => `i:${i};${phpString(v)}`).join("")}}`
  return `a:${fields.length}:{${fields.map(([name, value]) => phpString(name) + item(value)).join("")}}`
}

/** Percent-decoding as PHP does it for $_POST, refusing what is not UTF-8. */
function formDecode(raw: string): string | undefined {
  const bytes = Buffer.from(new URLSearchParams(`x=${raw}`).get("x") ?? "", "utf8")
  // URLSearchParams replaces invalid UTF-8 with U+FFFD: decode by hand to see it.
  const octets: number[] = []
  const text = raw.replaceAll("+", " ")
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "%" && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      octets.push(parseInt(text.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      octets.push(...Buffer.from(text[i], "utf8"))
    }
  }
  const exact = Buffer.from(octets)
  if (!isUtf8(exact) || !exact.equals(bytes)) return undefined
  return exact.toString("utf8")
}

/**
 * The reference reading of an urlencoded body (docs/gateway-readings.md#form-callback-signature):
 * `name=value` pairs; `name[i]` (i = its position) or `name[]` build a list; names are plain; no
 * name given twice; then sort by name, decode tx_urls' entities, PHP serialize, HMAC-SHA1.
 */
function referenceForm(body: Buffer): Verdict {
  if (!isUtf8(body)) return "refused"
  const values = new Map<string, string | string[]>()
  const kinds = new Map<string, "plain" | "list">()
  for (const part of body.toString("utf8").split("&")) {
    if (part === "") continue
    const at = part.indexOf("=")
    const rawName = at === -1 ? part : part.slice(0, at)
    const name = formDecode(rawName)
    const value = formDecode(at === -1 ? "" : part.slice(at + 1))
    if (name === undefined || value === undefined) return "refused"
    const list = /^([^[\]]*)\[(0|[1-9][0-9]*)?\]$/.exec(name)
    const base = list === null ? name : list[1]
    if (!PLAIN_NAME.test(base)) return "refused"
    const kind = list === null ? "plain" : "list"
    if (kinds.has(base) && (kinds.get(base) !== kind || kind === "plain")) return "refused"
    kinds.set(base, kind)
    if (kind === "plain") {
      values.set(base, value)
    } else {
      const items = (values.get(base) as string[] | undefined) ?? []
      if (list?.[2] !== undefined && Number(list[2]) !== items.length) return "refused"
      items.push(value)
      values.set(base, items)
    }
  }
  const signature = values.get(VERIFY_HASH_FIELD)
  if (signature === undefined || signature === "") return "refused"
  if (typeof signature !== "string") return "refused"
  values.delete(VERIFY_HASH_FIELD)
  const decode = (value: string): string => decodeHTML(value, DecodingMode.Strict)
  const signed = [...values.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]): [string, string | string[]] =>
      name === "tx_urls" ? [name, typeof value === "string" ? decode(value) : value.map(decode)] : [name, value],
    )
  if (!signatureMatches(signature, hmacHex(Buffer.from(phpSerialize(signed), "utf8")))) return "refused"
  return { accepted: Object.fromEntries(signed) }
}

// ---- The reference: JSON ----

/** Back to plain values: numbers as their received lexeme. */
function plain(value: unknown): unknown {
  if (isLosslessNumber(value)) return value.toString()
  if (Array.isArray(value)) return value.map(plain)
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: plain(item), enumerable: true, writable: true, configurable: true })
    return out
  }
  return value
}

/** Does any string (key or value) hold an unpaired surrogate? */
function hasLoneSurrogate(value: unknown): boolean {
  const lone = (text: string): boolean => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)
  if (typeof value === "string") return lone(value)
  if (Array.isArray(value)) return value.some(hasLoneSurrogate)
  if (value !== null && typeof value === "object") return Object.entries(value).some(([key, item]) => lone(key) || hasLoneSurrogate(item))
  return false
}

/** Does any object, at any depth, have an integer-like key (which a JS object lists first)? */
function hasIndexKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasIndexKey)
  if (value !== null && typeof value === "object") return Object.entries(value).some(([key, item]) => /^(0|[1-9][0-9]*)$/.test(key) || hasIndexKey(item))
  return false
}

const escapeUnicode = (text: string, from: RegExp): string =>
  text.replace(from, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** The compact writings a gateway serializer may have signed (NOTES: 4 forms, plus PHP's and Python's edges). */
function compactWritings(value: unknown): string[] {
  const raw = stringifyLossless(value) ?? ""
  const escaped = escapeUnicode(raw, /[\u0080-\uffff]/g)
  const php = escapeUnicode(raw, /[\u2028\u2029]/g)
  const python = escapeUnicode(raw, /[\u007f-\uffff]/g)
  return [raw, escaped, php, python].flatMap((text) => [text, text.replaceAll("/", "\\/")])
}

type JsonReference = { readonly verdict: Verdict; readonly keepsOrder: boolean; readonly fields?: Fields }

/** The reference reading of a JSON body: strict parse, the object without verify_hash, its compact writings. */
function referenceJson(body: Buffer): JsonReference {
  if (!isUtf8(body)) return { verdict: "refused", keepsOrder: true }
  let root: unknown
  try {
    root = parseLossless(body.toString("utf8")) // refuses duplicate keys
  } catch {
    return { verdict: "refused", keepsOrder: true }
  }
  if (root === null || typeof root !== "object" || Array.isArray(root) || hasLoneSurrogate(root)) return { verdict: "refused", keepsOrder: true }
  const { [VERIFY_HASH_FIELD]: signature, ...rest } = root as Record<string, unknown>
  const keepsOrder = !hasIndexKey(rest)
  const fields = plain(rest) as Fields
  if (signature === undefined || signature === "") return { verdict: "refused", keepsOrder, fields }
  const matches = compactWritings(rest).some((text) => signatureMatches(signature, hmacHex(Buffer.from(text, "utf8"))))
  return { verdict: matches ? { accepted: fields } : "refused", keepsOrder, fields }
}

/** Is the body one of the compact writings of its own object (so no whitespace to keep)? */
function isCompact(body: Buffer): boolean {
  try {
    return compactWritings(parseLossless(body.toString("utf8"))).includes(body.toString("utf8"))
  } catch {
    return false
  }
}

/** The codec against the reference on one JSON body; returns the codec's verdict kind. */
function checkJson(body: Buffer): string {
  const mine = codec(body, "application/json")
  const reference = referenceJson(body)
  if (!reference.keepsOrder) {
    // The reference lost the key order: compare the verdict where it can, the fields as sets.
    if (mine !== "refused" && reference.fields !== undefined) expect(mine.accepted).toEqual(reference.fields)
    return "skipped (integer-like key)"
  }
  if (mine !== "refused" && reference.verdict === "refused" && reference.fields !== undefined && !isCompact(body)) {
    // Accepted on its received bytes (whitespace kept): the fields are still the reference's reading.
    expectSame(mine, { accepted: reference.fields })
    return "accepted on received bytes"
  }
  expectSame(mine, reference.verdict)
  return mine === "refused" ? "refused" : "accepted"
}

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

/** The common invoice shape (flat strings, numbers, lists of strings), or any JSON. */
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

/** The body a sender writes for the signed text `signed`: the verify_hash member placed last. */
function jsonBody(signed: Buffer, verifyHash: string): Buffer {
  const text = signed.toString("latin1")
  const open = text.endsWith("}") ? text.slice(0, -1) : text
  const member = `"${VERIFY_HASH_FIELD}":"${verifyHash}"}`
  return Buffer.from(open === "{" ? `{${member}` : `${open},${member}`, "latin1")
}

/** The signed text of a body the signer wrote: its verify_hash member (last, 40 hex digits) cut off. */
function signedTextOf(body: Buffer): Buffer {
  const member = Buffer.from(`"${VERIFY_HASH_FIELD}":"`)
  const at = body.length - member.length - 42
  if (!body.subarray(at, at + member.length).equals(member)) throw new Error("the signer's body does not end with its signature member")
  return Buffer.concat([body.subarray(0, body[at - 1] === 0x2c ? at - 1 : at), Buffer.from("}")])
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

describe("JSON callbacks: the codec and the reference", () => {
  it("both accept every signed body, with the same fields in the same order", () => {
    fc.assert(
      fc.property(jsonFields, jsonStyle, (fields, style) => {
        const signed = signCallback(fields, { secretKey: SECRET, format: "json", ...style })
        checkJson(signed.body)
        expect(codec(signed.body, "application/json")).toStrictEqual({ accepted: signed.fields })
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
        const kind = checkJson(body)
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1)
      }),
      { numRuns: 600 },
    )
    // The mutations reach both verdicts, so the agreement above is not vacuous.
    expect([...outcomes.keys()]).toEqual(expect.arrayContaining(["accepted", "refused"]))
    expect(outcomes.get("accepted") ?? 0).toBeGreaterThan(outcomes.get("skipped (integer-like key)") ?? 0)
  })

  it("agree on a signature in upper-case hex", () => {
    fc.assert(
      fc.property(jsonFields, (fields) => {
        const signed = signCallback(fields, { secretKey: SECRET, format: "json" })
        const body = jsonBody(signedTextOf(signed.body), signed.verifyHash.toUpperCase())
        checkJson(body)
        expect(codec(body, "application/json")).toStrictEqual({ accepted: signed.fields })
      }),
    )
  })
})

// ---- Forms ----

/** The codec against the reference on one urlencoded body; returns the verdict kind. */
function checkUrlencoded(body: Buffer): string {
  const mine = codec(body, "application/x-www-form-urlencoded")
  expectSame(mine, referenceForm(body))
  return mine === "refused" ? "refused" : "accepted"
}

/** The body with its verify_hash replaced by the reference's HMAC of its fields (a key holder's signature). */
function resignUrlencoded(body: string): string {
  const parts = body.split("&")
  const withoutHash = parts.filter((part) => !part.startsWith(`${VERIFY_HASH_FIELD}=`))
  // Sign what the reference reads, with a placeholder signature so it reads the fields at all.
  const fields = new Map<string, string | string[]>()
  for (const part of withoutHash) {
    if (part === "") continue
    const at = part.indexOf("=")
    const name = formDecode(at === -1 ? part : part.slice(0, at))
    const value = formDecode(at === -1 ? "" : part.slice(at + 1))
    if (name === undefined || value === undefined) return body
    const list = /^([^[\]]*)\[[0-9]*\]$/.exec(name)
    if (list === null) fields.set(name, value)
    else fields.set(list[1], [...((fields.get(list[1]) as string[] | undefined) ?? []), value])
  }
  const decode = (value: string): string => decodeHTML(value, DecodingMode.Strict)
  const signed = [...fields.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]): [string, string | string[]] =>
      name === "tx_urls" ? [name, typeof value === "string" ? decode(value) : value.map(decode)] : [name, value],
    )
  const hash = hmacHex(Buffer.from(phpSerialize(signed), "utf8"))
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

describe("urlencoded callbacks: the codec and the reference", () => {
  it("both accept every signed body, with the same fields", () => {
    fc.assert(
      fc.property(formFields, (fields) => {
        const signed = signCallback(fields, { secretKey: SECRET, format: "urlencoded" })
        expect(checkUrlencoded(signed.body)).toBe("accepted")
        expect(codec(signed.body, signed.contentType)).toStrictEqual({ accepted: signed.fields })
      }),
      { numRuns: 200 },
    )
  })

  it("give the same verdict and fields for mutated bodies, under the original signature or a fresh one", () => {
    const outcomes = new Map<string, number>()
    fc.assert(
      fc.property(formFields, fc.array(partMutation, { minLength: 1, maxLength: 3 }), fc.boolean(), (fields, mutations, resign) => {
        const signed = signCallback(fields, { secretKey: SECRET, format: "urlencoded" })
        let parts = signed.body.toString("latin1").split("&")
        for (const mutation of mutations) parts = mutation.apply(parts)
        const text = parts.join("&")
        const body = Buffer.from(resign ? resignUrlencoded(text) : text, "latin1")
        const kind = checkUrlencoded(body)
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1)
      }),
      { numRuns: 600 },
    )
    expect([...outcomes.keys()]).toEqual(expect.arrayContaining(["accepted", "refused"]))
  })

  it("agree after a byte is flipped or the body is cut short", () => {
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

describe("multipart callbacks", () => {
  it("are verified as the urlencoded body of the same fields, which the reference reads alike", () => {
    fc.assert(
      fc.property(formFields, (fields) => {
        const multipart = signCallback(fields, { secretKey: SECRET, format: "multipart", boundary: "differential-boundary" })
        const urlencoded = signCallback(fields, { secretKey: SECRET, format: "urlencoded" })
        expect(multipart.verifyHash).toBe(urlencoded.verifyHash)
        const fromMultipart = codec(multipart.body, multipart.contentType)
        expectSame(fromMultipart, referenceForm(urlencoded.body))
        expectSame(fromMultipart, { accepted: multipart.fields })
      }),
    )
  })
})
