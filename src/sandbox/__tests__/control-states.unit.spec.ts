import { GatewayClient } from "../../gateway"
import { createSandbox, Dec, SandboxControlError, type Sandbox, type SandboxShop } from "../index"

// The control API's moves (src/sandbox/README.md, "Control API"), driven through the typed client in process.
const BTC_ADDRESS = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"

let sandbox: Sandbox
let wl: SandboxShop
let client: GatewayClient
let seq = 0

beforeAll(() => {
  sandbox = createSandbox({ frozenClock: Date.UTC(2030, 0, 1), internalTransferSeconds: 0 })
  const found = sandbox.shops.find((s) => s.whiteLabel)
  if (found === undefined) {
    throw new Error("the bundled seed has a white-label shop")
  }
  wl = found
  client = new GatewayClient({ apiKey: wl.secretKey, baseUrl: sandbox.url, httpAdapter: sandbox.httpAdapter, maxRetries: 0, timeoutMs: 10_000 })
})

afterAll(() => sandbox.close())

// Nothing listens there: deliveries are attempted (and fail) unless dropped.
const CALLBACK_URL = "http://127.0.0.1:9/callback?json=true"

const newInvoice = (expireMin?: number) =>
  client.invoices.create({
    order_number: `ctl-${++seq}`,
    order_name: "Control",
    currency: "BTC",
    amount: "0.01",
    callback_url: CALLBACK_URL,
    ...(expireMin === undefined ? {} : { expire_min: expireMin }),
  })

async function refusal(call: Promise<unknown>): Promise<{ status: number; code: number | null; body: string }> {
  const error = await call.catch((e: unknown) => e)
  if (!(error instanceof SandboxControlError)) {
    throw new Error("the control call succeeded")
  }
  return { status: error.status, code: error.code, body: error.body }
}

describe("control invoice", () => {
  it("shows the invoice's status, amounts and transactions", async () => {
    const invoice = await newInvoice()
    await sandbox.control.pay(invoice.txn_id, { amount: "0.004", confirmations: 0 })
    const state = await sandbox.control.invoice(invoice.txn_id)
    expect([state.status, state.received, state.confirmed, state.txs.length, state.txs[0]?.value]).toEqual(["pending", "0.004", "0", 1, "0.004"])
  })

  it("answers the status the clock has made due", async () => {
    const invoice = await newInvoice(30)
    await sandbox.control.advanceClock(30 * 60)
    expect((await sandbox.control.invoice(invoice.txn_id)).status).toBe("cancelled")
  })

  it("of another shop's invoice is 404 with code 111", async () => {
    const invoice = await newInvoice()
    const plain = sandbox.shops.find((s) => !s.whiteLabel)
    expect(await refusal(sandbox.control.as(plain?.secretKey ?? "").invoice(invoice.txn_id))).toMatchObject({ status: 404, code: 111 })
  })
})

describe("control pay on an ended invoice", () => {
  it("a payment to a cancelled invoice is accepted and makes it expired", async () => {
    const invoice = await newInvoice(30)
    await sandbox.control.advanceClock(30 * 60)
    const state = await sandbox.control.pay(invoice.txn_id, { amount: "0.004" })
    expect([state.status, state.received]).toEqual(["expired", "0.004"])
  })

  it("a payment with error is recorded and ends the invoice in error", async () => {
    const invoice = await newInvoice()
    const state = await sandbox.control.pay(invoice.txn_id, { error: true })
    expect([state.status, state.received]).toEqual(["error", state.invoice_total_sum])
  })
})

describe("control settle", () => {
  it("completes an invoice in error and credits the shop", async () => {
    const invoice = await newInvoice()
    const before = (await client.balances.retrieve("BTC")).balance
    await sandbox.control.pay(invoice.txn_id, { error: true })
    const state = await sandbox.control.settle(invoice.txn_id)
    const after = (await client.balances.retrieve("BTC")).balance
    expect([state.status, after.minus(before).toFixed()]).toEqual(["completed", state.credited])
  })

  it("is refused with 422 naming txn_id for an invoice not in error", async () => {
    const invoice = await newInvoice()
    const answer = await refusal(sandbox.control.settle(invoice.txn_id))
    expect([answer.status, answer.code, answer.body.includes("txn_id")]).toEqual([422, 105, true])
  })
})

