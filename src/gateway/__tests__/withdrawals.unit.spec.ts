import {
  Decimal,
  GatewayAuthenticationError,
  GatewayBadRequestError,
  GatewayConnectionError,
  GatewayErrorCode,
  GatewayOutcomeUnknownError,
  GatewayParameterError,
  GatewayServerError,
  GatewayTimeoutError,
  GatewayUnprocessableEntityError,
  type WithdrawParams,
} from ".."
import { closedPortUrl, failure, FakeGateway, rejectionOf, success, TEST_API_KEY } from "./helpers/fake-gateway"

const CASH_OUT_RESULT = `{
  "type": "cash_out",
  "status": "completed",
  "psys_cid": "BTC",
  "currency": "BTC",
  "source_currency": "USD",
  "source_rate": 123456789.123456789012,
  "fee": "0.00000001",
  "wallet_hash": "bc1qdest",
  "params": {"fee": {"conf_target": 6, "plan": "normal", "value": "0.00000001"}},
  "created_at_utc": 1700000000,
  "amount": 0.00000001,
  "tx_url": "https://explorer.example/tx/9",
  "id": "OP-9"
}`

const MASS_RESULT = `{
  "type": "mass_cash_out",
  "status": "completed",
  "psys_cid": "ETH",
  "currency": "ETH",
  "source_rate": "2000.5",
  "fee": "0.001",
  "sendmany": {"0xA": "0.00000001", "0xB": 123456789.123456789012},
  "params": {"fee": {"plan": "priority", "value": "0.001", "gasLimit": "21000", "gasPrice": "30"}},
  "created_at_utc": 1700000000999,
  "amount": "123456789.123456789022",
  "tx_url": null,
  "id": "OP-10"
}`

