/**
 * Contract: every status of the invoice life cycle (docs/gateway-readings.md#invoice-lifecycle), the
 * switch chain, signed callbacks received by a real HTTP receiver and verified with verifyCallback in
 * both formats, the hosted page's buttons, and the control API through its typed client (clock,
 * faults, delivery log, redelivery, reset).
 */
import {
  GatewayClient,
  GatewayConnectionError,
  GatewayOutcomeUnknownError,
  GatewayResponseError,
  verifyCallback,
  type CallbackFields,
} from "../../src/gateway"
import { SandboxControlError, startSandbox, type PayOptions, type RunningSandbox, type SandboxShop } from "../../src/sandbox"
import { clientFor, controlOf, rawControl, shopOf, startReceiver, type Receiver } from "./helpers"

// Over real HTTP to a running sandbox: on a loaded CI machine a test can pass jest's default 5 s.
// Speed is not what these tests check.
jest.setTimeout(60_000)

const T0 = Date.UTC(2030, 5, 1, 8, 0, 0)
const BTC_ADDRESS = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"

let sandbox: RunningSandbox
let receiver: Receiver
let wl: SandboxShop
let plain: SandboxShop
let wlClient: GatewayClient
let plainClient: GatewayClient
let seq = 0

beforeAll(async () => {
  receiver = await startReceiver()
  sandbox = await startSandbox({
    port: 0,
    frozenClock: T0,
    tickIntervalMs: 0,
    statusUrl: `${receiver.url}/status?json=true`,
    retry: { maxAttempts: 3, baseDelayMs: 10, timeoutMs: 2000 },
    internalTransferSeconds: 60,
  })
  wl = shopOf(sandbox, "white-label")
  plain = shopOf(sandbox, "plain")
  wlClient = clientFor(sandbox, wl)
  plainClient = clientFor(sandbox, plain)
})

afterAll(async () => {
  await sandbox.close()
  await receiver.close()
})

interface Received {
  format: "form" | "json"
  fields: CallbackFields
}

/** Every callback posted to `path`, verified with the shop's key (throws if one does not verify). */
async function received(path: string, shop: SandboxShop = wl): Promise<Received[]> {
  await sandbox.callbacksIdle()
  return receiver.received
    .filter((r) => r.path === path)
    .map((r) => verifyCallback({ body: r.body, contentType: r.contentType, secretKey: shop.secretKey }))
}

const statuses = async (path: string, shop?: SandboxShop): Promise<unknown[]> => (await received(path, shop)).map((r) => r.fields.status)

/** A fresh callback path on the receiver; `json` adds json=true to its query. */
function hook(json: boolean): { path: string; url: string } {
  seq += 1
  const path = json ? `/cb/${seq}?json=true` : `/cb/${seq}`
  return { path, url: `${receiver.url}${path}` }
}

async function newInvoice(
  client: GatewayClient,
  extra: Partial<Parameters<GatewayClient["invoices"]["create"]>[0]> = {}
): Promise<{ txn_id: string; path: string }> {
  const h = hook(extra.callback_url === undefined)
  const invoice = await client.invoices.create({
    order_number: `life-${++seq}`,
    order_name: "Life cycle",
    currency: "BTC",
    amount: "0.01",
    callback_url: h.url,
    ...extra,
  })
  return { txn_id: invoice.txn_id, path: h.path }
}

async function pay(shop: SandboxShop, txnId: string, options: PayOptions = {}): Promise<{ status: string }> {
  return controlOf(sandbox, shop).pay(txnId, options)
}

