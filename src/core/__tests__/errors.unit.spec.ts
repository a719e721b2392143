import { MedusaError } from "@medusajs/framework/utils"
import { GatewayApiError, GatewayConnectionError, GatewayTimeoutError } from "../../gateway"
import { toMedusaError } from "../errors"

describe("toMedusaError", () => {
  it("keeps the gateway error as the cause", () => {
    const original = GatewayApiError.from(500, { code: 108, message: "Internal server error" })
    const translated = toMedusaError(original, "Creating the crypto invoice")
    expect(translated).toBeInstanceOf(MedusaError)
    expect(translated.cause).toBe(original)
  })

  it("says the gateway failed for a 5xx", () => {
    const translated = toMedusaError(GatewayApiError.from(500, { code: 108, message: "x" }), "Creating the crypto invoice")
    expect(translated.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(translated.message).toMatch(/^Creating the crypto invoice: the crypto gateway failed; try again later/)
  })

  it("names the apiKey option for a 401", () => {
    expect(toMedusaError(GatewayApiError.from(401, { message: "no" }), "Checking").message).toMatch(/check the provider's apiKey option/)
  })

  it("treats a 422 as invalid data", () => {
    expect(toMedusaError(GatewayApiError.from(422, { message: "bad" }), "Creating").type).toBe(MedusaError.Types.INVALID_DATA)
  })

  it("says a timeout may be retried", () => {
    expect(toMedusaError(new GatewayTimeoutError("GET /invoices/new: no answer within 5 ms", 5, "ETIMEDOUT"), "Creating").message).toMatch(
      /did not answer in time; try again/
    )
  })

  it("says an unreachable gateway cannot be reached", () => {
    expect(toMedusaError(new GatewayConnectionError("refused", "ECONNREFUSED"), "Creating").message).toMatch(/cannot be reached/)
  })

  it("passes a MedusaError through unchanged", () => {
    const error = new MedusaError(MedusaError.Types.NOT_ALLOWED, "no")
    expect(toMedusaError(error, "Creating")).toBe(error)
  })
})
