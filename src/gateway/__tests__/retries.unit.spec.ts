import {
  GatewayClient,
  GatewayConnectionError,
  GatewayServerError,
  GatewayTimeoutError,
  GatewayUnprocessableEntityError,
} from ".."
import { failure, FakeGateway, rejectionOf, success } from "./helpers/fake-gateway"

type Call = [name: string, path: string, call: (client: GatewayClient) => Promise<unknown>]

/** Every call that is safe to repeat, with the path it requests. */
const RETRIED: Call[] = [
  ["invoices.create with return_existing", "/invoices/new", (c) => c.invoices.create({ order_name: "A", order_number: "1", return_existing: true })],
  ["operations.list", "/operations", (c) => c.operations.list()],
  ["operations.retrieve", "/operations/OP-1", (c) => c.operations.retrieve("OP-1")],
  ["operations.commission", "/operations/commission/BTC", (c) => c.operations.commission("BTC", { addresses: "a", amounts: "1" })],
  ["operations.fee", "/operations/fee/BTC", (c) => c.operations.fee("BTC", { addresses: "a", amounts: "1" })],
  ["operations.feePlans", "/operations/fee-plan/BTC", (c) => c.operations.feePlans("BTC")],
  ["currencies.list", "/currencies", (c) => c.currencies.list()],
  ["balances.retrieve", "/balances/BTC", (c) => c.balances.retrieve("BTC")],
  ["deposits.create", "/shops/deposit/new", (c) => c.deposits.create({ psys_cid: "BTC", uid: "u" })],
  ["deposits.list", "/shops/deposit", (c) => c.deposits.list()],
  ["exchanges.currencies", "/exchanges/list", (c) => c.exchanges.currencies()],
  ["exchanges.estimate", "/exchanges/estimate", (c) => c.exchanges.estimate({ from_currency: "BTC", to_currency: "ETH" })],
  ["exchanges.retrieve", "/exchanges/EX-1", (c) => c.exchanges.retrieve("EX-1")],
]

/** Every call that must never be repeated. */
const NOT_RETRIED: Call[] = [
  ["invoices.create without return_existing", "/invoices/new", (c) => c.invoices.create({ order_name: "A", order_number: "1" })],
  ["operations.withdraw", "/operations/withdraw", (c) => c.operations.withdraw({ currency: "BTC", type: "cash_out", to: "a", amount: "1" })],
  ["exchanges.create", "/exchanges/new", (c) => c.exchanges.create({ from_currency: "BTC", to_currency: "ETH", to_address: "0x" })],
]

const SERVER_ERROR = failure(500, { message: "Internal server error", code: 108 })

describe("retries", () => {
  let gateway: FakeGateway
  beforeEach(async () => {
    gateway = await FakeGateway.start()
  })
  afterEach(async () => {
    await gateway.close()
  })

  describe.each(RETRIED)("%s", (_name, path, call) => {
    it("makes 3 attempts (1 + default maxRetries 2) on a 5xx, then throws GatewayServerError", async () => {
      gateway.on(path, SERVER_ERROR)
      expect(await rejectionOf(call(gateway.client()))).toBeInstanceOf(GatewayServerError)
      expect(gateway.requestsTo(path)).toHaveLength(3)
    })

    it("makes 3 attempts on a connection reset, then throws GatewayConnectionError", async () => {
      gateway.on(path, { reset: true })
      expect(await rejectionOf(call(gateway.client()))).toBeInstanceOf(GatewayConnectionError)
      expect(gateway.requestsTo(path)).toHaveLength(3)
    })

    it("makes 1 attempt on a 422", async () => {
      gateway.on(path, failure(422, { message: "invalid", code: 0 }))
      expect(await rejectionOf(call(gateway.client()))).toBeInstanceOf(GatewayUnprocessableEntityError)
      expect(gateway.requestsTo(path)).toHaveLength(1)
    })
  })

  describe.each(NOT_RETRIED)("%s", (_name, path, call) => {
    it("makes 1 attempt on a 5xx", async () => {
      gateway.on(path, SERVER_ERROR)
      expect(await rejectionOf(call(gateway.client()))).toBeInstanceOf(GatewayServerError)
      expect(gateway.requestsTo(path)).toHaveLength(1)
    })

    it("makes 1 attempt on a connection reset", async () => {
      gateway.on(path, { reset: true })
      await rejectionOf(call(gateway.client()))
      expect(gateway.requestsTo(path)).toHaveLength(1)
    })
  })

  it("makes 3 attempts on a timeout for a read, then throws GatewayTimeoutError", async () => {
    gateway.on("/balances/BTC", { hang: true })
    expect(await rejectionOf(gateway.client({ timeoutMs: 100 }).balances.retrieve("BTC"))).toBeInstanceOf(GatewayTimeoutError)
    expect(gateway.requestsTo("/balances/BTC")).toHaveLength(3)
  })

  it("returns the result of a retry that succeeds", async () => {
    gateway.on("/balances/BTC", SERVER_ERROR, { reset: true }, success('{"balance":"0.00000001"}'))
    const balance = await gateway.client().balances.retrieve("BTC")
    expect(balance.balance.toFixed()).toBe("0.00000001")
    expect(gateway.requestsTo("/balances/BTC")).toHaveLength(3)
  })

  it.each([0, 1, 4])("makes 1 + maxRetries attempts with maxRetries %i", async (maxRetries) => {
    gateway.on("/currencies", SERVER_ERROR)
    await rejectionOf(gateway.client({ maxRetries }).currencies.list())
    expect(gateway.requestsTo("/currencies")).toHaveLength(1 + maxRetries)
  })

  it("waits a jittered, doubling backoff between attempts", async () => {
    gateway.on("/currencies", SERVER_ERROR)
    const waits: number[] = []
    const client = gateway.client({
      maxRetries: 3,
      retry: { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
    })
    await rejectionOf(client.currencies.list())
    expect(waits).toEqual([50, 100, 200])
  })

  it("caps the backoff at maxDelayMs", async () => {
    gateway.on("/currencies", SERVER_ERROR)
    const waits: number[] = []
    const client = gateway.client({
      maxRetries: 4,
      retry: { baseDelayMs: 100, maxDelayMs: 250, random: () => 0.999, sleep: async (ms) => void waits.push(ms) },
    })
    await rejectionOf(client.currencies.list())
    expect(waits).toEqual([99, 199, 249, 249])
  })

  it("draws the jitter from the random source (no two clients in lockstep)", async () => {
    gateway.on("/currencies", SERVER_ERROR)
    const waits: number[] = []
    const draws = [0, 0.25]
    const client = gateway.client({
      retry: { baseDelayMs: 400, random: () => draws.shift() ?? 0, sleep: async (ms) => void waits.push(ms) },
    })
    await rejectionOf(client.currencies.list())
    expect(waits).toEqual([0, 200])
  })

  it("logs a warning per retry", async () => {
    gateway.on("/currencies", SERVER_ERROR)
    const warnings: string[] = []
    await rejectionOf(gateway.client({ logger: { warn: (line) => void warnings.push(line) } }).currencies.list())
    expect(warnings).toEqual([
      "currencies.list: Gateway answered HTTP 500 (code 108): Internal server error; retry 1 of 2 in 250 ms",
      "currencies.list: Gateway answered HTTP 500 (code 108): Internal server error; retry 2 of 2 in 500 ms",
    ])
  })
})