describe("invoice life cycle with callbacks", () => {
  it("an unconfirmed payment then its confirmations send pending then completed", async () => {
    const { txn_id, path } = await newInvoice(wlClient)
    await pay(wl, txn_id, { confirmations: 0 })
    await controlOf(sandbox, wl).confirm(txn_id)
    expect(await statuses(path)).toEqual(["pending", "completed"])
  })

  it("callbacks are JSON when the callback URL's query holds json=true", async () => {
    const { txn_id, path } = await newInvoice(wlClient)
    await pay(wl, txn_id)
    expect((await received(path)).map((r) => r.format)).toEqual(["json"])
  })

  it("callbacks are multipart form data otherwise", async () => {
    const h = hook(false)
    const { txn_id } = await newInvoice(wlClient, { callback_url: h.url })
    await pay(wl, txn_id)
    const formats = (await received(h.path)).map((r) => r.format)
    const posted = receiver.received.filter((r) => r.path === h.path)
    expect([posted[0].contentType.startsWith("multipart/form-data"), formats]).toEqual([true, ["form"]])
  })

  it("a white-label callback carries every field of spec §6.1", async () => {
    const { txn_id, path } = await newInvoice(wlClient)
    await pay(wl, txn_id)
    const [callback] = await received(path)
    expect(Object.keys(callback.fields).sort()).toEqual(
      [
        "txn_id", "ipn_type", "merchant", "merchant_id", "amount", "currency", "order_number", "order_name", "confirmations", "status",
        "source_currency", "source_amount", "source_rate", "comment", "invoice_commission", "invoice_sum", "invoice_total_sum",
        "psys_cid", "pending_amount", "qr_code", "tx_urls", "expire_utc",
      ].sort()
    )
  })

  it("a plain shop's callback has no white-label fields", async () => {
    const { txn_id, path } = await newInvoice(plainClient)
    await pay(plain, txn_id)
    const [callback] = await received(path, plain)
    expect(["psys_cid", "pending_amount", "qr_code", "tx_urls"].filter((f) => f in callback.fields)).toEqual([])
  })

  it("tx_urls is an array of explorer links", async () => {
    const { txn_id, path } = await newInvoice(wlClient)
    await pay(wl, txn_id, { amount: "0.005", confirmations: 0 })
    await pay(wl, txn_id, { confirmations: 0 })
    const last = (await received(path)).at(-1)
    expect(Array.isArray(last?.fields.tx_urls) && last.fields.tx_urls.length).toBe(2)
  })

  it("an overpayment ends in mismatch and reaches success_callback_url", async () => {
    const success = hook(true)
    const { txn_id, path } = await newInvoice(wlClient, { success_callback_url: success.url })
    await pay(wl, txn_id, { amount: "0.02" })
    expect([await statuses(path), await statuses(success.path)]).toEqual([["mismatch"], ["mismatch"]])
  })

  it("a part payment at expiry ends in expired with the amount received, and reaches fail_callback_url", async () => {
    const fail = hook(true)
    const { txn_id, path } = await newInvoice(plainClient, { expire_min: 30, fail_callback_url: fail.url })
    await pay(plain, txn_id, { amount: "0.004" })
    await controlOf(sandbox, plain).advanceClock(30 * 60)
    const last = (await received(path, plain)).at(-1)
    expect([last?.fields.status, last?.fields.amount, await statuses(fail.path, plain)]).toEqual(["expired", "0.004", ["expired"]])
  })

  it("nothing paid at expiry ends in cancelled", async () => {
    const { txn_id, path } = await newInvoice(wlClient, { expire_min: 5 })
    await controlOf(sandbox, wl).advanceClock(5 * 60)
    expect([await statuses(path), (await wlClient.operations.retrieve(txn_id)).status]).toEqual([["cancelled"], "cancelled"])
  })

  it("a network error ends in error", async () => {
    const { txn_id, path } = await newInvoice(wlClient)
    await pay(wl, txn_id, { error: true })
    expect(await statuses(path)).toEqual(["error"])
  })

  it("a coin with an internal transfer passes through pending internal before completed", async () => {
    const { txn_id, path } = await newInvoice(wlClient, { currency: "USDT_TRX", amount: "25" })
    await pay(wl, txn_id)
    await controlOf(sandbox, wl).advanceClock(60)
    expect(await statuses(path)).toEqual(["pending internal", "completed"])
  })

  it("a switched-then-paid chain completes the new invoice and cancels the first as duplicate", async () => {
    const { txn_id: first, path } = await newInvoice(wlClient, { allowed_psys_cids: ["BTC", "LTC"] })
    const child = await controlOf(sandbox, wl).switchCurrency(first, "LTC")
    await pay(wl, child.txn_id)
    const callbacks = (await received(path)).map((r) => [r.fields.txn_id, r.fields.status, r.fields.switch_id])
    expect(callbacks).toEqual([
      [child.txn_id, "completed", first],
      [first, "cancelled duplicate", first],
    ])
  })

  it("the operations of a chain are linked by parent_id and child_ids", async () => {
    const { txn_id: first } = await newInvoice(wlClient, { allowed_psys_cids: ["BTC", "ETH"] })
    const child = await controlOf(sandbox, wl).switchCurrency(first, "ETH")
    const [root, switched] = await Promise.all([wlClient.operations.retrieve(first), wlClient.operations.retrieve(child.txn_id)])
    expect([root.child_ids, switched.parent_id]).toEqual([[child.txn_id], first])
  })
})

