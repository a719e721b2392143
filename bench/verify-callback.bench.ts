/**
 * Benchmark of verifyCallback (docs/gateway-readings.md#callback-verification-cost): a typical
 * invoice callback (about 900 bytes, non-ASCII in order_name, tx_urls present) in each format, against a bare HMAC-SHA1 of the same
 * bytes and a straightforward reference implementation. Prints the median ns/op of each case and
 * the median, over interleaved rounds, of the ratios verify/bare-HMAC and reference/bare-HMAC.
 *
 * Run: npm run bench
 * Times are CPU time of this process (process.cpuUsage), so load from other processes on a shared
 * machine inflates them less than wall time would; ratios are taken per round.
 */
import { createHmac } from "node:crypto"
import { cpus, loadavg } from "node:os"
import busboy from "busboy"
import { decodeHTML } from "entities"
import { signCallback, verifyCallback, type CallbackInputFields } from "../src/gateway"

const SECRET = "sk_live_9f8e7d6c5b4a3f2e1d0c"

/** A white-label invoice callback with every field of spec §6.1. */
const INVOICE: CallbackInputFields = {
  txn_id: "INV-7a1f3c9e2b4d",
  ipn_type: "invoice",
  merchant: "Café Bistro Shop",
  merchant_id: "4b8f1e2a-93d0-4c6e-a1b2-c3d4e5f60718",
  amount: "0.00123456",
  currency: "BTC",
  order_number: "order_1042",
  order_name: "Café – Ünïcødé 🚀 order for Zoë",
  confirmations: "2",
  status: "completed",
  source_currency: "EUR",
  source_amount: "123.45",
  source_rate: "100000.00000001",
  comment: "Paid in full",
  invoice_commission: "0.00001234",
  invoice_sum: "0.00122222",
  invoice_total_sum: "0.00123456",
  switch_id: "INV-0000000001",
  psys_cid: "BTC",
  pending_amount: "0",
  qr_code: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==",
  tx_urls: [
    "https://blockstream.example/tx/4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b?net=main&amp;ref=shop",
  ],
  expire_utc: 1763712000,
}

function now(): bigint {
  return process.hrtime.bigint()
}

/** Runs `run` until `ms` milliseconds have passed (JIT warm-up). */
function warmUp(run: () => unknown, ms: number): void {
  const end = now() + BigInt(ms * 1e6)
  while (now() < end) for (let i = 0; i < 100; i++) run()
}

/** Iterations that take about `ms` milliseconds. */
function batchSize(run: () => unknown, ms: number): number {
  let batch = 16
  for (;;) {
    const start = now()
    for (let i = 0; i < batch; i++) run()
    if (Number(now() - start) >= ms * 1e6) return batch
    batch *= 2
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/**
 * CPU ns/op of each case, per round. The cases are timed in interleaved rounds (one batch of each per
 * round), so a change in machine load hits all of them alike; ratios are taken per round.
 */
const ROUNDS = 61

function measure(cases: Record<string, () => unknown>, rounds = ROUNDS, warmupMs = 300, batchMs = 10): Record<string, number[]> {
  const names = Object.keys(cases)
  for (const name of names) warmUp(cases[name], warmupMs)
  const batches = Object.fromEntries(names.map((name) => [name, batchSize(cases[name], batchMs)]))
  const perOp: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      const run = cases[name]
      const batch = batches[name]
      // CPU time of this process, not wall time: the machine is shared, and time spent descheduled
      // is not the code's cost.
      const start = process.cpuUsage()
      for (let i = 0; i < batch; i++) run()
      const used = process.cpuUsage(start)
      perOp[name].push(((used.user + used.system) * 1000) / batch)
    }
  }
  return perOp
}

function bareHmac(body: Buffer): Buffer {
  return createHmac("sha1", SECRET).update(body).digest()
}

/** Straightforward JSON check: JSON.parse, drop verify_hash, JSON.stringify, HMAC. */
function referenceJson(body: Buffer): boolean {
  const object = JSON.parse(body.toString("utf8")) as Record<string, unknown>
  const hash = object.verify_hash
  delete object.verify_hash
  return createHmac("sha1", SECRET).update(JSON.stringify(object)).digest("hex") === hash
}

/** Straightforward PHP serialize() of a $_POST-shaped array (lengths in UTF-8 bytes). */
function phpSerialize(fields: Record<string, string | string[]>): string {
  const str = (s: string): string => `s:${Buffer.byteLength(s)}:"${s}";`
  const keys = Object.keys(fields).sort()
  let out = `a:${keys.length}:{`
  for (const key of keys) {
    const value = fields[key]
    out += str(key)
    out += typeof value === "string" ? str(value) : `a:${value.length}:{${value.map((v, i) => `i:${i};${str(v)}`).join("")}}`
  }
  return `${out}}`
}

function referenceFormCheck(fields: Record<string, string | string[]>): boolean {
  const hash = fields.verify_hash
  delete fields.verify_hash
  const tx = fields.tx_urls
  if (tx !== undefined) fields.tx_urls = typeof tx === "string" ? decodeHTML(tx) : tx.map((url) => decodeHTML(url))
  return createHmac("sha1", SECRET).update(phpSerialize(fields)).digest("hex") === hash
}

function addFormField(fields: Record<string, string | string[]>, name: string, value: string): void {
  const list = /^(.*)\[\d*\]$/.exec(name)
  if (list === null) {
    fields[name] = value
    return
  }
  const existing = fields[list[1]]
  fields[list[1]] = Array.isArray(existing) ? [...existing, value] : [value]
}

