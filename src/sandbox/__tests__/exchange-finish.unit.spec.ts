import { Decimal, GatewayClient, type Exchange } from "../../gateway"
import { createSandbox, SandboxControlError, type Sandbox } from "../index"

// The control API's `exchanges/:id/finish` (src/sandbox/README.md, "Control API"): the gateway ends a
// processing exchange as completed (maybe with another amount bought) or error, driven in process.
const ETH_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7"

let sandbox: Sandbox
let client: GatewayClient

beforeAll(() => {
  sandbox = createSandbox({ frozenClock: Date.UTC(2030, 0, 1) })
  // The seed's first shop (the control client's) has the exchange API on and 127.0.0.1, the in-process
  // caller's IP, in its Request IP list.
  const shop = sandbox.core.shopByKey(sandbox.control.apiKey)
  if (shop === undefined || !shop.exchange_enabled || !shop.request_ips.includes("127.0.0.1")) {
    throw new Error("the bundled seed's first shop has the exchange API for 127.0.0.1")
  }
  client = new GatewayClient({ apiKey: sandbox.control.apiKey, baseUrl: sandbox.url, httpAdapter: sandbox.httpAdapter, maxRetries: 0, timeoutMs: 10_000 })
})

afterAll(() => sandbox.close())

/** A BTC → ETH exchange of 0.01 BTC, `processing`. */
const newExchange = async (): Promise<{ id: string; toAmount: string }> => {
  const exchange = await client.exchanges.create({ from_currency: "BTC", to_currency: "ETH", from_amount: "0.01", to_address: ETH_ADDRESS })
  if (exchange.id === undefined || exchange.status !== "processing") {
    throw new Error("the sandbox creates a processing exchange with an id")
  }
  return { id: exchange.id, toAmount: exact(exchange.to_amount) }
}

/** The client makes money-named exchange fields `Decimal`s; compare them as exact text. */
const exact = (value: unknown): string => (value instanceof Decimal ? value.toFixed() : String(value))

const retrieve = async (id: string): Promise<Exchange> => client.exchanges.retrieve(id)

/** The attributes a spec §7 validation error names: the keys of its JSON-encoded message. */
function attributes(body: string): string[] {
  const envelope = JSON.parse(body) as { data?: { message?: string } }
  try {
    return Object.keys(JSON.parse(envelope.data?.message ?? "") as Record<string, unknown>)
  } catch {
    return []
  }
}

