import { GatewayApiError, GatewayParameterError } from "../../gateway"
import { explainGatewayRejection, toMedusaError } from "../errors"

describe("gateway rejections in the merchant's words", () => {
  it("says insufficient funds (116) and names the amount", () => {
    const error = GatewayApiError.from(422, { code: 116, name: "Unprocessable entity", message: "balance: insufficient funds on balance" })
    expect(explainGatewayRejection(error)).toMatchObject({ field: "amount", message: expect.stringContaining("insufficient funds") })
  })

  it("says the fee cannot be estimated (115) and names the fee plan", () => {
    const error = GatewayApiError.from(400, { code: 115, message: "fee: cannot be estimated, check the balance" })
    expect(explainGatewayRejection(error)).toMatchObject({ field: "fee_plan", message: expect.stringContaining("network fee cannot be estimated") })
  })

  it("says the server's IP is not on the allow-list for a 403", () => {
    const error = GatewayApiError.from(403, { code: 403, name: "Forbidden", message: "Request IP 10.0.0.7 is not allowed for this shop." })
    expect(explainGatewayRejection(error)).toMatchObject({ field: "server_ip", message: expect.stringContaining("allow-list") })
  })

  it("reads a 404 without a body (exchange API) as the allow-list or a disabled exchange API", () => {
    const error = GatewayApiError.from(404, {})
    expect(explainGatewayRejection(error)?.message).toContain("enable the exchange API")
  })

  it("says which address is invalid and names the address field", () => {
    const error = GatewayApiError.from(422, { code: 105, fieldErrors: { to: ['"0xabc" is not a valid ETH address.'] } })
    expect(explainGatewayRejection(error)).toEqual({
      type: "invalid_data",
      field: "address",
      message: 'the address is not valid for this coin: "0xabc" is not a valid ETH address.',
    })
  })

  it("says an unsupported coin (105 on currency) and names psys_cid", () => {
    const error = GatewayApiError.from(422, { code: 105, fieldErrors: { currency: ["Unsupported currency attribute value."] } })
    expect(explainGatewayRejection(error)).toMatchObject({ field: "psys_cid", message: expect.stringContaining("does not support this coin") })
  })

  it("names the field of a parameter the client refused before sending", () => {
    expect(explainGatewayRejection(new GatewayParameterError("amount", "must be a plain decimal"))).toMatchObject({ field: "amount" })
  })

  it("keeps the gateway error as the cause of the MedusaError", () => {
    const error = GatewayApiError.from(422, { code: 116, message: "balance: insufficient funds on balance" })
    const translated = toMedusaError(error, "Withdrawal")
    expect(translated.message).toBe(
      "Withdrawal: insufficient funds on the balance of this coin. The amount, the network fee and the commission are all debited: lower the amount or top up the balance (field: amount)"
    )
    expect(translated.cause).toBe(error)
  })
})