/** Straightforward urlencoded check: URLSearchParams, PHP-serialize, HMAC. */
function referenceUrlencoded(body: Buffer): boolean {
  const fields: Record<string, string | string[]> = {}
  for (const [name, value] of new URLSearchParams(body.toString("utf8"))) addFormField(fields, name, value)
  return referenceFormCheck(fields)
}

/** Straightforward multipart check: busboy, PHP-serialize, HMAC. */
function referenceMultipart(body: Buffer, contentType: string): boolean {
  const fields: Record<string, string | string[]> = {}
  const parser = busboy({ headers: { "content-type": contentType }, defParamCharset: "utf8" })
  parser.on("field", (name: string, value: string) => addFormField(fields, name, value))
  parser.end(body)
  return referenceFormCheck(fields)
}

interface FormatResult {
  readonly format: string
  readonly bytes: number
  readonly hmacNs: number
  readonly verifyNs: number
  readonly referenceNs: number
  readonly verifyRatio: number
  readonly referenceRatio: number
}

function benchFormat(format: string, body: Buffer, contentType: string, reference: () => boolean): FormatResult {
  // Each check must succeed before it is timed: a benchmark of a failing path measures nothing.
  verifyCallback({ body, contentType, secretKey: SECRET })
  if (!reference()) throw new Error(`the ${format} reference does not verify its own body`)
  const ns = measure({
    hmac: () => bareHmac(body),
    verify: () => verifyCallback({ body, contentType, secretKey: SECRET }),
    reference,
  })
  const ratios = (name: string): number[] => ns[name].map((value, round) => value / ns.hmac[round])
  return {
    format,
    bytes: body.length,
    hmacNs: median(ns.hmac),
    verifyNs: median(ns.verify),
    referenceNs: median(ns.reference),
    verifyRatio: median(ratios("verify")),
    referenceRatio: median(ratios("reference")),
  }
}

export function runVerifyCallbackBench(): FormatResult[] {
  const json = signCallback(INVOICE, { secretKey: SECRET, format: "json" })
  const jsonPhp = signCallback(INVOICE, { secretKey: SECRET, format: "json", slashes: "escaped", unicode: "escaped" })
  const urlencoded = signCallback(INVOICE, { secretKey: SECRET, format: "urlencoded" })
  const multipart = signCallback(INVOICE, { secretKey: SECRET, format: "multipart" })
  const pretty = Buffer.from(JSON.stringify(JSON.parse(json.body.toString("utf8")), null, 2))
  // The gateway's own form: tx_urls as one string field holding a JSON text with PHP-escaped
  // slashes; and the same body with its fields in the order PHP's http_build_query keeps (unsorted).
  const txUrlsText = JSON.stringify(INVOICE.tx_urls).replaceAll("/", "\\/")
  const urlencodedString = signCallback({ ...INVOICE, tx_urls: txUrlsText }, { secretKey: SECRET, format: "urlencoded" })
  const unsorted = Buffer.from(urlencodedString.body.toString("latin1").split("&").reverse().join("&"), "latin1")

  const results = [
    benchFormat("JSON", json.body, json.contentType, () => referenceJson(json.body)),
    benchFormat("urlencoded", urlencoded.body, urlencoded.contentType, () => referenceUrlencoded(urlencoded.body)),
    benchFormat("multipart", multipart.body, multipart.contentType, () => referenceMultipart(multipart.body, multipart.contentType)),
    // Not targets, for information: a PHP-escaped JSON body (one HMAC, then the strict reader), a
    // pretty-printed one (re-serialized; JSON.stringify cannot check either, so no reference), and
    // urlencoded bodies in the gateway's tx_urls form, sorted (one pass) and unsorted (two passes).
    benchFormat("JSON, PHP escapes", jsonPhp.body, jsonPhp.contentType, () => true),
    benchFormat("JSON, pretty-printed", pretty, "application/json", () => true),
    benchFormat("urlencoded, tx_urls string", urlencodedString.body, urlencodedString.contentType, () =>
      referenceUrlencoded(urlencodedString.body),
    ),
    benchFormat("urlencoded, unsorted", unsorted, urlencodedString.contentType, () => referenceUrlencoded(unsorted)),
  ]

  const pad = (text: string, width: number): string => text.padEnd(width)
  const num = (value: number, digits = 0): string => value.toFixed(digits).padStart(9)
  console.log(`verifyCallback, median CPU ns/op over ${ROUNDS} interleaved rounds (node ${process.version}, ${process.arch})`)
  // Other work on the machine inflates the JS share more than the native HMAC: say how busy it was.
  console.log(`load average ${loadavg().map((load) => load.toFixed(2)).join(" ")} on ${cpus().length} CPUs`)
  console.log(`${pad("format", 28)}${pad("bytes", 7)}   bare HMAC     verify  reference   verify/HMAC  reference/HMAC`)
  for (const r of results) {
    const informational = r.format.startsWith("JSON, ")
    const reference = informational ? "        -" : num(r.referenceNs)
    const referenceRatio = informational ? "             -" : `${num(r.referenceRatio, 2)}×`.padStart(15)
    console.log(
      `${pad(r.format, 28)}${pad(String(r.bytes), 7)}${num(r.hmacNs)}  ${num(r.verifyNs)}  ${reference}  ${`${num(r.verifyRatio, 2)}×`.padStart(12)}${referenceRatio}`,
    )
  }
  return results
}

if (require.main === module) runVerifyCallbackBench()