describe("control failNextWithdrawals", () => {
  it("the next withdrawal answers status error with an id and debits nothing", async () => {
    const before = (await client.balances.retrieve("BTC")).balance
    const armed = await sandbox.control.failNextWithdrawals()
    const withdrawal = await client.operations.withdraw({ currency: "BTC", type: "cash_out", to: BTC_ADDRESS, amount: "0.001" })
    const after = (await client.balances.retrieve("BTC")).balance
    expect([armed.pending, withdrawal.status, withdrawal.id.length > 0, after.toFixed()]).toEqual([1, "error", true, before.toFixed()])
  })

  it("the failed withdrawal is an operation in error, in the detail and the list", async () => {
    await sandbox.control.failNextWithdrawals()
    const withdrawal = await client.operations.withdraw({ currency: "BTC", type: "cash_out", to: BTC_ADDRESS, amount: "0.002" })
    const detail = await client.operations.retrieve(withdrawal.id)
    const listed = await client.operations.list({ type: "cash_out", status: "error" })
    expect([detail.status, listed.operations.some((o) => o.id === withdrawal.id)]).toEqual(["error", true])
  })

  it("count fails that many withdrawals, then they complete again", async () => {
    await sandbox.control.failNextWithdrawals({ count: 2 })
    const statuses: string[] = []
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await client.operations.withdraw({ currency: "BTC", type: "cash_out", to: BTC_ADDRESS, amount: "0.001" })).status)
    }
    expect(statuses).toEqual(["error", "error", "completed"])
  })

  it("a mass_cash_out fails too", async () => {
    await sandbox.control.failNextWithdrawals()
    const withdrawal = await client.operations.withdraw({
      currency: "BTC",
      type: "mass_cash_out",
      to: [BTC_ADDRESS, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
      amount: ["0.001", "0.001"],
    })
    expect(withdrawal.status).toBe("error")
  })
})

describe("control cashIn", () => {
  it("credits the balance with the amount", async () => {
    const before = (await client.balances.retrieve("LTC")).balance
    await sandbox.control.cashIn({ psysCid: "LTC", amount: "1.5" })
    const after = (await client.balances.retrieve("LTC")).balance
    expect(after.minus(before).toFixed()).toBe("1.5")
  })

  it("is a cash_in operation with params.value, in the list and the detail", async () => {
    const cashIn = await sandbox.control.cashIn({ psysCid: "LTC", amount: "0.25" })
    const detail = await client.operations.retrieve(cashIn.id)
    const listed = await client.operations.list({ type: "cash_in" })
    expect([cashIn.type, detail.type, detail.params?.value?.toFixed(), listed.operations.some((o) => o.id === cashIn.id)]).toEqual([
      "cash_in",
      "cash_in",
      "0.25",
      true,
    ])
  })

  it("of a coin the shop has not enabled is refused with 105 naming psys_cid", async () => {
    const answer = await refusal(sandbox.control.cashIn({ psysCid: "NOPE", amount: "1" }))
    expect([answer.status, answer.code, answer.body.includes("psys_cid")]).toEqual([422, 105, true])
  })
})

describe("control dropCallbacks", () => {
  it("the next delivery of the invoice is logged as dropped and never attempted", async () => {
    const invoice = await newInvoice()
    const armed = await sandbox.control.dropCallbacks({ txnId: invoice.txn_id })
    await sandbox.control.pay(invoice.txn_id)
    const [delivery] = await sandbox.control.callbacks({ txnId: invoice.txn_id })
    expect([armed.pending, delivery?.state, delivery?.attempts.length]).toEqual([1, "dropped", 0])
  })

  it("drops only deliveries of the event it names", async () => {
    const invoice = await newInvoice()
    await sandbox.control.dropCallbacks({ event: "pay_in" })
    await sandbox.control.pay(invoice.txn_id)
    const [delivery] = await sandbox.control.callbacks({ txnId: invoice.txn_id })
    await sandbox.control.reset()
    expect(delivery?.state).not.toBe("dropped")
  })
})

describe("control expire", () => {
  it("ends an unpaid invoice as expired with nothing received", async () => {
    const invoice = await newInvoice()
    const state = await sandbox.control.expire(invoice.txn_id)
    expect([state.status, state.received]).toEqual(["expired", "0"])
  })

  it("ends a part-paid invoice as expired and credits its confirmed money", async () => {
    const invoice = await newInvoice()
    await sandbox.control.pay(invoice.txn_id, { amount: "0.004" })
    const state = await sandbox.control.expire(invoice.txn_id)
    expect([state.status, state.received, new Dec(state.credited).gt(0)]).toEqual(["expired", "0.004", true])
  })

  it("is refused with 422 naming txn_id for an ended invoice", async () => {
    const invoice = await newInvoice()
    await sandbox.control.pay(invoice.txn_id)
    const answer = await refusal(sandbox.control.expire(invoice.txn_id))
    expect([answer.status, answer.code, answer.body.includes("txn_id")]).toEqual([422, 105, true])
  })
})

