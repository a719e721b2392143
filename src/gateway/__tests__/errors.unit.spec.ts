import {
  GatewayApiError,
  GatewayAuthenticationError,
  GatewayBadRequestError,
  GatewayError,
  GatewayErrorCode,
  GatewayNotFoundError,
  GatewayResponseError,
  GatewayServerError,
  GatewayUnprocessableEntityError,
} from ".."
import { failure, FakeGateway, rejectionOf } from "./helpers/fake-gateway"

describe("GatewayApiError.from", () => {
  it.each([
    [400, GatewayBadRequestError],
    [401, GatewayAuthenticationError],
    [404, GatewayNotFoundError],
    [422, GatewayUnprocessableEntityError],
    [500, GatewayServerError],
    [502, GatewayServerError],
    [503, GatewayServerError],
  ])("builds the subclass for HTTP %i", (status, type) => {
    const error = GatewayApiError.from(status, { message: "m", code: 1 })
    expect(error).toBeInstanceOf(type)
    expect(error).toBeInstanceOf(GatewayApiError)
    expect(error).toBeInstanceOf(GatewayError)
    expect(error.status).toBe(status)
  })

  it.each([402, 403, 409, 418, 429, 200, 302])("falls through to the base class for HTTP %i", (status) => {
    const error = GatewayApiError.from(status, { code: 999 })
    expect(error.constructor).toBe(GatewayApiError)
    expect(error.code).toBe(999)
  })

  it("uses the gateway's error name as name when there is one", () => {
    expect(GatewayApiError.from(404, { name: "Not Found", message: "x", code: 111 }).name).toBe("Not Found")
  })

  it("uses the class name as name when the gateway sent none (spec §7: name may be absent)", () => {
    expect(GatewayApiError.from(500, { message: "x", code: 108 }).name).toBe("GatewayServerError")
  })

  it("states the status, the code and the gateway message in its message", () => {
    const error = GatewayApiError.from(404, { message: "The specified resource does not exist", code: 111 })
    expect(error.message).toBe("Gateway answered HTTP 404 (code 111): The specified resource does not exist")
  })
})

describe("GatewayErrorCode", () => {
  it("names every code of spec §7", () => {
    expect(GatewayErrorCode).toEqual({
      MISSING_REQUIRED_ATTRIBUTE: 103,
      UNSUPPORTED_CURRENCY: 105,
      INTERNAL_SERVER_ERROR: 108,
      NOT_FOUND: 111,
      FEE_NOT_ESTIMABLE: 115,
      INSUFFICIENT_FUNDS: 116,
      WHITE_LABEL_DISABLED: 400,
      SHOP_NOT_FOUND: 401,
    })
  })
})

