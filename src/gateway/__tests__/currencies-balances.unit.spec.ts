import { Decimal, GatewayErrorCode, GatewayResponseError, GatewayServerError, GatewayUnprocessableEntityError } from ".."
import { failure, FakeGateway, rejectionOf, success, TEST_API_KEY } from "./helpers/fake-gateway"

const CURRENCIES = `[
  {"name":"Bitcoin","cid":"BTC","currency":"BTC","icon":"https://gateway.example/btc.svg","rate_usd":"123456789.123456789012","price_usd":0.00000001,
   "precision":"8","fiat":"EUR","fiat_rate":123456789.123456789012,"min_sum_in":"0.00000001","invoice_commission_percentage":"0.5","hidden":0,"maintenance":false},
  {"name":"Bitcoin testnet","cid":"BTC_TEST","currency":"BTC","rate_usd":null,"hidden":"1","maintenance":1,"listed_since":1700000000}
]`

describe("currencies.list", () => {
  let gateway: FakeGateway
  beforeEach(async () => {
    gateway = await FakeGateway.start()
  })
  afterEach(async () => {
    await gateway.close()
  })

  it("sends GET /currencies with only the api_key when no fiat is given", async () => {
    gateway.on("/currencies", success("[]"))
    await gateway.client().currencies.list()
    expect(gateway.requests.map((request) => [request.method, request.path, request.rawQuery])).toEqual([
      ["GET", "/api/v1/currencies", `api_key=${TEST_API_KEY}`],
    ])
  })

  it("sends GET /currencies/{fiat} when a fiat is given", async () => {
    gateway.on("/currencies/EUR", success("[]"))
    await gateway.client().currencies.list("EUR")
    expect(gateway.requests.map((request) => request.path)).toEqual(["/api/v1/currencies/EUR"])
  })

  it("parses every rate exactly, from strings and JSON numbers", async () => {
    gateway.on("/currencies", success(CURRENCIES))
    const [btc] = await gateway.client().currencies.list()
    expect(btc?.rate_usd?.toFixed()).toBe("123456789.123456789012")
    expect(btc?.price_usd?.toFixed()).toBe("0.00000001")
    expect(btc?.fiat_rate?.toFixed()).toBe("123456789.123456789012")
    expect(btc?.min_sum_in?.toFixed()).toBe("0.00000001")
    expect(btc?.rate_usd).toBeInstanceOf(Decimal)
  })

  it("keeps the text fields, reads hidden as an integer and maintenance as a boolean", async () => {
    gateway.on("/currencies", success(CURRENCIES))
    const [btc, test] = await gateway.client().currencies.list()
    expect(btc).toMatchObject({
      name: "Bitcoin",
      cid: "BTC",
      currency: "BTC",
      icon: "https://gateway.example/btc.svg",
      precision: "8",
      fiat: "EUR",
      invoice_commission_percentage: "0.5",
      hidden: 0,
      maintenance: false,
    })
    expect(test).toMatchObject({ cid: "BTC_TEST", currency: "BTC", rate_usd: null, hidden: 1, maintenance: true, listed_since: 1700000000 })
  })

  it("refuses an entry whose rate is not a decimal, naming it", async () => {
    gateway.on("/currencies", success('[{"cid":"BTC","rate_usd":"1,5"}]'))
    const error = await rejectionOf(gateway.client().currencies.list())
    expect((error as GatewayResponseError).field).toBe("data[0].rate_usd")
  })

  it("refuses a data that is not an array", async () => {
    gateway.on("/currencies", success('{"cid":"BTC"}'))
    const error = await rejectionOf(gateway.client().currencies.list())
    expect((error as GatewayResponseError).field).toBe("data")
  })

  it("422 on the fiat path (unsupported fiat) is a GatewayUnprocessableEntityError", async () => {
    gateway.on("/currencies/XYZ", failure(422, { name: "Unprocessable entity", message: "Unsupported currency attribute value", code: 105 }))
    expect(await rejectionOf(gateway.client().currencies.list("XYZ"))).toBeInstanceOf(GatewayUnprocessableEntityError)
  })

  it("500 is a GatewayServerError", async () => {
    gateway.on("/currencies", failure(500, { message: "Internal server error", code: 108 }))
    expect(await rejectionOf(gateway.client({ maxRetries: 0 }).currencies.list())).toBeInstanceOf(GatewayServerError)
  })
})

describe("balances.retrieve", () => {
  let gateway: FakeGateway
  beforeEach(async () => {
    gateway = await FakeGateway.start()
  })
  afterEach(async () => {
    await gateway.close()
  })

  it("sends GET /balances/{psys_cid} with the api_key", async () => {
    gateway.on("/balances/USDT_TRX", success('{"psys_cid":"USDT_TRX","currency":"USDT","balance":"1"}'))
    await gateway.client().balances.retrieve("USDT_TRX")
    expect(gateway.requests.map((request) => [request.method, request.path, request.rawQuery])).toEqual([
      ["GET", "/api/v1/balances/USDT_TRX", `api_key=${TEST_API_KEY}`],
    ])
  })

  it.each([
    ["a string", '"0.00000001"', "0.00000001"],
    ["a JSON number", "0.00000001", "0.00000001"],
    ["a long string", '"123456789.123456789012"', "123456789.123456789012"],
    ["a long JSON number", "123456789.123456789012", "123456789.123456789012"],
  ])("parses a balance sent as %s exactly", async (_label, balance, expected) => {
    gateway.on("/balances/BTC", success(`{"currency":"BTC","balance":${balance}}`))
    const result = await gateway.client().balances.retrieve("BTC")
    expect(result.balance.toFixed()).toBe(expected)
    expect(result.currency).toBe("BTC")
    expect(result.psys_cid).toBeUndefined()
  })

  it("refuses a missing balance", async () => {
    gateway.on("/balances/BTC", success('{"currency":"BTC"}'))
    expect((await rejectionOf(gateway.client().balances.retrieve("BTC"))) as GatewayResponseError).toMatchObject({ field: "data.balance" })
  })

  it("422 code 105 (unsupported currency) is a GatewayUnprocessableEntityError", async () => {
    gateway.on("/balances/XXX", failure(422, { name: "Unprocessable entity", message: "Unsupported currency attribute value: psys_cid", code: 105 }))
    const error = await rejectionOf(gateway.client().balances.retrieve("XXX"))
    expect(error).toBeInstanceOf(GatewayUnprocessableEntityError)
    expect((error as GatewayUnprocessableEntityError).code).toBe(GatewayErrorCode.UNSUPPORTED_CURRENCY)
  })

  it("500 is a GatewayServerError", async () => {
    gateway.on("/balances/BTC", failure(500, { message: "Internal server error", code: 108 }))
    expect(await rejectionOf(gateway.client({ maxRetries: 0 }).balances.retrieve("BTC"))).toBeInstanceOf(GatewayServerError)
  })
})