describe("control invoices", () => {
  it("lists the shop's invoices in a status", async () => {
    const paid = await newInvoice()
    const open = await newInvoice()
    await sandbox.control.pay(paid.txn_id, { confirmations: 0 })
    const pending = (await sandbox.control.invoices({ status: "pending" })).map((i) => i.txn_id)
    expect([pending.includes(paid.txn_id), pending.includes(open.txn_id)]).toEqual([true, false])
  })

  it("lists only the acting shop's invoices", async () => {
    const invoice = await newInvoice()
    const plain = sandbox.shops.find((s) => !s.whiteLabel)
    const theirs = await sandbox.control.as(plain?.secretKey ?? "").invoices()
    expect(theirs.some((i) => i.txn_id === invoice.txn_id)).toBe(false)
  })
})

describe("control shopSettings", () => {
  afterEach(() => sandbox.control.reset())

  it("a coin the shop disables is hidden in the currencies list and refused for an invoice", async () => {
    await sandbox.control.shopSettings({ enabledPsysCids: ["BTC", "LTC"] })
    const eth = (await client.currencies.list()).find((c) => c.cid === "ETH")
    const refused = await client.invoices.create({ order_number: `ctl-${++seq}`, order_name: "Off", currency: "ETH", amount: "0.1" }).catch((e: unknown) => e)
    expect([eth?.hidden, refused instanceof Error && refused.message.includes("currency")]).toEqual([1, true])
  })

  it("the shop's default coin must stay enabled", async () => {
    const answer = await refusal(sandbox.control.shopSettings({ enabledPsysCids: ["LTC"] }))
    expect([answer.status, answer.code, answer.body.includes("enabled_psys_cids")]).toEqual([422, 105, true])
  })

  it("sets and clears the Status URL", async () => {
    const set = await sandbox.control.shopSettings({ statusUrl: "http://127.0.0.1:9/status?json=true" })
    const cleared = await sandbox.control.shopSettings({ statusUrl: null })
    expect([set.status_url, cleared.status_url]).toEqual(["http://127.0.0.1:9/status?json=true", null])
  })

  it("reset restores the seeded settings", async () => {
    await sandbox.control.shopSettings({ enabledPsysCids: ["BTC"], successUrl: "http://127.0.0.1:9/ok" })
    await sandbox.control.reset()
    const after = await sandbox.control.shopSettings({})
    expect([after.enabled_psys_cids.includes("ETH"), after.success_url]).toEqual([true, null])
  })
})

describe("control currencySettings", () => {
  afterEach(() => sandbox.control.reset())

  it("puts a coin under maintenance in every shop's currencies list, and takes it out", async () => {
    const plain = sandbox.shops.find((s) => !s.whiteLabel)
    const plainClient = new GatewayClient({ apiKey: plain?.secretKey ?? "", baseUrl: sandbox.url, httpAdapter: sandbox.httpAdapter, maxRetries: 0, timeoutMs: 10_000 })
    const set = await sandbox.control.currencySettings("LTC", { maintenance: true })
    const listed = [(await client.currencies.list()).find((c) => c.cid === "LTC")?.maintenance, (await plainClient.currencies.list()).find((c) => c.cid === "LTC")?.maintenance]
    const cleared = await sandbox.control.currencySettings("LTC", { maintenance: false })
    const after = (await client.currencies.list()).find((c) => c.cid === "LTC")?.maintenance
    expect([set.maintenance, ...listed, cleared.maintenance, after]).toEqual([true, true, true, false, false])
  })

  it("reset restores the seeded flags", async () => {
    await sandbox.control.currencySettings("ETH", { maintenance: true })
    await sandbox.control.reset()
    expect((await client.currencies.list()).find((c) => c.cid === "ETH")?.maintenance).toBe(false)
  })

  it("an unknown coin is refused with 105 naming psys_cid", async () => {
    const answer = await refusal(sandbox.control.currencySettings("DOGE", { maintenance: true }))
    expect([answer.code, answer.body.includes("psys_cid")]).toEqual([105, true])
  })
})

describe("control invoice shows what the shop sent", () => {
  it("its order name, description and accepted coins", async () => {
    const invoice = await client.invoices.create({ order_number: `ctl-${++seq}`, order_name: "Acme Store: 2 items", description: "Mug × 2", currency: "LTC", amount: "1", allowed_psys_cids: ["LTC", "BTC"] })
    const state = await sandbox.control.invoice(invoice.txn_id)
    expect([state.order_name, state.description, state.allowed_psys_cids]).toEqual(["Acme Store: 2 items", "Mug × 2", ["LTC", "BTC"]])
  })
})