/** A refused control call: HTTP status, envelope code, the attributes it names. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; code: number | null; names: string[] }> {
  const error = await call.catch((e: unknown) => e)
  if (!(error instanceof SandboxControlError)) {
    throw new Error("the control call succeeded")
  }
  return { status: error.status, code: error.code, names: attributes(error.body) }
}

describe("finishing an exchange as completed", () => {
  it("with another to_amount, GET /exchanges/{id} shows that amount, completed, with a tx_url", async () => {
    const { id, toAmount } = await newExchange()
    const other = new Decimal(toAmount).minus("0.001").toFixed()
    await sandbox.control.finishExchange(id, { status: "completed", toAmount: other })
    const shown = await retrieve(id)
    expect([shown.status, exact(shown.to_amount), typeof shown.tx_url]).toEqual(["completed", other, "string"])
  })

  it("without to_amount keeps the quoted amount", async () => {
    const { id, toAmount } = await newExchange()
    await sandbox.control.finishExchange(id, { status: "completed" })
    expect(exact((await retrieve(id)).to_amount)).toBe(toAmount)
  })

  it("finishes it now on the sandbox clock", async () => {
    const { id } = await newExchange()
    const answer = await sandbox.control.finishExchange(id, { status: "completed" })
    expect(answer.finished_at_utc).toBe(sandbox.clock.nowSeconds())
  })

  it("answers the exchange as GET /exchanges/{id} shows it", async () => {
    const { id } = await newExchange()
    const answer = await sandbox.control.finishExchange(id, { status: "completed", toAmount: "0.1" })
    const shown = await retrieve(id)
    expect([answer.id, answer.status, answer.to_amount, answer.tx_url, answer.finished_at_utc]).toEqual([
      shown.id,
      shown.status,
      exact(shown.to_amount),
      shown.tx_url,
      shown.finished_at_utc,
    ])
  })
})

describe("finishing an exchange as error", () => {
  it("ends it in error with no tx_url", async () => {
    const { id } = await newExchange()
    await sandbox.control.finishExchange(id, { status: "error" })
    const shown = await retrieve(id)
    expect([shown.status, shown.tx_url]).toEqual(["error", null])
  })

  it("credits the from amount back: the BTC balance is what it was before the exchange", async () => {
    const before = (await client.balances.retrieve("BTC")).balance
    const { id } = await newExchange()
    const during = (await client.balances.retrieve("BTC")).balance
    await sandbox.control.finishExchange(id, { status: "error" })
    const after = (await client.balances.retrieve("BTC")).balance
    expect([before.minus(during).toFixed(), after.toFixed()]).toEqual(["0.01", before.toFixed()])
  })

  it("stays in error once its processing time has passed", async () => {
    const { id } = await newExchange()
    await sandbox.control.finishExchange(id, { status: "error" })
    await sandbox.control.advanceClock(sandbox.core.seed.exchange.processing_seconds)
    expect((await retrieve(id)).status).toBe("error")
  })
})

describe("finishing an exchange is refused", () => {
  it("for an unknown id with 404 and code 111", async () => {
    expect(await refusal(sandbox.control.finishExchange("EX-UNKNOWN", { status: "completed" }))).toMatchObject({ status: 404, code: 111 })
  })

  it("for another shop's exchange with 404 and code 111", async () => {
    const { id } = await newExchange()
    const other = sandbox.shops.find((s) => s.secretKey !== sandbox.control.apiKey)
    const answer = await refusal(sandbox.control.as(other?.secretKey ?? "").finishExchange(id, { status: "error" }))
    expect(answer).toMatchObject({ status: 404, code: 111 })
  })

  it("a second time, with 422 and 105 naming status", async () => {
    const { id } = await newExchange()
    await sandbox.control.finishExchange(id, { status: "error" })
    const answer = await refusal(sandbox.control.finishExchange(id, { status: "completed" }))
    expect(answer).toEqual({ status: 422, code: 105, names: ["status"] })
  })

  it("for an exchange the clock has completed, naming status", async () => {
    const { id } = await newExchange()
    await sandbox.control.advanceClock(sandbox.core.seed.exchange.processing_seconds)
    const answer = await refusal(sandbox.control.finishExchange(id, { status: "error" }))
    expect(answer).toEqual({ status: 422, code: 105, names: ["status"] })
  })

  it("for a to_amount finer than the to coin's precision, naming to_amount, and the exchange stays processing", async () => {
    const { id } = await newExchange()
    const answer = await refusal(sandbox.control.finishExchange(id, { status: "completed", toAmount: "0.0000000000000000001" }))
    expect([answer, (await retrieve(id)).status]).toEqual([{ status: 422, code: 105, names: ["to_amount"] }, "processing"])
  })

  it.each(["0", "-1", "1e3", "abc"])("for to_amount %p, naming to_amount", async (toAmount) => {
    const { id } = await newExchange()
    const answer = await refusal(sandbox.control.finishExchange(id, { status: "completed", toAmount }))
    expect(answer).toEqual({ status: 422, code: 105, names: ["to_amount"] })
  })

  it("for a to_amount given with status error, naming to_amount", async () => {
    const { id } = await newExchange()
    const answer = await refusal(sandbox.control.finishExchange(id, { status: "error", toAmount: "0.1" }))
    expect(answer).toEqual({ status: 422, code: 105, names: ["to_amount"] })
  })

  it.each([{ status: "processing" }, { status: "" }, {}])("for the body %p (status neither completed nor error), naming status", async (body) => {
    const { id } = await newExchange()
    const response = await sandbox.fetch(`${sandbox.url}/_sandbox/exchanges/${id}/finish?api_key=${sandbox.control.apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    })
    const answer = await response.text()
    const code = (JSON.parse(answer) as { data?: { code?: number } }).data?.code
    expect({ status: response.status, code, names: attributes(answer) }).toEqual({ status: 422, code: 105, names: ["status"] })
  })
})
