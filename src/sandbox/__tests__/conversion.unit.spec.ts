import { Dec, cryptoForFiat, priceInFiat, splitCommission } from "../index"
import { invoiceInput, makeCore, shop } from "./helpers"

describe("conversion and commission", () => {
  it("the price of a coin in a fiat is rate_usd times the fiat rate, exactly", () => {
    const core = makeCore()
    expect(priceInFiat(core.requireCoin("BTC", "x"), "0.92").toFixed()).toBe("59110.3404")
  })

  it("a fiat amount converts to crypto rounded UP to the coin precision", () => {
    expect(cryptoForFiat(new Dec("100"), new Dec("59110.3404"), 8).toFixed()).toBe("0.00169176")
  })

  it("a conversion that divides exactly is not rounded", () => {
    expect(cryptoForFiat(new Dec("50"), new Dec("25"), 8).toFixed()).toBe("2")
  })

  it("when the shop pays the commission, invoice_total_sum is the amount and invoice_sum the amount minus commission", () => {
    const split = splitCommission(new Dec("1"), "1.5", 8, "shop")
    expect([split.commission.toFixed(), split.invoiceSum.toFixed(), split.invoiceTotalSum.toFixed()]).toEqual(["0.015", "0.985", "1"])
  })

  it("when the client pays the commission, invoice_sum is the amount and invoice_total_sum adds the commission", () => {
    const split = splitCommission(new Dec("1"), "1.5", 8, "client")
    expect([split.commission.toFixed(), split.invoiceSum.toFixed(), split.invoiceTotalSum.toFixed()]).toEqual(["0.015", "1", "1.015"])
  })

  it("a commission below the coin precision is rounded half-up to it", () => {
    expect(splitCommission(new Dec("0.00000033"), "1.5", 8, "shop").commission.toFixed()).toBe("0")
  })

  it("an invoice created from a fiat amount records the fiat, its rate and the converted amount", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(
      shop(core, true),
      invoiceInput({ amount: null, source_currency: "EUR", source_amount: new Dec("100") })
    )
    expect([invoice.source_currency, invoice.source_amount, invoice.source_rate, invoice.amount]).toEqual([
      "EUR",
      "100",
      "59110.3404",
      "0.00169176",
    ])
  })

  it("an invoice without source_currency is priced in USD", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput({ amount: new Dec("1") }))
    expect([invoice.source_currency, invoice.source_amount]).toEqual(["USD", "64250.37"])
  })

  it("an order number is unique per shop", async () => {
    const core = makeCore()
    const s = shop(core, true)
    await core.createInvoice(s, invoiceInput({ order_number: "dup" }))
    await expect(core.createInvoice(s, invoiceInput({ order_number: "dup" }))).rejects.toMatchObject({ code: 105 })
  })

  it("return_existing returns the invoice of the order number", async () => {
    const core = makeCore()
    const s = shop(core, true)
    const first = await core.createInvoice(s, invoiceInput({ order_number: "again" }))
    const second = await core.createInvoice(s, invoiceInput({ order_number: "again", return_existing: true }))
    expect(second).toEqual({ invoice: first.invoice, existing: true })
  })

  it("the same order number in two shops gives two invoices", async () => {
    const core = makeCore()
    const a = await core.createInvoice(shop(core, true), invoiceInput({ order_number: "shared" }))
    const b = await core.createInvoice(shop(core, false), invoiceInput({ order_number: "shared" }))
    expect(a.invoice.txn_id).not.toBe(b.invoice.txn_id)
  })
})
