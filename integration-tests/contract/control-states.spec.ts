/**
 * Contract: the control API's moves over real HTTP with the typed control client
 * (src/sandbox/README.md, "Control API"): money after the end of an invoice
 * (docs/gateway-readings.md#money-after-the-end-of-an-invoice), settle, the invoice view, failed
 * withdrawals, cash_in, and lost callbacks delivered again later. The real GatewayClient reads the
 * outcome and a real receiver verifies every callback with verifyCallback.
 */
import Decimal from "decimal.js"

import { GatewayClient, verifyCallback, type CallbackFields } from "../../src/gateway"
import { SandboxControlError, startSandbox, type RunningSandbox, type SandboxControl, type SandboxShop } from "../../src/sandbox"
import { clientFor, controlOf, shopOf, startReceiver, type Receiver } from "./helpers"

// Over real HTTP to a running sandbox: on a loaded CI machine a test can pass jest's default 5 s.
// Speed is not what these tests check.
jest.setTimeout(60_000)

const T0 = Date.UTC(2030, 5, 1, 8, 0, 0)
const BTC_ADDRESS = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"

let sandbox: RunningSandbox
let receiver: Receiver
let wl: SandboxShop
let client: GatewayClient
let control: SandboxControl
let seq = 0

beforeAll(async () => {
  receiver = await startReceiver()
  sandbox = await startSandbox({
    port: 0,
    frozenClock: T0,
    tickIntervalMs: 0,
    statusUrl: `${receiver.url}/status?json=true`,
    retry: { maxAttempts: 2, baseDelayMs: 10, timeoutMs: 2000 },
  })
  wl = shopOf(sandbox, "white-label")
  client = clientFor(sandbox, wl)
  control = controlOf(sandbox, wl)
})

afterAll(async () => {
  await sandbox.close()
  await receiver.close()
})

/** Every callback posted to `path`, verified with the shop's key (throws if one does not verify). */
async function received(path: string): Promise<CallbackFields[]> {
  await sandbox.callbacksIdle()
  return receiver.received
    .filter((r) => r.path === path)
    .map((r) => verifyCallback({ body: r.body, contentType: r.contentType, secretKey: wl.secretKey }).fields)
}

async function newInvoice(extra: { expire_min?: number } = {}): Promise<{ txnId: string; path: string; success: string; fail: string }> {
  seq += 1
  const path = `/cb/${seq}?json=true`
  const success = `/ok/${seq}?json=true`
  const fail = `/fail/${seq}?json=true`
  const invoice = await client.invoices.create({
    order_number: `states-${seq}`,
    order_name: "States",
    currency: "BTC",
    amount: "0.01",
    callback_url: `${receiver.url}${path}`,
    success_callback_url: `${receiver.url}${success}`,
    fail_callback_url: `${receiver.url}${fail}`,
    ...extra,
  })
  return { txnId: invoice.txn_id, path, success, fail }
}

const btcBalance = async (): Promise<string> => (await client.balances.retrieve("BTC")).balance.toFixed()

async function refusal(call: Promise<unknown>): Promise<SandboxControlError> {
  const error = await call.catch((e: unknown) => e)
  if (!(error instanceof SandboxControlError)) {
    throw new Error("the control call succeeded")
  }
  return error
}

describe("POST /_sandbox/invoices/:txn_id/pay on an ended invoice", () => {
  it("money after cancellation sends an expired callback with the amount received", async () => {
    const { txnId, path } = await newInvoice({ expire_min: 30 })
    await control.advanceClock(30 * 60)
    await control.pay(txnId, { amount: "0.004" })
    const last = (await received(path)).at(-1)
    expect([last?.status, last?.amount]).toEqual(["expired", "0.004"])
  })

  it("money after cancellation reaches fail_callback_url and the operation shows it", async () => {
    const { txnId, fail } = await newInvoice({ expire_min: 30 })
    await control.advanceClock(30 * 60)
    await control.pay(txnId, { amount: "0.004" })
    const operation = await client.operations.retrieve(txnId)
    expect([(await received(fail)).map((c) => c.status), operation.status, operation.amount?.toFixed()]).toEqual([
      ["cancelled", "expired"],
      "expired",
      "0.004",
    ])
  })

  it("more confirmed money on a completed invoice sends mismatch and credits only the increment", async () => {
    const { txnId, path } = await newInvoice()
    const paid = await control.pay(txnId)
    const afterFirst = await btcBalance()
    const again = await control.pay(txnId, { amount: "0.002" })
    const last = (await received(path)).at(-1)
    const increment = (await client.balances.retrieve("BTC")).balance.minus(afterFirst).toFixed()
    expect([last?.status, paid.received, last?.amount, increment]).toEqual(["mismatch", paid.invoice_total_sum, again.received, "0.002"])
  })

  it("a payment with error is recorded: the callback says error with the amount received", async () => {
    const { txnId, path } = await newInvoice()
    await control.pay(txnId, { amount: "0.004", error: true })
    const last = (await received(path)).at(-1)
    expect([last?.status, last?.amount]).toEqual(["error", "0.004"])
  })
})