describe("the hosted invoice page", () => {
  it("its buttons pay and confirm, and its status endpoint follows", async () => {
    const { txn_id } = await newInvoice(wlClient)
    const base = `${sandbox.url}/invoice/${txn_id}`
    const post = (path: string, body: object): Promise<Response> =>
      fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    await post("/simulate", { action: "pay" })
    const pending = ((await (await fetch(`${base}/status`)).json()) as { data: { status: string } }).data.status
    await post("/simulate", { action: "confirm" })
    const done = ((await (await fetch(`${base}/status`)).json()) as { data: { status: string } }).data.status
    expect([pending, done]).toEqual(["pending", "completed"])
  })

  it("its underpay button leaves part of the amount due", async () => {
    const { txn_id } = await newInvoice(plainClient, { amount: "0.01" })
    const answer = await fetch(`${sandbox.url}/invoice/${txn_id}/simulate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "underpay" }),
    })
    const state = ((await answer.json()) as { data: { status: string; pending_amount: string } }).data
    expect([state.status, state.pending_amount]).toEqual(["pending", "0.005"])
  })

  it("its coin switcher creates the linked invoice", async () => {
    const { txn_id } = await newInvoice(wlClient, { allowed_psys_cids: ["BTC", "TRX"] })
    const answer = await fetch(`${sandbox.url}/invoice/${txn_id}/switch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ psys_cid: "TRX" }),
    })
    const state = ((await answer.json()) as { data: { psys_cid: string; parent_id: string } }).data
    expect([state.psys_cid, state.parent_id]).toEqual(["TRX", txn_id])
  })
})

describe("delivery log and retries", () => {
  it("a callback without a 2xx answer is retried with every attempt logged", async () => {
    const { txn_id } = await newInvoice(wlClient)
    receiver.failNext(2, 503)
    await pay(wl, txn_id)
    await sandbox.callbacksIdle()
    const log = await controlOf(sandbox, wl).callbacks({ txnId: txn_id })
    expect([log[0].state, log[0].attempts.map((a) => a.http_status)]).toEqual(["delivered", [503, 503, 200]])
  })

  it("retries stop after the bounded number of attempts", async () => {
    const { txn_id } = await newInvoice(wlClient)
    receiver.failNext(5, 500)
    await pay(wl, txn_id)
    await sandbox.callbacksIdle()
    receiver.failNext(0)
    const log = await controlOf(sandbox, wl).callbacks({ txnId: txn_id })
    expect([log[0].state, log[0].attempts.length]).toEqual(["failed", 3])
  })

  it("redeliver posts a delivery once more", async () => {
    const { txn_id, path } = await newInvoice(wlClient)
    await pay(wl, txn_id)
    await sandbox.callbacksIdle()
    const [delivery] = await controlOf(sandbox, wl).callbacks({ txnId: txn_id })
    const again = await controlOf(sandbox, wl).redeliver(delivery.id)
    expect([again.attempts.length, (await statuses(path)).length]).toEqual([2, 2])
  })
})

