import { callbackAmountsByInvoice } from "../invoice-chain"

describe("callbackAmountsByInvoice", () => {
  it("takes the received and expected amounts of the latest callback per invoice", () => {
    const amounts = callbackAmountsByInvoice([
      { txn_id: "t1", fields: { amount: "0.1", invoice_total_sum: "1" }, created_at: "2026-01-01T00:00:00Z" },
      { txn_id: "t1", fields: { amount: "0.9", invoice_total_sum: "1" }, created_at: "2026-01-01T00:01:00Z" },
    ])
    expect(amounts.get("t1")?.received?.toFixed()).toBe("0.9")
    expect(amounts.get("t1")?.expected?.toFixed()).toBe("1")
  })

  it("ignores amounts that are not plain decimals", () => {
    const amounts = callbackAmountsByInvoice([{ txn_id: "t1", fields: { amount: "1e3", invoice_total_sum: 5 }, created_at: new Date() }])
    expect(amounts.get("t1")).toEqual({ received: undefined, expected: undefined })
  })

  it("skips callbacks without a txn_id", () => {
    expect(callbackAmountsByInvoice([{ txn_id: null, fields: { amount: "1" }, created_at: new Date() }]).size).toBe(0)
  })
})
