import { GatewayClient } from "../../gateway"
import { createSandbox, SandboxControlError, type Sandbox, type SandboxShop } from "../index"

// The control API's `drop` (src/sandbox/README.md, "Life cycle"): an invoice's unconfirmed payments
// vanish, replaced or double-spent before they confirmed. Driven through the typed client in process.
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

// Nothing listens there: deliveries are attempted (and fail), which is enough to read what was queued.
const CALLBACK_URL = "http://127.0.0.1:9/callback?json=true"

// BTC: 2 confirmations expected (bundled seed).
const newInvoice = (expireMin?: number) =>
  client.invoices.create({
    order_number: `drop-${++seq}`,
    order_name: "Drop",
    currency: "BTC",
    amount: "0.01",
    callback_url: CALLBACK_URL,
    ...(expireMin === undefined ? {} : { expire_min: expireMin }),
  })

/** The status and amount of the last callback queued for the invoice. */
async function lastCallback(txnId: string): Promise<[string | string[] | undefined, string | string[] | undefined]> {
  const deliveries = await sandbox.control.callbacks({ txnId })
  const last = deliveries[deliveries.length - 1]
  return [last?.fields.status, last?.fields.amount]
}

async function refusal(call: Promise<unknown>): Promise<{ status: number; code: number | null; body: string }> {
  const error = await call.catch((e: unknown) => e)
  if (!(error instanceof SandboxControlError)) {
    throw new Error("the control call succeeded")
  }
  return { status: error.status, code: error.code, body: error.body }
}

describe("control dropUnconfirmed", () => {
  it("takes an invoice whose only payment was unconfirmed back to new with nothing received, and sends the callback", async () => {
    const invoice = await newInvoice()
    await sandbox.control.pay(invoice.txn_id, { confirmations: 0 })
    const state = await sandbox.control.dropUnconfirmed(invoice.txn_id)
    expect([state.status, state.received, state.txs.length]).toEqual(["new", "0", 0])
    expect(await lastCallback(invoice.txn_id)).toEqual(["new", "0"])
  })

  it("keeps the confirmed payments: received falls back to what they hold and the invoice stays pending", async () => {
    const invoice = await newInvoice()
    await sandbox.control.pay(invoice.txn_id, { amount: "0.004" })
    await sandbox.control.pay(invoice.txn_id, { amount: "0.006", confirmations: 1 })
    const state = await sandbox.control.dropUnconfirmed(invoice.txn_id)
    expect([state.status, state.received, state.confirmed, state.txs.map((tx) => tx.value)]).toEqual(["pending", "0.004", "0.004", ["0.004"]])
  })

  it("past the expiry, leaves the status the clock has made due: nothing left is cancelled", async () => {
    const invoice = await newInvoice(30)
    await sandbox.control.pay(invoice.txn_id, { confirmations: 0 })
    // A fully seen but unconfirmed amount does not expire: it waits for its confirmations.
    await sandbox.control.advanceClock(30 * 60)
    expect((await sandbox.control.invoice(invoice.txn_id)).status).toBe("pending")
    const state = await sandbox.control.dropUnconfirmed(invoice.txn_id)
    expect([state.status, state.received]).toEqual(["cancelled", "0"])
    expect(await lastCallback(invoice.txn_id)).toEqual(["cancelled", "0"])
  })

  it("then expire ends the invoice expired with nothing received: a payment was seen, then vanished", async () => {
    const invoice = await newInvoice()
    await sandbox.control.pay(invoice.txn_id, { confirmations: 0 })
    await sandbox.control.dropUnconfirmed(invoice.txn_id)
    const state = await sandbox.control.expire(invoice.txn_id)
    expect([state.status, state.received, state.credited]).toEqual(["expired", "0", "0"])
    expect(await lastCallback(invoice.txn_id)).toEqual(["expired", "0"])
  })

  it("is refused with 422 naming txn_id for an invoice without an unconfirmed transaction", async () => {
    const invoice = await newInvoice()
    const nothing = await refusal(sandbox.control.dropUnconfirmed(invoice.txn_id))
    await sandbox.control.pay(invoice.txn_id, { amount: "0.004" })
    const confirmed = await refusal(sandbox.control.dropUnconfirmed(invoice.txn_id))
    expect([nothing.status, nothing.code, nothing.body.includes("txn_id")]).toEqual([422, 105, true])
    expect([confirmed.status, confirmed.code, confirmed.body.includes("txn_id")]).toEqual([422, 105, true])
  })

  it("is refused with 422 naming txn_id for an ended invoice, which keeps its transactions", async () => {
    const invoice = await newInvoice()
    await sandbox.control.pay(invoice.txn_id, { amount: "0.004", confirmations: 0 })
    await sandbox.control.expire(invoice.txn_id)
    const answer = await refusal(sandbox.control.dropUnconfirmed(invoice.txn_id))
    expect([answer.status, answer.code, answer.body.includes("txn_id")]).toEqual([422, 105, true])
    expect((await sandbox.control.invoice(invoice.txn_id)).received).toBe("0.004")
  })
})
