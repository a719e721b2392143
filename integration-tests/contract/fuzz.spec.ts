/**
 * Contract: whatever the query (and path) of any endpoint holds, the sandbox answers a success or
 * the spec §7 error envelope: never a 5xx, never a stack trace.
 */
import fc from "fast-check"

import { startSandbox, type RunningSandbox } from "../../src/sandbox"
import { shopOf } from "./helpers"

// Each test sends dozens of requests (creating invoices draws QR codes): on a loaded machine one
// took more than jest's default 5 s. Speed is not what these tests check (benchmarks measure it).
jest.setTimeout(120_000)

let sandbox: RunningSandbox
let keys: string[]
let txnId = ""

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, tickIntervalMs: 0, retry: { maxAttempts: 1, baseDelayMs: 1, timeoutMs: 200 } })
  const plain = shopOf(sandbox, "plain")
  const wl = shopOf(sandbox, "white-label")
  keys = [plain.secretKey, wl.secretKey, shopOf(sandbox, "locked").secretKey]
  const answer = await fetch(
    `${sandbox.url}/api/v1/invoices/new?${new URLSearchParams({ api_key: plain.secretKey, order_number: "fuzz-seed", order_name: "F", amount: "0.01" })}`
  )
  txnId = ((await answer.json()) as { data: { txn_id: string } }).data.txn_id
})

afterAll(async () => {
  await sandbox.close()
})

/** Values that reach the validators' edges, mixed with arbitrary text. */
const value = fc.oneof(
  fc.constantFrom(
    "", "0", "-1", "1", "0.00000001", "1e5", "NaN", "Infinity", "99999999999999999999999999999999", "0.1,0.2", "1,,2", "abc",
    "BTC", "BTC_TEST", "LTC", "ETH", "USDT_ETH", "TRX", "USDT_TRX", "DOGE", "BTC,LTC", "USD", "EUR", "xyz",
    "normal", "priority", "cash_out", "mass_cash_out", "invoice", "pay_in", "true", "false", "json=true",
    "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "0x52908400098527886E0F7030069857D2E4169EE7", "http://127.0.0.1:1/cb?json=true",
    "javascript:alert(1)", "<script>", "%00", "../..", "a".repeat(300)
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 })
)

const PARAM_NAMES = [
  "order_name", "order_number", "currency", "amount", "source_currency", "source_amount", "allowed_psys_cids", "description",
  "callback_url", "success_callback_url", "fail_callback_url", "success_invoice_url", "fail_invoice_url", "email", "language",
  "plugin", "version", "redirect_to_invoice", "expire_min", "return_existing", "type", "to", "feePlan", "page", "limit",
  "per-page", "shop_id", "status", "search", "addresses", "amounts", "psys_cid", "uid", "from_currency", "to_currency",
  "to_address", "from_amount", "to_amount", "amount_currency", "confirmations", "seconds", "mode", "count", "ms", "path",
  "action", "txid", "error",
]

const query = fc.dictionary(fc.oneof(fc.constantFrom(...PARAM_NAMES), fc.string({ maxLength: 8 })), value, { maxKeys: 8 })
const segment = fc.oneof(value, fc.constantFrom("BTC", "ETH", "EUR", "INV-0"))

interface Target {
  name: string
  method: "GET" | "POST"
  path: (seg: string) => string
  /** valid parameters the fuzzed ones are laid over, so the runs also reach the deeper checks */
  base?: () => Record<string, string>
}

let order = 0
const ETH = "0x52908400098527886E0F7030069857D2E4169EE7"
const BTC = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"

const enc = encodeURIComponent
const API_TARGETS: Target[] = [
  { name: "/invoices/new", method: "GET", path: () => "/api/v1/invoices/new", base: () => ({ order_number: `fz-${++order}`, order_name: "F", amount: "0.01" }) },
  { name: "/operations", method: "GET", path: () => "/api/v1/operations" },
  { name: "/operations/{id}", method: "GET", path: (s) => `/api/v1/operations/${enc(s)}` },
  { name: "/operations/withdraw", method: "GET", path: () => "/api/v1/operations/withdraw", base: () => ({ currency: "BTC", type: "cash_out", to: BTC, amount: "0.00001" }) },
  { name: "/operations/commission/{psys_cid}", method: "GET", path: (s) => `/api/v1/operations/commission/${enc(s)}`, base: () => ({ addresses: ETH, amounts: "0.1" }) },
  { name: "/operations/fee/{psys_cid}", method: "GET", path: (s) => `/api/v1/operations/fee/${enc(s)}`, base: () => ({ addresses: BTC, amounts: "0.1" }) },
  { name: "/operations/fee-plan/{psys_cid}", method: "GET", path: (s) => `/api/v1/operations/fee-plan/${enc(s)}` },
  { name: "/currencies", method: "GET", path: () => "/api/v1/currencies" },
  { name: "/currencies/{fiat}", method: "GET", path: (s) => `/api/v1/currencies/${enc(s)}` },
  { name: "/balances/{psys_cid}", method: "GET", path: (s) => `/api/v1/balances/${enc(s)}` },
  { name: "/shops/deposit/new", method: "GET", path: () => "/api/v1/shops/deposit/new", base: () => ({ psys_cid: "BTC", uid: "fz" }) },
  { name: "/shop/deposit/new", method: "GET", path: () => "/api/v1/shop/deposit/new", base: () => ({ psys_cid: "LTC,ETH", uid: "fz" }) },
  { name: "/shops/deposit", method: "GET", path: () => "/api/v1/shops/deposit" },
  { name: "/shop/deposit", method: "GET", path: () => "/api/v1/shop/deposit" },
  { name: "/exchanges/list", method: "GET", path: () => "/api/v1/exchanges/list" },
  { name: "/exchanges/estimate", method: "GET", path: () => "/api/v1/exchanges/estimate", base: () => ({ from_currency: "BTC", to_currency: "ETH", from_amount: "0.001" }) },
  { name: "/exchanges/new", method: "GET", path: () => "/api/v1/exchanges/new", base: () => ({ from_currency: "BTC", to_currency: "ETH", from_amount: "0.001", to_address: ETH }) },
  { name: "/exchanges/{id}", method: "GET", path: (s) => `/api/v1/exchanges/${enc(s)}` },
]