describe("operations.withdraw", () => {
  let gateway: FakeGateway
  beforeEach(async () => {
    gateway = await FakeGateway.start()
  })
  afterEach(async () => {
    await gateway.close()
  })

  describe("request", () => {
    it("sends a cash_out with one address, one amount and the fee plan", async () => {
      gateway.on("/operations/withdraw", success(CASH_OUT_RESULT, 201))
      await gateway.client().operations.withdraw({
        currency: "BTC",
        type: "cash_out",
        to: "bc1qdest",
        amount: new Decimal("0.00000001"),
        feePlan: "normal",
      })
      const [request] = gateway.requestsTo("/operations/withdraw")
      expect(request?.method).toBe("GET")
      expect(Object.fromEntries(request?.query ?? [])).toEqual({
        currency: "BTC",
        type: "cash_out",
        to: "bc1qdest",
        amount: "0.00000001",
        feePlan: "normal",
        api_key: TEST_API_KEY,
      })
    })

    it("joins the addresses and amounts of a mass_cash_out with commas, in order", async () => {
      gateway.on("/operations/withdraw", success(MASS_RESULT, 201))
      await gateway.client().operations.withdraw({
        currency: "ETH",
        type: "mass_cash_out",
        to: ["0xA", "0xB"],
        amount: ["0.00000001", new Decimal("123456789.123456789012")],
        feePlan: "priority",
      })
      const [request] = gateway.requestsTo("/operations/withdraw")
      expect(request?.query.get("to")).toBe("0xA,0xB")
      expect(request?.query.get("amount")).toBe("0.00000001,123456789.123456789012")
      expect(request?.query.get("type")).toBe("mass_cash_out")
    })

    it.each([
      ["different numbers of addresses and amounts", { type: "mass_cash_out", to: ["a", "b"], amount: ["1"] }, "amount"],
      ["no address", { type: "mass_cash_out", to: [], amount: [] }, "to"],
      ["two addresses for a cash_out", { type: "cash_out", to: ["a", "b"], amount: ["1", "2"] }, "to"],
      ["an address holding a comma", { type: "mass_cash_out", to: ["a,b", "c"], amount: ["1", "2"] }, "to[0]"],
      ["an amount with an exponent", { type: "cash_out", to: "a", amount: "1e-8" }, "amount[0]"],
      ["an unknown type", { type: "cash_in", to: "a", amount: "1" }, "type"],
      ["an unknown fee plan", { type: "cash_out", to: "a", amount: "1", feePlan: "fast" }, "feePlan"],
    ])("refuses %s without sending anything", async (_label, params, param) => {
      // The cast feeds deliberately invalid input through the typed surface.
      const error = await rejectionOf(gateway.client().operations.withdraw({ currency: "BTC", ...params } as WithdrawParams))
      expect(error).toBeInstanceOf(GatewayParameterError)
      expect((error as GatewayParameterError).param).toBe(param)
      expect(gateway.requests).toHaveLength(0)
    })
  })

  describe("response", () => {
    it("parses a cash_out result: decimals exact, tx_url an array", async () => {
      gateway.on("/operations/withdraw", success(CASH_OUT_RESULT, 201))
      const withdrawal = await gateway.client().operations.withdraw({ currency: "BTC", type: "cash_out", to: "bc1qdest", amount: "0.00000001" })
      expect(withdrawal.amount?.toFixed()).toBe("0.00000001")
      expect(withdrawal.fee?.toFixed()).toBe("0.00000001")
      expect(withdrawal.source_rate?.toFixed()).toBe("123456789.123456789012")
      expect(withdrawal.params?.fee?.value?.toFixed()).toBe("0.00000001")
      expect(withdrawal.tx_url).toEqual(["https://explorer.example/tx/9"])
      expect(withdrawal).toMatchObject({ id: "OP-9", type: "cash_out", status: "completed", wallet_hash: "bc1qdest", created_at_utc: 1700000000 })
    })

    it("parses a mass_cash_out result: sendmany amounts exact, timestamp in seconds, null tx_url empty", async () => {
      gateway.on("/operations/withdraw", success(MASS_RESULT, 201))
      const withdrawal = await gateway.client().operations.withdraw({ currency: "ETH", type: "mass_cash_out", to: ["0xA", "0xB"], amount: ["1", "2"] })
      expect(withdrawal.sendmany?.["0xA"]?.toFixed()).toBe("0.00000001")
      expect(withdrawal.sendmany?.["0xB"]?.toFixed()).toBe("123456789.123456789012")
      expect(withdrawal.amount?.toFixed()).toBe("123456789.123456789022")
      expect(withdrawal.params?.fee?.gasPrice?.toFixed()).toBe("30")
      expect(withdrawal.created_at_utc).toBe(1700000000)
      expect(withdrawal.tx_url).toEqual([])
    })
  })

  describe("errors (spec §7: 400, 401, 422, 500)", () => {
    const cashOut = { currency: "BTC", type: "cash_out", to: "bc1qdest", amount: "1" } as const

    it("400 code 115 (fee cannot be estimated) is a GatewayBadRequestError", async () => {
      gateway.on("/operations/withdraw", failure(400, { name: "Bad Request", message: "Fee: cannot be estimated, check the balance", code: 115 }))
      const error = await rejectionOf(gateway.client().operations.withdraw(cashOut))
      expect(error).toBeInstanceOf(GatewayBadRequestError)
      expect((error as GatewayBadRequestError).code).toBe(GatewayErrorCode.FEE_NOT_ESTIMABLE)
    })

    it("422 code 116 (insufficient funds) is a GatewayUnprocessableEntityError", async () => {
      gateway.on(
        "/operations/withdraw",
        failure(422, { name: "Unprocessable entity", message: '{"balance":"Insufficient funds on balance"}', code: 116 })
      )
      const error = await rejectionOf(gateway.client().operations.withdraw(cashOut))
      expect(error).toBeInstanceOf(GatewayUnprocessableEntityError)
      expect(error).toMatchObject({ code: GatewayErrorCode.INSUFFICIENT_FUNDS, fieldErrors: { balance: ["Insufficient funds on balance"] } })
    })

    it("401 is a GatewayAuthenticationError", async () => {
      gateway.on("/operations/withdraw", failure(401, { message: "Wrong api key", code: 401 }))
      expect(await rejectionOf(gateway.client().operations.withdraw(cashOut))).toBeInstanceOf(GatewayAuthenticationError)
    })

    it("500 is a GatewayServerError and is not retried", async () => {
      gateway.on("/operations/withdraw", failure(500, { message: "Internal server error", code: 108 }))
      expect(await rejectionOf(gateway.client().operations.withdraw(cashOut))).toBeInstanceOf(GatewayServerError)
      expect(gateway.requestsTo("/operations/withdraw")).toHaveLength(1)
    })

    it("a timeout is reported as outcome unknown, with the operation and what to check, after one attempt", async () => {
      gateway.on("/operations/withdraw", { hang: true })
      const error = await rejectionOf(gateway.client({ timeoutMs: 100 }).operations.withdraw(cashOut))
      expect(error).toBeInstanceOf(GatewayOutcomeUnknownError)
      const unknown = error as GatewayOutcomeUnknownError
      expect(unknown.outcomeUnknown).toBe(true)
      expect(unknown.operation).toBe("operations.withdraw")
      expect(unknown.params).toEqual({ currency: "BTC", type: "cash_out", to: "bc1qdest", amount: "1" })
      expect(unknown.cause).toBeInstanceOf(GatewayTimeoutError)
      expect(unknown.message).toBe(
        "operations.withdraw: outcome unknown (GET /api/v1/operations/withdraw: no answer within 100 ms). The gateway may have executed it; " +
          'it was not retried. Check operations.list({ type: "cash_out", currency: "BTC" }) for this withdrawal before retrying.'
      )
      expect(gateway.requestsTo("/operations/withdraw")).toHaveLength(1)
    })

    it("a connection reset after sending is reported as outcome unknown", async () => {
      gateway.on("/operations/withdraw", { reset: true })
      const error = await rejectionOf(gateway.client().operations.withdraw(cashOut))
      expect(error).toBeInstanceOf(GatewayOutcomeUnknownError)
      expect((error as GatewayOutcomeUnknownError).cause).toBeInstanceOf(GatewayConnectionError)
      expect(gateway.requestsTo("/operations/withdraw")).toHaveLength(1)
    })

    it("a refused connection (nothing was sent) is a plain GatewayConnectionError", async () => {
      const client = gateway.client({ baseUrl: await closedPortUrl() })
      const error = await rejectionOf(client.operations.withdraw(cashOut))
      expect(error).toBeInstanceOf(GatewayConnectionError)
      expect(error).not.toBeInstanceOf(GatewayOutcomeUnknownError)
      expect((error as GatewayConnectionError).code).toBe("ECONNREFUSED")
    })
  })
})

