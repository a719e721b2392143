import util from "node:util"
import axios, { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from "axios"
import { GatewayClient, GatewayError, type GatewayLogger } from ".."
import { closedPortUrl, FakeGateway, rejectionOf, type Reply, success } from "./helpers/fake-gateway"

/** Distinctive keys: a plain one, and one whose query-string encoding differs from its text. */
const KEYS = ["sk_live_REDACTME_4242424242", "sk/live+REDACT=ME&x?y#z"]

interface Captured {
  error: unknown
  logLines: string[]
}

function recordingLogger(lines: string[]): GatewayLogger {
  const record = (...args: unknown[]): void => void lines.push(args.map((arg) => util.inspect(arg, { depth: 10 })).join(" "))
  return { debug: record, info: record, warn: record, error: record }
}

/** Every place a secret could leak from a failed call. */
function surfaces({ error, logLines }: Captured): string[] {
  const err = error as Error
  return [
    util.inspect(error, { depth: 10, showHidden: true }),
    JSON.stringify(error),
    String(err.stack),
    String(err.message),
    String(error),
    ...logLines,
  ]
}

function expectNoSecret(captured: Captured, key: string): void {
  expect(captured.error).toBeInstanceOf(GatewayError)
  const forms = [key, encodeURIComponent(key), new URLSearchParams({ k: key }).toString().slice(2)]
  for (const text of surfaces(captured)) {
    for (const form of forms) expect(text).not.toContain(form)
  }
  for (const property of ["config", "request", "response"]) {
    expect(Object.prototype.hasOwnProperty.call(captured.error, property)).toBe(false)
  }
}

describe.each(KEYS)("the api_key %j never leaks", (key) => {
  let gateway: FakeGateway
  beforeEach(async () => {
    gateway = await FakeGateway.start()
  })
  afterEach(async () => {
    await gateway.close()
  })

  async function failWith(reply: Reply, options: { timeoutMs?: number; baseUrl?: string } = {}): Promise<Captured> {
    gateway.on("/balances/BTC", reply)
    const logLines: string[] = []
    const client = gateway.client({ apiKey: key, maxRetries: 1, logger: recordingLogger(logLines), ...options })
    const error = await rejectionOf(client.balances.retrieve("BTC"))
    return { error, logLines }
  }

  it("on a refused connection", async () => {
    expectNoSecret(await failWith(success("{}"), { baseUrl: await closedPortUrl() }), key)
  })

  it("on a timeout", async () => {
    expectNoSecret(await failWith({ hang: true }, { timeoutMs: 100 }), key)
  })

  it("on a connection reset", async () => {
    expectNoSecret(await failWith({ reset: true }), key)
  })

  it("on a 4xx whose body echoes the key", async () => {
    const body = JSON.stringify({ status: "error", data: { message: `unknown key ${key} (${encodeURIComponent(key)})`, code: 401 } })
    const captured = await failWith({ status: 401, body })
    expectNoSecret(captured, key)
    expect((captured.error as Error).message).toContain("unknown key ***")
  })

  it("on a 422 whose field errors echo the key", async () => {
    const body = JSON.stringify({ status: "error", data: { message: JSON.stringify({ api_key: `${key} is wrong` }), code: 0 } })
    expectNoSecret(await failWith({ status: 422, body }), key)
  })

  it("on a 5xx", async () => {
    expectNoSecret(await failWith({ status: 503, body: `<html>upstream ${key}</html>` }), key)
  })

  it("on a malformed success body", async () => {
    expectNoSecret(await failWith({ status: 200, body: "not json" }), key)
  })

  it("on a success body with a value that is not a decimal", async () => {
    expectNoSecret(await failWith(success('{"balance":"abc"}')), key)
  })

  it("on an outcome-unknown withdrawal", async () => {
    gateway.on("/operations/withdraw", { hang: true })
    const logLines: string[] = []
    const client = gateway.client({ apiKey: key, timeoutMs: 100, logger: recordingLogger(logLines) })
    const error = await rejectionOf(client.operations.withdraw({ currency: "BTC", type: "cash_out", to: "a", amount: "1" }))
    expectNoSecret({ error, logLines }, key)
  })

  it("on a failing axios adapter whose error carries the full config", async () => {
    const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
      throw new AxiosError(`connect failed for ${String(config.url)}`, "ECONNRESET", config)
    }
    const logLines: string[] = []
    const client = new GatewayClient({ apiKey: key, baseUrl: "https://gateway.example", httpAdapter: adapter, logger: recordingLogger(logLines), retry: { sleep: async () => undefined } })
    const error = await rejectionOf(client.balances.retrieve("BTC"))
    expect(axios.isAxiosError(error)).toBe(false)
    expectNoSecret({ error, logLines }, key)
  })

  it("in the debug line logged per request, which shows api_key=***", async () => {
    gateway.on("/balances/BTC", success('{"balance":"1"}'))
    const lines: string[] = []
    await gateway.client({ apiKey: key, logger: { debug: (line) => void lines.push(line) } }).balances.retrieve("BTC")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`^GET ${gateway.baseUrl.replace(/\./g, "\\.")}/api/v1/balances/BTC\\?api_key=\\*\\*\\* -> 200 in \\d+ ms$`))
  })
})