const CONTROL_TARGETS: Target[] = [
  { name: "POST /_sandbox/invoices/{txn_id}/pay", method: "POST", path: () => `/_sandbox/invoices/${txnId}/pay`, base: () => ({ amount: "0.0001", confirmations: "0" }) },
  { name: "POST /_sandbox/invoices/{txn_id}/confirm", method: "POST", path: () => `/_sandbox/invoices/${txnId}/confirm` },
  { name: "POST /_sandbox/invoices/{x}/switch", method: "POST", path: (s) => `/_sandbox/invoices/${enc(s)}/switch` },
  { name: "POST /_sandbox/deposits/{x}/pay", method: "POST", path: (s) => `/_sandbox/deposits/${enc(s)}/pay` },
  { name: "POST /_sandbox/clock/advance", method: "POST", path: () => "/_sandbox/clock/advance" },
  { name: "GET /_sandbox/callbacks", method: "GET", path: () => "/_sandbox/callbacks" },
  { name: "POST /_sandbox/callbacks/{x}/redeliver", method: "POST", path: (s) => `/_sandbox/callbacks/${enc(s)}/redeliver` },
  { name: "POST /_sandbox/faults", method: "POST", path: () => "/_sandbox/faults", base: () => ({ path: "/api/v1/none", mode: "latency", ms: "1" }) },
  { name: "POST /invoice/{txn_id}/simulate", method: "POST", path: () => `/invoice/${txnId}/simulate` },
  { name: "POST /invoice/{x}/switch", method: "POST", path: (s) => `/invoice/${enc(s)}/switch` },
]

/** One request; returns why the answer breaks the contract, or null when it keeps it. */
async function violation(
  target: Target,
  seg: string,
  fuzzed: Record<string, string>,
  keyIndex: number,
  asBody: boolean,
  withBase: boolean
): Promise<string | null> {
  const params = { ...(withBase ? target.base?.() : {}), ...fuzzed }
  const q = new URLSearchParams(params)
  if (keyIndex < keys.length) {
    q.set("api_key", keys[keyIndex])
  }
  const withBody = target.method === "POST" && asBody
  const response = await fetch(`${sandbox.url}${target.path(seg)}?${withBody ? new URLSearchParams({ api_key: q.get("api_key") ?? "" }) : q}`, {
    method: target.method,
    redirect: "manual",
    headers: withBody ? { "content-type": "application/json" } : {},
    body: withBody ? JSON.stringify(params) : undefined,
  })
  const text = await response.text()
  if (response.status >= 500) {
    return `HTTP ${response.status}: ${text.slice(0, 200)}`
  }
  if (/\n\s+at\s|Error:|TypeError|ReferenceError/.test(text)) {
    return `stack trace or raw error: ${text.slice(0, 200)}`
  }
  if (text.length === 0) {
    return response.status === 302 || response.status === 404 ? null : `empty body with HTTP ${response.status}`
  }
  let body: { status?: unknown; data?: { code?: unknown; message?: unknown } }
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    return `not JSON: ${text.slice(0, 100)}`
  }
  if (body.status === "success") {
    return response.status < 300 ? null : `success with HTTP ${response.status}`
  }
  if (body.status !== "error" || !Number.isInteger(body.data?.code) || typeof body.data?.message !== "string") {
    return `not the error envelope: ${text.slice(0, 200)}`
  }
  return null
}

describe("fuzzed requests always get a success or the error envelope", () => {
  it.each(API_TARGETS.map((t) => [t.name, t] as const))("GET /api/v1%s", async (_name, target) => {
    await fc.assert(
      fc.asyncProperty(segment, query, fc.nat(3), fc.boolean(), async (seg, params, keyIndex, withBase) => {
        const problem = await violation(target, seg, params, keyIndex, false, withBase)
        expect(problem).toBeNull()
      }),
      { numRuns: 40 }
    )
  })

  it.each(CONTROL_TARGETS.map((t) => [t.name, t] as const))("%s", async (_name, target) => {
    await fc.assert(
      fc.asyncProperty(segment, query, fc.nat(3), fc.boolean(), fc.boolean(), async (seg, params, keyIndex, asBody, withBase) => {
        const problem = await violation(target, seg, params, keyIndex, asBody, withBase)
        expect(problem).toBeNull()
      }),
      { numRuns: 20 }
    )
  })
})
