import { orderNumberBase, orderNumberFor, orderNumberPlan, type ExistingInvoice } from "../order-number"
import { topUpOrderNumber } from "../top-up"

const invoice = (overrides: Partial<ExistingInvoice>): ExistingInvoice => ({
  order_number: "cart_1",
  attempt: 1,
  source_amount: "10.5",
  source_currency: "EUR",
  session_status: "pending",
  ...overrides,
})

describe("orderNumberPlan", () => {
  it("uses the cart id for the first invoice", () => {
    expect(orderNumberPlan("cart_1", [], "10.5", "eur")).toEqual({ kind: "new", orderNumber: "cart_1", attempt: 1 })
  })

  it("reuses the invoice of an equal amount written differently", () => {
    const existing = invoice({ source_amount: "10.50" })
    expect(orderNumberPlan("cart_1", [existing], "10.5", "EUR")).toEqual({ kind: "reuse", invoice: existing })
  })

  it("gives a different amount the next deterministic number", () => {
    expect(orderNumberPlan("cart_1", [invoice({})], "11", "EUR")).toEqual({ kind: "new", orderNumber: "cart_1-2", attempt: 2 })
  })

  it("gives a different currency a new number", () => {
    expect(orderNumberPlan("cart_1", [invoice({})], "10.5", "USD")).toMatchObject({ kind: "new", orderNumber: "cart_1-2" })
  })

  it("counts past every earlier attempt", () => {
    const existing = [invoice({}), invoice({ order_number: "cart_1-2", attempt: 2, source_amount: "12" })]
    expect(orderNumberPlan("cart_1", existing, "13", "EUR")).toEqual({ kind: "new", orderNumber: "cart_1-3", attempt: 3 })
  })

  it("gives another coin a new number, so a storefront's changed coin gets a new invoice", () => {
    expect(orderNumberPlan("cart_1", [invoice({ psys_cid: "BTC" })], "10.5", "EUR", "LTC")).toEqual({ kind: "new", orderNumber: "cart_1-2", attempt: 2 })
  })

  it("reuses the invoice of the same coin", () => {
    const existing = invoice({ psys_cid: "BTC" })
    expect(orderNumberPlan("cart_1", [existing], "10.5", "EUR", "BTC")).toEqual({ kind: "reuse", invoice: existing })
  })

  it("reuses a reserved invoice whose creation never answered, whatever the coin", () => {
    const existing = invoice({ psys_cid: null })
    expect(orderNumberPlan("cart_1", [existing], "10.5", "EUR", "LTC")).toEqual({ kind: "reuse", invoice: existing })
  })

  it("does not reuse an invoice the gateway says expired, even before its session was moved", () => {
    expect(orderNumberPlan("cart_1", [invoice({ gateway_status: "expired" })], "10.5", "EUR")).toEqual({ kind: "new", orderNumber: "cart_1-2", attempt: 2 })
  })

  it("does not reuse an invoice that can no longer be paid", () => {
    expect(orderNumberPlan("cart_1", [invoice({ session_status: "canceled" })], "10.5", "EUR")).toMatchObject({
      kind: "new",
      orderNumber: "cart_1-2",
    })
  })

  it("reuses the latest payable invoice when the amount comes back", () => {
    const existing = [invoice({}), invoice({ order_number: "cart_1-2", attempt: 2, source_amount: "12" })]
    expect(orderNumberPlan("cart_1", existing, "10.5", "EUR")).toEqual({ kind: "reuse", invoice: existing[0] })
  })
})

describe("orderNumberBase", () => {
  it("gives the cart or payment collection of every order number we make: attempts and top-ups", () => {
    for (const base of ["cart_01JABC", "pay_col_01JABC"]) {
      for (const attempt of [1, 2, 11]) {
        const orderNumber = orderNumberFor(base, attempt)
        expect([orderNumber, topUpOrderNumber(orderNumber, 1), topUpOrderNumber(orderNumber, 3)].map(orderNumberBase)).toEqual([base, base, base])
      }
    }
  })
})
