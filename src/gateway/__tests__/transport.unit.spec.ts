import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from "axios"
import { GatewayClient, GatewayParameterError, GatewayResponseError } from ".."
import { FakeGateway, rejectionOf, success, TEST_API_KEY } from "./helpers/fake-gateway"

function textAdapter(status: number, body: unknown, seen: string[] = []): AxiosAdapter {
  return async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    seen.push(String(config.url))
    return { data: body, status, statusText: "", headers: {}, config }
  }
}

describe("GatewayClient construction", () => {
  it.each([
    [{ apiKey: "", baseUrl: "https://g.example" }, "apiKey"],
    [{ apiKey: "k", baseUrl: "not a url" }, "baseUrl"],
    [{ apiKey: "k", baseUrl: "ftp://g.example" }, "baseUrl"],
    [{ apiKey: "k", baseUrl: "https://g.example?x=1" }, "baseUrl"],
    [{ apiKey: "k", baseUrl: "https://g.example", timeoutMs: 0 }, "timeoutMs"],
    [{ apiKey: "k", baseUrl: "https://g.example", maxRetries: -1 }, "maxRetries"],
  ])("refuses %j, naming %s", (options, param) => {
    expect(() => new GatewayClient(options)).toThrow(GatewayParameterError)
    try {
      new GatewayClient(options)
    } catch (error: unknown) {
      expect((error as GatewayParameterError).param).toBe(param)
    }
  })

  it("never puts the api key in a construction error", () => {
    expect(() => new GatewayClient({ apiKey: TEST_API_KEY, baseUrl: "nope" })).toThrow(/^Invalid parameter baseUrl: is not a valid URL: "nope"$/)
  })
})

describe("transport", () => {
  it("requests {baseUrl}/api/v1/... with the api_key last, a trailing slash on baseUrl ignored", async () => {
    const seen: string[] = []
    const client = new GatewayClient({ apiKey: "k1", baseUrl: "https://g.example/root/", httpAdapter: textAdapter(200, '{"status":"success","data":{"balance":"1"}}', seen) })
    await client.balances.retrieve("BTC")
    expect(seen).toEqual(["https://g.example/root/api/v1/balances/BTC?api_key=k1"])
  })

  it("uses an injected axios adapter instead of the network", async () => {
    const client = new GatewayClient({ apiKey: "k1", baseUrl: "https://g.example", httpAdapter: textAdapter(200, '{"status":"success","data":{"balance":0.00000001}}') })
    expect((await client.balances.retrieve("BTC")).balance.toFixed()).toBe("0.00000001")
  })

  it("refuses an adapter that hands back an already parsed body (its numbers are lost)", async () => {
    const client = new GatewayClient({ apiKey: "k1", baseUrl: "https://g.example", httpAdapter: textAdapter(200, { status: "success", data: { balance: 1 } }) })
    expect(await rejectionOf(client.balances.retrieve("BTC"))).toBeInstanceOf(GatewayResponseError)
  })

  it("does not follow a redirect (a redirect is not a JSON answer and must not carry the key elsewhere)", async () => {
    const gateway = await FakeGateway.start()
    try {
      gateway.on("/invoices/new", { status: 302, body: "" })
      const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "1" }))
      expect((error as Error).message).toBe("Gateway answered HTTP 302 with an empty body")
      expect(gateway.requests).toHaveLength(1)
    } finally {
      await gateway.close()
    }
  })

  it("logs one debug line per attempt with status and latency, and works with a logger that has only some methods", async () => {
    const gateway = await FakeGateway.start()
    try {
      gateway.on("/currencies", { status: 500, body: "" }, success("[]"))
      const lines: string[] = []
      await gateway.client({ logger: { debug: (line) => void lines.push(line) } }).currencies.list()
      expect(lines).toHaveLength(2)
      expect(lines[0]).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/currencies\?api_key=\*\*\* -> 500 in \d+ ms$/)
      expect(lines[1]).toMatch(/-> 200 in \d+ ms$/)
    } finally {
      await gateway.close()
    }
  })

  it("calls the logger's methods with the logger as this (Medusa's logger is a class)", async () => {
    const gateway = await FakeGateway.start()
    try {
      gateway.on("/currencies", success("[]"))
      class ClassLogger {
        readonly lines: string[] = []
        debug(line: string): void {
          this.lines.push(line)
        }
      }
      const logger = new ClassLogger()
      await gateway.client({ logger }).currencies.list()
      expect(logger.lines).toHaveLength(1)
    } finally {
      await gateway.close()
    }
  })

  it("keeps a __proto__ key from the gateway as plain data", async () => {
    const client = new GatewayClient({
      apiKey: "k1",
      baseUrl: "https://g.example",
      httpAdapter: textAdapter(200, '{"status":"success","data":{"balance":"1","__proto__":{"polluted":true}}}'),
    })
    const balance = await client.balances.retrieve("BTC")
    expect(Object.getPrototypeOf(balance)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