describe("deposits", () => {
  it("a pay_in posts a signed callback with the fields of spec §6.2 to the shop's Status URL", async () => {
    const deposit = await wlClient.deposits.create({ psys_cid: "LTC", uid: "buyer-7" })
    await controlOf(sandbox, wl).payDeposit(deposit.hash, { amount: "1.25" })
    const callbacks = (await received("/status?json=true")).filter((c) => c.fields.wallet_hash === deposit.hash)
    const fields = callbacks[0].fields
    expect([
      Object.keys(fields).sort(),
      fields.ipn_type,
      fields.deposit_uid,
      Object.entries(fields).every(([k, v]) => (k === "tx_urls" ? Array.isArray(v) : typeof v === "string")),
    ]).toEqual([
      [
        "amount", "comment", "confirmations", "currency", "deposit_sum", "deposit_uid", "invoice_commission", "invoice_sum",
        "invoice_total_sum", "ipn_type", "merchant", "merchant_id", "pending_amount", "psys_cid", "qr_code", "source_amount",
        "source_currency", "source_rate", "status", "tx_urls", "txn_id", "wallet_hash",
      ],
      "pay_in",
      "buyer-7",
      true,
    ])
  })

  it("a confirmed pay_in is listed as a pay_in operation", async () => {
    const deposit = await wlClient.deposits.create({ psys_cid: "BTC", uid: "buyer-8" })
    const payIn = await controlOf(sandbox, wl).payDeposit(deposit.hash, { amount: "0.5" })
    const op = await wlClient.operations.retrieve(payIn.id)
    expect([op.type, op.status, op.amount?.toFixed()]).toEqual(["pay_in", "completed", "0.5"])
  })
})

describe("control API", () => {
  it("advancing the clock moves every invoice's time", async () => {
    const before = await controlOf(sandbox, wl).advanceClock(0)
    const after = await controlOf(sandbox, wl).advanceClock(90)
    expect(after.offset_seconds - before.offset_seconds).toBe(90)
  })

  it("a control call with an unknown key is 401", async () => {
    const error = await sandbox.control.as("nobody").callbacks().catch((e: unknown) => e)
    expect(error instanceof SandboxControlError && error.status).toBe(401)
  })

  it("paying an unknown invoice is 404 with code 111", async () => {
    const error = await controlOf(sandbox, wl).pay("INV-NOPE").catch((e: unknown) => e)
    expect(error instanceof SandboxControlError && [error.status, error.code]).toEqual([404, 111])
  })

  it("switching to a coin outside allowed_psys_cids is refused", async () => {
    const { txn_id } = await newInvoice(wlClient, { allowed_psys_cids: ["BTC"] })
    const error = await controlOf(sandbox, wl).switchCurrency(txn_id, "ETH").catch((e: unknown) => e)
    expect(error instanceof SandboxControlError && error.status).toBe(422)
  })

  it("a timeout fault applies the withdrawal and withholds the answer: outcome unknown", async () => {
    await controlOf(sandbox, wl).fault({ path: "/api/v1/operations/withdraw", mode: "timeout", ms: 5000 })
    const client = new GatewayClient({ apiKey: wl.secretKey, baseUrl: sandbox.url, timeoutMs: 300, maxRetries: 0 })
    const error = await client.operations.withdraw({ currency: "BTC", type: "cash_out", to: BTC_ADDRESS, amount: "0.0123" }).catch((e: unknown) => e)
    const listed = await wlClient.operations.list({ type: "cash_out" })
    expect([error instanceof GatewayOutcomeUnknownError, listed.operations.some((o) => o.amount?.toFixed() === "0.0123")]).toEqual([true, true])
  })

  it("a malformed fault answers a body that is not JSON", async () => {
    await controlOf(sandbox, wl).fault({ path: "/api/v1/balances", mode: "malformed" })
    await expect(wlClient.balances.retrieve("BTC")).rejects.toBeInstanceOf(GatewayResponseError)
  })

  it("a reset fault drops the connection", async () => {
    await controlOf(sandbox, wl).fault({ path: "/api/v1/balances", mode: "reset" })
    await expect(wlClient.balances.retrieve("BTC")).rejects.toBeInstanceOf(GatewayConnectionError)
  })

  it("a latency fault delays but answers", async () => {
    await controlOf(sandbox, wl).fault({ path: "/api/v1/balances", mode: "latency", ms: 50 })
    const balance = await wlClient.balances.retrieve("BTC")
    expect(balance.psys_cid).toBe("BTC")
  })

  it("a fault without a mode is refused", async () => {
    const answer = await rawControl(sandbox, wl, "/faults", { path: "/api/v1/balances" })
    expect(answer.status).toBe(422)
  })

  it("reset forgets every invoice and restores the seeded balances", async () => {
    await newInvoice(plainClient)
    await controlOf(sandbox, plain).reset()
    const [list, balance] = await Promise.all([plainClient.operations.list(), plainClient.balances.retrieve("BTC")])
    expect([list._meta?.totalCount, balance.balance.toFixed()]).toEqual([0, "0.75"])
  })
})