describe("POST /_sandbox/invoices/:txn_id/settle", () => {
  it("finishes an invoice in error as completed, credits it and calls success_callback_url", async () => {
    const { txnId, success } = await newInvoice()
    const before = await btcBalance()
    await control.pay(txnId, { error: true })
    const inError = await btcBalance()
    const settled = await control.settle(txnId)
    const after = (await client.balances.retrieve("BTC")).balance
    expect([settled.status, inError, after.minus(before).toFixed(), (await received(success)).map((c) => c.status)]).toEqual([
      "completed",
      before,
      settled.credited,
      ["completed"],
    ])
  })

  it("finishes an overpaid invoice in error as mismatch", async () => {
    const { txnId } = await newInvoice()
    const due = (await control.invoice(txnId)).invoice_total_sum
    await control.pay(txnId, { amount: new Decimal(due).times(2).toFixed(), error: true })
    expect((await control.settle(txnId)).status).toBe("mismatch")
  })

  it("refuses an invoice not in error: 422, code 105, naming txn_id", async () => {
    const { txnId } = await newInvoice()
    await control.pay(txnId)
    const error = await refusal(control.settle(txnId))
    expect([error.status, error.code, error.body.includes("txn_id")]).toEqual([422, 105, true])
  })
})

describe("GET /_sandbox/invoices/:txn_id", () => {
  it("shows status, amounts, transactions and chain links", async () => {
    const { txnId } = await newInvoice()
    const child = await control.switchCurrency(txnId, "LTC")
    await control.pay(child.txn_id, { confirmations: 0 })
    const [first, second] = await Promise.all([control.invoice(txnId), control.invoice(child.txn_id)])
    expect([first.child_ids, second.parent_id, second.status, second.txs.length, second.confirmed, second.received]).toEqual([
      [child.txn_id],
      txnId,
      "pending",
      1,
      "0",
      second.invoice_total_sum,
    ])
  })

  it("an unknown invoice is 404 with code 111", async () => {
    const error = await refusal(control.invoice("INV-NOPE"))
    expect([error.status, error.code]).toEqual([404, 111])
  })
})

describe("POST /_sandbox/withdrawals/fail-next", () => {
  it("the next withdrawal answers 201 with status error and an id; nothing is debited", async () => {
    const before = await btcBalance()
    expect(await control.failNextWithdrawals()).toEqual({ pending: 1 })
    const withdrawal = await client.operations.withdraw({ currency: "BTC", type: "cash_out", to: BTC_ADDRESS, amount: "0.001" })
    expect([withdrawal.status, withdrawal.id.length > 0, await btcBalance()]).toEqual(["error", true, before])
  })

  it("the failed withdrawal is readable by id and listed with status error", async () => {
    await control.failNextWithdrawals()
    const withdrawal = await client.operations.withdraw({ currency: "BTC", type: "cash_out", to: BTC_ADDRESS, amount: "0.001" })
    const detail = await client.operations.retrieve(withdrawal.id)
    const listed = await client.operations.list({ status: "error", type: "cash_out" })
    expect([detail.status, listed.operations.map((o) => o.id).includes(withdrawal.id)]).toEqual(["error", true])
  })

  it("count: 2 fails the next two, the third completes", async () => {
    expect(await control.failNextWithdrawals({ count: 2 })).toEqual({ pending: 2 })
    const statuses: string[] = []
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await client.operations.withdraw({ currency: "BTC", type: "cash_out", to: BTC_ADDRESS, amount: "0.001" })).status)
    }
    expect(statuses).toEqual(["error", "error", "completed"])
  })
})