describe("error answers", () => {
  let gateway: FakeGateway
  beforeEach(async () => {
    gateway = await FakeGateway.start()
  })
  afterEach(async () => {
    await gateway.close()
  })

  it("decodes a JSON-encoded validation message into fieldErrors", async () => {
    gateway.on(
      "/invoices/new",
      failure(422, {
        name: "Unprocessable entity",
        message: JSON.stringify({ order_number: "Order number has already been taken.", amount: ["Amount is invalid.", "Amount too small."] }),
        code: 0,
      })
    )
    const error = await rejectionOf(gateway.client().invoices.create({ order_name: "A", order_number: "1" }))
    expect(error).toBeInstanceOf(GatewayUnprocessableEntityError)
    const apiError = error as GatewayUnprocessableEntityError
    expect(apiError.fieldErrors).toEqual({
      order_number: ["Order number has already been taken."],
      amount: ["Amount is invalid.", "Amount too small."],
    })
    expect(apiError.message).toBe(
      "Gateway answered HTTP 422 (code 0): order_number: Order number has already been taken.; amount: Amount is invalid. Amount too small."
    )
  })

  it("decodes a list of {field, message} into fieldErrors", async () => {
    gateway.on(
      "/invoices/new",
      failure(422, { message: JSON.stringify([{ field: "email", message: "Email is not valid." }]), code: 0 })
    )
    const error = (await rejectionOf(
      gateway.client().invoices.create({ order_name: "A", order_number: "1" })
    )) as GatewayApiError
    expect(error.fieldErrors).toEqual({ email: ["Email is not valid."] })
  })

  it("gives empty fieldErrors for a plain-text message", async () => {
    gateway.on("/balances/XXX", failure(422, { name: "Unprocessable entity", message: "Unsupported currency attribute value: psys_cid", code: 105 }))
    const error = (await rejectionOf(gateway.client().balances.retrieve("XXX"))) as GatewayApiError
    expect(error.fieldErrors).toEqual({})
    expect(error.gatewayMessage).toBe("Unsupported currency attribute value: psys_cid")
    expect(error.code).toBe(GatewayErrorCode.UNSUPPORTED_CURRENCY)
  })

  it("keeps an unknown error code as sent", async () => {
    gateway.on("/balances/BTC", failure(422, { message: "something new", code: 999 }))
    const error = (await rejectionOf(gateway.client().balances.retrieve("BTC"))) as GatewayApiError
    expect(error).toBeInstanceOf(GatewayUnprocessableEntityError)
    expect(error.code).toBe(999)
  })

  it("answers an unknown status with the base GatewayApiError", async () => {
    gateway.on("/balances/BTC", failure(418, { message: "teapot", code: 7 }))
    const error = await rejectionOf(gateway.client().balances.retrieve("BTC"))
    expect((error as GatewayApiError).constructor).toBe(GatewayApiError)
    expect((error as GatewayApiError).status).toBe(418)
  })

  it("answers a non-JSON error body with a GatewayApiError saying so", async () => {
    gateway.on("/balances/BTC", { status: 502, body: "<html>Bad Gateway</html>", contentType: "text/html" })
    const error = (await rejectionOf(gateway.client({ maxRetries: 0 }).balances.retrieve("BTC"))) as GatewayApiError
    expect(error).toBeInstanceOf(GatewayServerError)
    expect(error.message).toBe("Gateway answered HTTP 502 with a body that is not JSON (text/html, 24 bytes)")
    expect(error.code).toBeUndefined()
  })

  it("answers a JSON error body of an unexpected shape with a GatewayApiError saying so", async () => {
    gateway.on("/balances/BTC", { status: 400, body: "[1,2,3]" })
    const error = (await rejectionOf(gateway.client().balances.retrieve("BTC"))) as GatewayApiError
    expect(error).toBeInstanceOf(GatewayBadRequestError)
    expect(error.message).toBe("Gateway answered HTTP 400 with an unexpected JSON body")
  })

  it("reads an error without the envelope ({name, message, code, status})", async () => {
    gateway.on("/balances/BTC", { status: 401, body: '{"name":"Unauthorized","message":"Your request was made with invalid credentials.","code":0,"status":401}' })
    const error = (await rejectionOf(gateway.client().balances.retrieve("BTC"))) as GatewayApiError
    expect(error).toBeInstanceOf(GatewayAuthenticationError)
    expect(error.gatewayMessage).toBe("Your request was made with invalid credentials.")
  })

  it("treats a 200 with status:error as an API error", async () => {
    gateway.on("/balances/BTC", { status: 200, body: '{"status":"error","data":{"message":"nope","code":105}}' })
    const error = (await rejectionOf(gateway.client().balances.retrieve("BTC"))) as GatewayApiError
    expect(error.constructor).toBe(GatewayApiError)
    expect(error.code).toBe(105)
  })

  it.each([
    ["a body that is not JSON", "<html>ok</html>", /with a body that is not JSON/],
    ["no envelope", '{"balance":"1"}', /without the \{status, data\} envelope/],
    ["an unknown envelope status", '{"status":"weird","data":{}}', /envelope status "weird"/],
    ["a success envelope without data", '{"status":"success"}', /success envelope without data/],
    ["an array", "[]", /without the \{status, data\} envelope/],
  ])("treats a 200 with %s as a GatewayResponseError", async (_label, body, message) => {
    gateway.on("/balances/BTC", { status: 200, body })
    const error = await rejectionOf(gateway.client().balances.retrieve("BTC"))
    expect(error).toBeInstanceOf(GatewayResponseError)
    expect((error as Error).message).toMatch(message)
  })
})