describe("operations estimates and fee plans", () => {
  let gateway: FakeGateway
  beforeEach(async () => {
    gateway = await FakeGateway.start()
  })
  afterEach(async () => {
    await gateway.close()
  })

  describe("commission", () => {
    it("sends GET /operations/commission/{psys_cid} with joined addresses and amounts", async () => {
      gateway.on("/operations/commission/USDT_TRX", success('{"commission":"0.1","fee":"1","plan":"normal"}'))
      await gateway.client().operations.commission("USDT_TRX", {
        addresses: ["TA", "TB"],
        amounts: ["0.00000001", new Decimal("123456789.123456789012")],
        type: "mass_cash_out",
        feePlan: "priority",
      })
      expect(Object.fromEntries(gateway.requestsTo("/operations/commission/USDT_TRX")[0]?.query ?? [])).toEqual({
        addresses: "TA,TB",
        amounts: "0.00000001,123456789.123456789012",
        type: "mass_cash_out",
        feePlan: "priority",
        api_key: TEST_API_KEY,
      })
    })

    it("parses the richer variant: commission, fee and every plan exact", async () => {
      gateway.on(
        "/operations/commission/ETH",
        success(
          '{"commission":0.00000001,"fee":"123456789.123456789012","plan":"normal","useWallet":"1","useWalletBalance":"0.5","plans":{"normal":{"gasLimit":"21000","gasPrice":"20.5","value":"0.00042"},"priority":{"gasLimit":"21000","gasPrice":30,"value":0.00063}}}'
        )
      )
      const estimate = await gateway.client().operations.commission("ETH", { addresses: "0xA", amounts: "1" })
      expect(estimate.commission.toFixed()).toBe("0.00000001")
      expect(estimate.fee?.toFixed()).toBe("123456789.123456789012")
      expect(estimate.plans?.normal?.gasPrice?.toFixed()).toBe("20.5")
      expect(estimate.plans?.priority?.value?.toFixed()).toBe("0.00063")
      expect(estimate).toMatchObject({ plan: "normal", useWallet: "1", useWalletBalance: "0.5" })
    })

    it("refuses different numbers of addresses and amounts", async () => {
      const error = await rejectionOf(gateway.client().operations.commission("BTC", { addresses: ["a", "b"], amounts: "1" }))
      expect((error as GatewayParameterError).param).toBe("amounts")
    })

    it("422 code 116 is a GatewayUnprocessableEntityError", async () => {
      gateway.on("/operations/commission/BTC", failure(422, { message: "Balance: insufficient funds on balance", code: 116 }))
      const error = await rejectionOf(gateway.client().operations.commission("BTC", { addresses: "a", amounts: "1" }))
      expect(error).toBeInstanceOf(GatewayUnprocessableEntityError)
      expect((error as GatewayUnprocessableEntityError).code).toBe(116)
    })

    it("500 is a GatewayServerError", async () => {
      gateway.on("/operations/commission/BTC", failure(500, { message: "Internal server error", code: 108 }))
      const error = await rejectionOf(gateway.client({ maxRetries: 0 }).operations.commission("BTC", { addresses: "a", amounts: "1" }))
      expect(error).toBeInstanceOf(GatewayServerError)
    })
  })

  describe("fee", () => {
    it("sends GET /operations/fee/{psys_cid} with addresses, amounts and feePlan", async () => {
      gateway.on("/operations/fee/BTC", success('{"fee":"0.0001","psys_cid":"BTC","currency":"BTC","plan":"normal"}'))
      await gateway.client().operations.fee("BTC", { addresses: "bc1q", amounts: "0.5", feePlan: "normal" })
      expect(Object.fromEntries(gateway.requestsTo("/operations/fee/BTC")[0]?.query ?? [])).toEqual({
        addresses: "bc1q",
        amounts: "0.5",
        feePlan: "normal",
        api_key: TEST_API_KEY,
      })
    })

    it.each([
      ["a string", '"0.00000001"', "0.00000001"],
      ["a JSON number", "0.00000001", "0.00000001"],
      ["a long string", '"123456789.123456789012"', "123456789.123456789012"],
      ["a long JSON number", "123456789.123456789012", "123456789.123456789012"],
    ])("parses a fee sent as %s exactly", async (_label, fee, expected) => {
      gateway.on("/operations/fee/BTC", success(`{"fee":${fee},"psys_cid":"BTC_TEST","currency":"BTC","plan":"normal"}`))
      const estimate = await gateway.client().operations.fee("BTC", { addresses: "bc1q", amounts: "0.5" })
      expect(estimate.fee.toFixed()).toBe(expected)
      expect(estimate).toMatchObject({ psys_cid: "BTC_TEST", currency: "BTC", plan: "normal" })
    })

    it("422 code 116 is a GatewayUnprocessableEntityError", async () => {
      gateway.on("/operations/fee/BTC", failure(422, { message: "Balance: insufficient funds on balance", code: 116 }))
      const error = await rejectionOf(gateway.client().operations.fee("BTC", { addresses: "a", amounts: "1" }))
      expect(error).toBeInstanceOf(GatewayUnprocessableEntityError)
    })

    it("500 is a GatewayServerError", async () => {
      gateway.on("/operations/fee/BTC", failure(500, { message: "Internal server error", code: 108 }))
      const error = await rejectionOf(gateway.client({ maxRetries: 0 }).operations.fee("BTC", { addresses: "a", amounts: "1" }))
      expect(error).toBeInstanceOf(GatewayServerError)
    })
  })

  describe("feePlans", () => {
    it("sends GET /operations/fee-plan/{psys_cid} with only the api_key", async () => {
      gateway.on("/operations/fee-plan/BTC", success('{"normal":{"conf_target":6,"value":0.00001},"priority":{"conf_target":2,"value":0.00002}}'))
      await gateway.client().operations.feePlans("BTC")
      expect(gateway.requestsTo("/operations/fee-plan/BTC")[0]?.rawQuery).toBe(`api_key=${TEST_API_KEY}`)
    })

    it("parses conf_target plans with values sent as JSON numbers exactly", async () => {
      gateway.on("/operations/fee-plan/BTC", success('{"normal":{"conf_target":6,"value":0.00000001},"priority":{"conf_target":2,"value":123456789.123456789012}}'))
      const plans = await gateway.client().operations.feePlans("BTC")
      expect(plans.normal?.conf_target).toBe(6)
      expect(plans.normal?.value?.toFixed()).toBe("0.00000001")
      expect(plans.priority?.value?.toFixed()).toBe("123456789.123456789012")
    })

    it("parses gas plans: gasLimit text, gasPrice and value decimals", async () => {
      gateway.on("/operations/fee-plan/ETH", success('{"normal":{"gasLimit":"21000","gasPrice":"20.5","value":"0.0004305"}}'))
      const plans = await gateway.client().operations.feePlans("ETH")
      expect(plans.normal?.gasLimit).toBe("21000")
      expect(plans.normal?.gasPrice?.toFixed()).toBe("20.5")
      expect(plans.normal?.value?.toFixed()).toBe("0.0004305")
    })

    it("keeps a plan the spec does not name", async () => {
      gateway.on("/operations/fee-plan/BTC", success('{"normal":{"value":"1"},"economy":{"value":"0.5"}}'))
      const plans = await gateway.client().operations.feePlans("BTC")
      expect(plans.economy?.value?.toFixed()).toBe("0.5")
    })

    it("422 code 105 (unsupported currency) is a GatewayUnprocessableEntityError", async () => {
      gateway.on("/operations/fee-plan/XXX", failure(422, { name: "Unprocessable entity", message: "Unsupported currency attribute value", code: 105 }))
      const error = await rejectionOf(gateway.client().operations.feePlans("XXX"))
      expect(error).toBeInstanceOf(GatewayUnprocessableEntityError)
      expect((error as GatewayUnprocessableEntityError).code).toBe(GatewayErrorCode.UNSUPPORTED_CURRENCY)
    })

    it("500 is a GatewayServerError", async () => {
      gateway.on("/operations/fee-plan/BTC", failure(500, { message: "Internal server error", code: 108 }))
      expect(await rejectionOf(gateway.client({ maxRetries: 0 }).operations.feePlans("BTC"))).toBeInstanceOf(GatewayServerError)
    })
  })
})