describe("POST /_sandbox/cash-in", () => {
  it("credits the balance and lists a cash_in operation with params.value", async () => {
    const before = (await client.balances.retrieve("LTC")).balance
    const cashIn = await control.cashIn({ psysCid: "LTC", amount: "2.5" })
    const after = (await client.balances.retrieve("LTC")).balance
    const detail = await client.operations.retrieve(cashIn.id)
    const listed = await client.operations.list({ type: "cash_in" })
    expect([
      cashIn,
      after.minus(before).toFixed(),
      detail.type,
      detail.params?.value?.toFixed(),
      listed.operations.some((o) => o.id === cashIn.id),
    ]).toEqual([{ id: cashIn.id, type: "cash_in", psys_cid: "LTC", amount: "2.5", status: "completed" }, "2.5", "cash_in", "2.5", true])
  })

  it("sends no callback", async () => {
    const before = receiver.received.length
    await control.cashIn({ psysCid: "LTC", amount: "1" })
    await sandbox.callbacksIdle()
    expect(receiver.received.length).toBe(before)
  })
})

describe("POST /_sandbox/callbacks/drop", () => {
  it("a dropped invoice callback is never posted, and is delivered hours later by redeliver", async () => {
    const { txnId, path } = await newInvoice()
    expect(await control.dropCallbacks({ txnId, event: "invoice" })).toEqual({ pending: 1 })
    await control.pay(txnId)
    const lost = await received(path)
    const [delivery] = (await control.callbacks({ txnId })).filter((d) => d.url.endsWith(path))
    await control.advanceClock(3 * 3600)
    await control.redeliver(delivery.id)
    expect([lost.length, delivery.state, (await received(path)).map((c) => c.status)]).toEqual([0, "dropped", ["completed"]])
  })

  it("count drops that many deliveries of the invoice, the next one goes out", async () => {
    const { txnId, path } = await newInvoice()
    await control.dropCallbacks({ txnId, count: 2 })
    await control.pay(txnId, { confirmations: 0 })
    await control.confirm(txnId, { confirmations: 1 })
    await control.confirm(txnId)
    expect((await received(path)).map((c) => c.status)).toEqual(["completed"])
  })

  it("a pay_in's callback is targeted by the pay_in id payDeposit answers", async () => {
    const deposit = await client.deposits.create({ psys_cid: "LTC", uid: `drop-${++seq}` })
    const payIn = await control.payDeposit(deposit.hash, { amount: "1", confirmations: 0 })
    await control.dropCallbacks({ txnId: payIn.id, event: "pay_in" })
    await control.payDeposit(deposit.hash, { txid: payIn.txid })
    const log = await control.callbacks({ txnId: payIn.id })
    const posted = (await received("/status?json=true")).filter((c) => c.txn_id === payIn.id).map((c) => c.status)
    expect([log.map((d) => d.state), posted]).toEqual([["delivered", "dropped"], ["pending"]])
  })
})

describe("POST /_sandbox/invoices/:txn_id/expire", () => {
  it("ends an unpaid invoice as expired with nothing received and calls fail_callback_url", async () => {
    const { txnId, fail } = await newInvoice()
    const state = await control.expire(txnId)
    const operation = await client.operations.retrieve(txnId)
    expect([state.status, operation.status, (await received(fail)).map((c) => [c.status, c.amount])]).toEqual(["expired", "expired", [["expired", "0"]]])
  })

  it("refuses an ended invoice: 422, code 105, naming txn_id", async () => {
    const { txnId } = await newInvoice()
    await control.pay(txnId)
    const error = await refusal(control.expire(txnId))
    expect([error.status, error.code, error.body.includes("txn_id")]).toEqual([422, 105, true])
  })
})

describe("POST /_sandbox/shop", () => {
  afterEach(() => control.shopSettings({ enabledPsysCids: ["BTC", "BTC_TEST", "LTC", "ETH", "USDT_ETH", "TRX", "USDT_TRX"], statusUrl: `${receiver.url}/status?json=true` }))

  it("a coin the shop disables is hidden in the currencies list", async () => {
    await control.shopSettings({ enabledPsysCids: ["BTC", "LTC"] })
    const hidden = (await client.currencies.list()).filter((c) => c.hidden === 1).map((c) => c.cid)
    expect(hidden).toEqual(expect.arrayContaining(["ETH", "TRX"]))
  })

  it("a new Status URL receives the deposit callbacks", async () => {
    await control.shopSettings({ statusUrl: `${receiver.url}/moved?json=true` })
    const deposit = await client.deposits.create({ psys_cid: "LTC", uid: `moved-${++seq}` })
    await control.payDeposit(deposit.hash, { amount: "1" })
    expect((await received("/moved?json=true")).map((c) => c.ipn_type)).toEqual(["pay_in"])
  })
})
