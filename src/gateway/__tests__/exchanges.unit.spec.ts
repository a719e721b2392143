import {
  Decimal,
  GatewayAuthenticationError,
  GatewayConnectionError,
  GatewayNotFoundError,
  GatewayOutcomeUnknownError,
  GatewayParameterError,
  GatewayUnprocessableEntityError,
} from ".."
import { failure, FakeGateway, rejectionOf, success, TEST_API_KEY } from "./helpers/fake-gateway"

describe("exchanges", () => {
  let gateway: FakeGateway
  beforeEach(async () => {
    gateway = await FakeGateway.start()
  })
  afterEach(async () => {
    await gateway.close()
  })

  describe("currencies", () => {
    it("sends GET /exchanges/list with only the api_key", async () => {
      gateway.on("/exchanges/list", success('["BTC","ETH"]'))
      expect(await gateway.client().exchanges.currencies()).toEqual(["BTC", "ETH"])
      expect(gateway.requests.map((request) => [request.method, request.path, request.rawQuery])).toEqual([
        ["GET", "/api/v1/exchanges/list", `api_key=${TEST_API_KEY}`],
      ])
    })

    it("keeps an undocumented body, numbers lossless", async () => {
      gateway.on("/exchanges/list", success('[{"currency":"BTC","min_amount":"0.00000001","max":123456789.123456789012}]'))
      const [entry] = (await gateway.client().exchanges.currencies()) as Array<Record<string, unknown>>
      expect(entry?.min_amount).toEqual(new Decimal("0.00000001"))
      expect(entry?.max).toEqual(new Decimal("123456789.123456789012"))
    })

    it("404 with no body (exchange API disabled or IP not whitelisted) is a GatewayNotFoundError saying why", async () => {
      gateway.on("/exchanges/list", { status: 404 })
      const error = await rejectionOf(gateway.client().exchanges.currencies())
      expect(error).toBeInstanceOf(GatewayNotFoundError)
      expect((error as GatewayNotFoundError).message).toBe(
        "Gateway answered HTTP 404 with an empty body (the exchange API is disabled for the shop or this IP is not whitelisted (spec §4.11))"
      )
      expect((error as GatewayNotFoundError).code).toBeUndefined()
    })

    it("401 is a GatewayAuthenticationError", async () => {
      gateway.on("/exchanges/list", failure(401, { message: "Wrong api key", code: 401 }))
      expect(await rejectionOf(gateway.client().exchanges.currencies())).toBeInstanceOf(GatewayAuthenticationError)
    })
  })

  describe("estimate", () => {
    it("sends GET /exchanges/estimate with every parameter", async () => {
      gateway.on("/exchanges/estimate", success('{"to_amount":"0.5"}'))
      await gateway.client().exchanges.estimate({
        from_currency: "BTC",
        to_currency: "ETH",
        from_amount: new Decimal("0.00000001"),
        to_amount: "123456789.123456789012",
        amount_currency: "BTC",
      })
      expect(Object.fromEntries(gateway.requestsTo("/exchanges/estimate")[0]?.query ?? [])).toEqual({
        from_currency: "BTC",
        to_currency: "ETH",
        from_amount: "0.00000001",
        to_amount: "123456789.123456789012",
        amount_currency: "BTC",
        api_key: TEST_API_KEY,
      })
    })

    it("turns money-named decimal strings and JSON numbers into exact Decimals, keeps other text", async () => {
      gateway.on(
        "/exchanges/estimate",
        success('{"from_amount":"0.00000001","to_amount":123456789.123456789012,"rate":"1.5","fee":"0.1","from_currency":"BTC","note":"12.5"}')
      )
      const estimate = await gateway.client().exchanges.estimate({ from_currency: "BTC", to_currency: "ETH", from_amount: "1" })
      expect(estimate).toEqual({
        from_amount: new Decimal("0.00000001"),
        to_amount: new Decimal("123456789.123456789012"),
        rate: new Decimal("1.5"),
        fee: new Decimal("0.1"),
        from_currency: "BTC",
        note: "12.5",
      })
    })

    it("refuses a missing to_currency", async () => {
      const params: unknown = { from_currency: "BTC" }
      const error = await rejectionOf(gateway.client().exchanges.estimate(params as { from_currency: string; to_currency: string }))
      expect((error as GatewayParameterError).param).toBe("to_currency")
    })

    it("401 is a GatewayAuthenticationError", async () => {
      gateway.on("/exchanges/estimate", failure(401, { message: "Wrong api key", code: 401 }))
      expect(await rejectionOf(gateway.client().exchanges.estimate({ from_currency: "BTC", to_currency: "ETH" }))).toBeInstanceOf(
        GatewayAuthenticationError
      )
    })

    it("422 is a GatewayUnprocessableEntityError with fieldErrors", async () => {
      gateway.on("/exchanges/estimate", failure(422, { message: '{"from_amount":["From amount is too small."]}', code: 0 }))
      const error = await rejectionOf(gateway.client().exchanges.estimate({ from_currency: "BTC", to_currency: "ETH", from_amount: "0.1" }))
      expect(error).toBeInstanceOf(GatewayUnprocessableEntityError)
      expect((error as GatewayUnprocessableEntityError).fieldErrors).toEqual({ from_amount: ["From amount is too small."] })
    })
  })

  describe("create", () => {
    const params = { from_currency: "BTC", to_currency: "ETH", to_address: "0xdest", from_amount: "0.5" }

    it("sends GET /exchanges/new with every parameter", async () => {
      gateway.on("/exchanges/new", success('{"id":"EX-1","status":"new"}', 201))
      await gateway.client().exchanges.create({ ...params, amount_currency: "BTC" })
      expect(Object.fromEntries(gateway.requestsTo("/exchanges/new")[0]?.query ?? [])).toEqual({
        from_currency: "BTC",
        to_currency: "ETH",
        from_amount: "0.5",
        amount_currency: "BTC",
        to_address: "0xdest",
        api_key: TEST_API_KEY,
      })
    })

    it("returns the exchange with a numeric id kept as its text and *_utc in seconds", async () => {
      gateway.on("/exchanges/new", success('{"id":12345678901234567890,"status":"waiting","created_at_utc":1700000000500,"to_amount":"0.00000001"}', 201))
      const exchange = await gateway.client().exchanges.create(params)
      expect(exchange.id).toBe("12345678901234567890")
      expect(exchange.status).toBe("waiting")
      expect(exchange.created_at_utc).toBe(1700000000)
      expect(exchange.to_amount).toEqual(new Decimal("0.00000001"))
    })

    it("refuses a missing to_address", async () => {
      const error = await rejectionOf(gateway.client().exchanges.create({ ...params, to_address: "" }))
      expect((error as GatewayParameterError).param).toBe("to_address")
    })

    it("401 is a GatewayAuthenticationError", async () => {
      gateway.on("/exchanges/new", failure(401, { message: "Wrong api key", code: 401 }))
      expect(await rejectionOf(gateway.client().exchanges.create(params))).toBeInstanceOf(GatewayAuthenticationError)
    })

    it("422 is a GatewayUnprocessableEntityError", async () => {
      gateway.on("/exchanges/new", failure(422, { message: '{"to_address":"To address is invalid."}', code: 0 }))
      const error = await rejectionOf(gateway.client().exchanges.create(params))
      expect((error as GatewayUnprocessableEntityError).fieldErrors).toEqual({ to_address: ["To address is invalid."] })
    })

    it("a timeout is reported as outcome unknown after one attempt", async () => {
      gateway.on("/exchanges/new", { hang: true })
      const error = await rejectionOf(gateway.client({ timeoutMs: 100 }).exchanges.create(params))
      expect(error).toBeInstanceOf(GatewayOutcomeUnknownError)
      expect((error as GatewayOutcomeUnknownError).operation).toBe("exchanges.create")
      expect((error as GatewayOutcomeUnknownError).message).toContain("Check your exchanges (exchanges.retrieve) and balances")
      expect(gateway.requestsTo("/exchanges/new")).toHaveLength(1)
    })

    it("a connection reset is reported as outcome unknown after one attempt", async () => {
      gateway.on("/exchanges/new", { reset: true })
      const error = await rejectionOf(gateway.client().exchanges.create(params))
      expect((error as GatewayOutcomeUnknownError).cause).toBeInstanceOf(GatewayConnectionError)
      expect(gateway.requestsTo("/exchanges/new")).toHaveLength(1)
    })
  })

  describe("retrieve", () => {
    it("sends GET /exchanges/{id} with the api_key", async () => {
      gateway.on("/exchanges/EX-1", success('{"id":"EX-1","status":"finished"}'))
      const exchange = await gateway.client().exchanges.retrieve("EX-1")
      expect(exchange).toEqual({ id: "EX-1", status: "finished" })
      expect(gateway.requests[0]?.rawQuery).toBe(`api_key=${TEST_API_KEY}`)
    })

    it("encodes the id as one segment", async () => {
      gateway.on("/exchanges/..%2Flist", success('{"id":"x"}'))
      await gateway.client().exchanges.retrieve("../list")
      expect(gateway.requests[0]?.path).toBe("/api/v1/exchanges/..%2Flist")
    })

    it("404 (exchange not found) is a GatewayNotFoundError", async () => {
      gateway.on("/exchanges/NOPE", failure(404, { name: "Not Found", message: "Exchange not found", code: 111 }))
      expect(await rejectionOf(gateway.client().exchanges.retrieve("NOPE"))).toBeInstanceOf(GatewayNotFoundError)
    })
  })
})
