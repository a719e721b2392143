import {
  GatewayClient,
  GatewayConnectionError,
  GatewayOutcomeUnknownError,
  GatewayServerError,
  verifyCallback,
} from "../../gateway"
import { createSandbox, SandboxControlError, type Sandbox, type SandboxShop } from "../index"
import { phpJsonEncodeList, wireFields } from "../core/callback-fields"

const BTC_ADDRESS = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"

let sandbox: Sandbox
let wl: SandboxShop
let client: GatewayClient

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

let seq = 0
const newInvoice = () => client.invoices.create({ order_number: `inproc-${++seq}`, order_name: "In process", currency: "BTC", amount: "0.01" })

describe("the sandbox in process (no port)", () => {
  it("the gateway client creates an invoice through the in-process adapter", async () => {
    const invoice = await newInvoice()
    expect([invoice.txn_id.startsWith("INV-"), sandbox.core.invoice(invoice.txn_id)?.status]).toEqual([true, "new"])
  })

  it("a payment made through the control client shows in the client's operation detail", async () => {
    const invoice = await newInvoice()
    await sandbox.control.pay(invoice.txn_id)
    const operation = await client.operations.retrieve(invoice.txn_id)
    expect(operation.status).toBe("completed")
  })

  it("the client verifies the signed creation result of a white-label invoice", async () => {
    const answer = await sandbox.fetch(
      `${sandbox.url}/api/v1/invoices/new?${new URLSearchParams({ api_key: wl.secretKey, order_number: `inproc-${++seq}`, order_name: "Signed", amount: "0.01" })}`
    )
    const body = Buffer.from(await answer.arrayBuffer())
    const data = (JSON.parse(body.toString("utf8")) as { data: { txn_id: string } }).data
    const verified = verifyCallback({ body: Buffer.from(JSON.stringify(data)), contentType: "application/json", secretKey: wl.secretKey })
    expect(verified.fields.txn_id).toBe(data.txn_id)
  })

  it("a 5xx fault reaches the client as the gateway's server error", async () => {
    await sandbox.control.fault({ path: "/api/v1/balances", mode: "5xx" })
    await expect(client.balances.retrieve("BTC")).rejects.toBeInstanceOf(GatewayServerError)
  })

  it("a reset fault reaches the client as a dropped connection", async () => {
    await sandbox.control.fault({ path: "/api/v1/balances", mode: "reset" })
    await expect(client.balances.retrieve("BTC")).rejects.toBeInstanceOf(GatewayConnectionError)
  })

  it("a timeout fault applies the withdrawal and withholds the answer: outcome unknown", async () => {
    await sandbox.control.fault({ path: "/api/v1/operations/withdraw", mode: "timeout", ms: 5000 })
    const impatient = new GatewayClient({ apiKey: wl.secretKey, baseUrl: sandbox.url, httpAdapter: sandbox.httpAdapter, maxRetries: 0, timeoutMs: 300 })
    const error = await impatient.operations.withdraw({ currency: "BTC", type: "cash_out", to: BTC_ADDRESS, amount: "0.0123" }).catch((e: unknown) => e)
    const listed = await client.operations.list({ type: "cash_out" })
    expect([error instanceof GatewayOutcomeUnknownError, listed.operations.some((o) => o.amount?.toFixed() === "0.0123")]).toEqual([true, true])
  })

  it("advanceClock moves the sandbox clock and expires an unpaid invoice", async () => {
    const invoice = await newInvoice()
    const clock = await sandbox.control.advanceClock(601 * 60)
    expect([clock.offset_seconds >= 601 * 60, sandbox.core.invoice(invoice.txn_id)?.status]).toEqual([true, "cancelled"])
  })

  it("switchCurrency answers the new invoice of the chain", async () => {
    const invoice = await newInvoice()
    const child = await sandbox.control.switchCurrency(invoice.txn_id, "LTC")
    expect([child.psys_cid, child.parent_id]).toEqual(["LTC", invoice.txn_id])
  })

  it("a control call the sandbox refuses throws SandboxControlError with the envelope's code", async () => {
    const error = await sandbox.control.pay("INV-NOPE").catch((e: unknown) => e)
    expect(error instanceof SandboxControlError && [error.status, error.code]).toEqual([404, 111])
  })

  it("the control client acting as another shop sees only that shop's invoices", async () => {
    const plain = sandbox.shops.find((s) => !s.whiteLabel)
    const invoice = await newInvoice()
    const error = await sandbox.control.as(plain?.secretKey ?? "").pay(invoice.txn_id).catch((e: unknown) => e)
    expect(error instanceof SandboxControlError && error.status).toBe(404)
  })
})

describe("tx_urls in form callbacks", () => {
  it("is one string holding the list as PHP's json_encode writes it", () => {
    expect(phpJsonEncodeList(["https://explorer/tx/abc"])).toBe('["https:\\/\\/explorer\\/tx\\/abc"]')
  })

  it("escapes non-ASCII as PHP's json_encode does, surrogate pairs included", () => {
    expect(phpJsonEncodeList(["é/🚀"])).toBe('["\\u00e9\\/\\ud83d\\ude80"]')
  })

  it("stays a list in JSON callbacks", () => {
    expect(wireFields({ status: "paid", tx_urls: ["https://x/tx/1"] }, "json").tx_urls).toEqual(["https://x/tx/1"])
  })

  it("is a string in multipart callbacks, every other field unchanged", () => {
    expect(wireFields({ status: "paid", tx_urls: ["https://x/tx/1"] }, "multipart")).toEqual({ status: "paid", tx_urls: '["https:\\/\\/x\\/tx\\/1"]' })
  })
})
