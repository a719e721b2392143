import {
  Decimal,
  GatewayAuthenticationError,
  GatewayBadRequestError,
  GatewayErrorCode,
  GatewayOutcomeUnknownError,
  GatewayParameterError,
  GatewayResponseError,
  GatewayServerError,
  GatewayTimeoutError,
  GatewayUnprocessableEntityError,
} from ".."
import { failure, FakeGateway, rejectionOf, success, TEST_API_KEY } from "./helpers/fake-gateway"

const WHITE_LABEL_INVOICE = `{
  "txn_id": "INV-1",
  "invoice_url": "https://gateway.example/invoice/INV-1",
  "amount": 0.00000001,
  "pending_amount": "123456789.123456789012",
  "wallet_hash": "bc1qexample",
  "psys_cid": "BTC_TEST",
  "currency": "BTC",
  "status": "new",
  "source_currency": "USD",
  "source_rate": 123456789.123456789012,
  "expire_utc": 1700000000000,
  "expected_confirmations": "3",
  "qr_code": "data:image/png;base64,AAAA",
  "verify_hash": "abc",
  "invoice_commission": "0.00000001",
  "invoice_sum": "0.1",
  "invoice_total_sum": 0.10000001,
  "brand_new_field": 12.5
}`

describe("invoices.create", () => {
  let gateway: FakeGateway
  beforeEach(async () => {
    gateway = await FakeGateway.start()
  })
  afterEach(async () => {
    await gateway.close()
  })

  describe("request", () => {
    it("sends GET /api/v1/invoices/new with every parameter under its spec name and the api_key", async () => {
      gateway.on("/invoices/new", success('{"txn_id":"INV-1","invoice_url":"u"}'))
      await gateway.client().invoices.create({
        order_name: "Order #1 — café",
        order_number: "1001",
        currency: "BTC",
        amount: new Decimal("0.00000001"),
        source_currency: "EUR",
        source_amount: "123456789.123456789012",
        allowed_psys_cids: ["BTC", "ETH", "USDT_TRX"],
        description: "two mugs & a plate",
        callback_url: "https://shop.example/hook?json=true",
        success_callback_url: "https://shop.example/ok",
        fail_callback_url: "https://shop.example/fail",
        success_invoice_url: "https://shop.example/thanks",
        fail_invoice_url: "https://shop.example/sorry",
        email: "buyer@example.com",
        language: "en_US",
        plugin: "medusa-payment-crypto",
        version: "0.1.0",
        expire_min: 30,
        return_existing: true,
      })
      const [request] = gateway.requestsTo("/invoices/new")
      expect(request?.method).toBe("GET")
      expect(Object.fromEntries(request?.query ?? [])).toEqual({
        order_name: "Order #1 — café",
        order_number: "1001",
        currency: "BTC",
        amount: "0.00000001",
        source_currency: "EUR",
        source_amount: "123456789.123456789012",
        allowed_psys_cids: "BTC,ETH,USDT_TRX",
        description: "two mugs & a plate",
        callback_url: "https://shop.example/hook?json=true",
        success_callback_url: "https://shop.example/ok",
        fail_callback_url: "https://shop.example/fail",
        success_invoice_url: "https://shop.example/thanks",
        fail_invoice_url: "https://shop.example/sorry",
        email: "buyer@example.com",
        language: "en_US",
        plugin: "medusa-payment-crypto",
        version: "0.1.0",
        expire_min: "30",
        return_existing: "1",
        api_key: TEST_API_KEY,
      })
    })

    it("sends only the parameters given, and no return_existing when false", async () => {
      gateway.on("/invoices/new", success('{"txn_id":"INV-1"}'))
      await gateway.client().invoices.create({ order_name: "A", order_number: "1", return_existing: false })
      expect(gateway.requestsTo("/invoices/new")[0]?.rawQuery).toBe(`order_name=A&order_number=1&api_key=${TEST_API_KEY}`)
    })

    it("refuses a money amount given as a JS number, sending nothing", async () => {
      const amount: unknown = 0.1
      const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "1", amount: amount as string }))
      expect(error).toBeInstanceOf(GatewayParameterError)
      expect((error as GatewayParameterError).param).toBe("amount")
      expect(gateway.requests).toHaveLength(0)
    })

    it("refuses a source_amount with an exponent", async () => {
      const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "1", source_amount: "1e3" }))
      expect((error as GatewayParameterError).param).toBe("source_amount")
    })

    it("refuses a missing order_number", async () => {
      const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "" }))
      expect((error as GatewayParameterError).param).toBe("order_number")
    })

    it("refuses an expire_min that is not a positive integer", async () => {
      const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "1", expire_min: 1.5 }))
      expect((error as GatewayParameterError).param).toBe("expire_min")
    })
  })

  describe("response", () => {
    it("returns the base result of a shop without white-label", async () => {
      gateway.on("/invoices/new", success('{"txn_id":"INV-1","invoice_url":"https://gateway.example/i/INV-1","invoice_total_sum":"10.5"}'))
      const invoice = await gateway.client().invoices.create({ order_name: "A", order_number: "1" })
      expect(invoice.txn_id).toBe("INV-1")
      expect(invoice.invoice_url).toBe("https://gateway.example/i/INV-1")
      expect(invoice.invoice_total_sum).toEqual(new Decimal("10.5"))
      expect(invoice.amount).toBeUndefined()
    })

    it("parses every decimal of a white-label result exactly, from JSON numbers and strings", async () => {
      gateway.on("/invoices/new", success(WHITE_LABEL_INVOICE))
      const invoice = await gateway.client().invoices.create({ order_name: "A", order_number: "1" })
      expect(invoice.amount).toBeInstanceOf(Decimal)
      expect(invoice.amount?.toFixed()).toBe("0.00000001")
      expect(invoice.pending_amount?.toFixed()).toBe("123456789.123456789012")
      expect(invoice.source_rate?.toFixed()).toBe("123456789.123456789012")
      expect(invoice.invoice_commission?.toFixed()).toBe("0.00000001")
      expect(invoice.invoice_sum?.toFixed()).toBe("0.1")
      expect(invoice.invoice_total_sum?.toFixed()).toBe("0.10000001")
    })

    it("normalizes expire_utc sent in milliseconds to seconds", async () => {
      gateway.on("/invoices/new", success(WHITE_LABEL_INVOICE))
      const invoice = await gateway.client().invoices.create({ order_name: "A", order_number: "1" })
      expect(invoice.expire_utc).toBe(1700000000)
    })

    it("keeps expire_utc sent in seconds", async () => {
      gateway.on("/invoices/new", success('{"txn_id":"INV-1","expire_utc":1700000000}'))
      const invoice = await gateway.client().invoices.create({ order_name: "A", order_number: "1" })
      expect(invoice.expire_utc).toBe(1700000000)
    })

    it("keeps the strings of a white-label result and unknown fields", async () => {
      gateway.on("/invoices/new", success(WHITE_LABEL_INVOICE))
      const invoice = await gateway.client().invoices.create({ order_name: "A", order_number: "1" })
      expect(invoice).toMatchObject({
        wallet_hash: "bc1qexample",
        psys_cid: "BTC_TEST",
        currency: "BTC",
        status: "new",
        source_currency: "USD",
        expected_confirmations: "3",
        qr_code: "data:image/png;base64,AAAA",
        verify_hash: "abc",
      })
      expect(invoice.brand_new_field).toEqual(new Decimal("12.5"))
    })

    it("passes an unknown status through as a string", async () => {
      gateway.on("/invoices/new", success('{"txn_id":"INV-1","status":"under review"}'))
      const invoice = await gateway.client().invoices.create({ order_name: "A", order_number: "1" })
      expect(invoice.status).toBe("under review")
    })

    it("keeps a null decimal as null", async () => {
      gateway.on("/invoices/new", success('{"txn_id":"INV-1","invoice_commission":null}'))
      const invoice = await gateway.client().invoices.create({ order_name: "A", order_number: "1" })
      expect(invoice.invoice_commission).toBeNull()
    })

    it("refuses a decimal field that is not a decimal, naming it", async () => {
      gateway.on("/invoices/new", success('{"txn_id":"INV-1","amount":"NaN"}'))
      const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "1" }))
      expect(error).toBeInstanceOf(GatewayResponseError)
      expect((error as GatewayResponseError).field).toBe("data.amount")
      expect((error as Error).message).toBe('Gateway response field data.amount: expected a decimal (string or number), got string "NaN"')
    })

    it("refuses a result without txn_id", async () => {
      gateway.on("/invoices/new", success('{"invoice_url":"u"}'))
      const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "1" }))
      expect((error as GatewayResponseError).field).toBe("data.txn_id")
    })
  })

  describe("errors (spec §7: 400, 401, 422, 500)", () => {
    it("400 code 103 (missing order_number) is a GatewayBadRequestError", async () => {
      gateway.on("/invoices/new", failure(400, { name: "Bad Request", message: "Missing required attribute: order_number", code: 103 }))
      const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "1" }))
      expect(error).toBeInstanceOf(GatewayBadRequestError)
      expect(error).toMatchObject({ status: 400, code: GatewayErrorCode.MISSING_REQUIRED_ATTRIBUTE, name: "Bad Request" })
    })

    it("401 is a GatewayAuthenticationError", async () => {
      gateway.on("/invoices/new", failure(401, { name: "Unauthorized", message: "Wrong api key", code: 401 }))
      const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "1" }))
      expect(error).toBeInstanceOf(GatewayAuthenticationError)
    })

    it("422 (duplicate order_number) is a GatewayUnprocessableEntityError with fieldErrors", async () => {
      gateway.on(
        "/invoices/new",
        failure(422, { name: "Unprocessable entity", message: '{"order_number":["Order number \\"1\\" has already been taken."]}', code: 0 })
      )
      const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "1" }))
      expect(error).toBeInstanceOf(GatewayUnprocessableEntityError)
      expect((error as GatewayUnprocessableEntityError).fieldErrors).toEqual({ order_number: ['Order number "1" has already been taken.'] })
    })

    it("500 code 108 is a GatewayServerError, not retried without return_existing", async () => {
      gateway.on("/invoices/new", failure(500, { message: "Internal server error, contact support", code: 108 }))
      const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "1" }))
      expect(error).toBeInstanceOf(GatewayServerError)
      expect((error as GatewayServerError).code).toBe(GatewayErrorCode.INTERNAL_SERVER_ERROR)
      expect(gateway.requestsTo("/invoices/new")).toHaveLength(1)
    })

    it("a timeout without return_existing is an outcome-unknown error advising return_existing", async () => {
      gateway.on("/invoices/new", { hang: true })
      const error = await rejectionOf(gateway.client({ timeoutMs: 100 }).invoices.create({ order_name: "A", order_number: "77" }))
      expect(error).toBeInstanceOf(GatewayOutcomeUnknownError)
      const unknown = error as GatewayOutcomeUnknownError
      expect(unknown.operation).toBe("invoices.create")
      expect(unknown.cause).toBeInstanceOf(GatewayTimeoutError)
      expect(unknown.message).toContain("return_existing: true (order_number 77)")
      expect(gateway.requestsTo("/invoices/new")).toHaveLength(1)
    })
  })
})
