import { consumeCryptoRefundAuthorization } from "../refund-authorization"

describe("crypto refund authorization", () => {
  const authorization = { withdrawal_id: "cwdr_1", amount: "4.25", psys_cid: "BTC", coin_amount: "0.0001", rate: "42500", address: "bc1q", tx_urls: [] }

  it("accepts the refund of exactly the authorized amount and records it", () => {
    const data = consumeCryptoRefundAuthorization({ txn_id: "INV-1", crypto_refund_authorization: authorization }, "4.250", "ref_1")
    expect(data).toEqual({ txn_id: "INV-1", crypto_refunds: [{ ...authorization, refund_id: "ref_1" }] })
  })

  it("refuses a plain refund without an authorization", () => {
    expect(consumeCryptoRefundAuthorization({ txn_id: "INV-1" }, "4.25", "ref_1")).toBeUndefined()
  })

  it("refuses a refund of another amount than the authorized one", () => {
    expect(consumeCryptoRefundAuthorization({ crypto_refund_authorization: authorization }, "5", "ref_1")).toBeUndefined()
  })

  it("refuses an authorization whose amount is not a decimal string", () => {
    expect(consumeCryptoRefundAuthorization({ crypto_refund_authorization: { ...authorization, amount: "4,25" } }, "4.25", "ref_1")).toBeUndefined()
  })
})
