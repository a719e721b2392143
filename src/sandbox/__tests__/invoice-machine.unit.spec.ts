import { Dec, figures } from "../index"
import { invoiceInput, makeCore, shop } from "./helpers"

// The rules under test: docs/gateway-readings.md#invoice-lifecycle.
describe("invoice state machine", () => {
  it("a created invoice is new and owes its total", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput())
    expect(invoice.status).toBe("new")
    expect(figures(invoice, core.requireCoin("BTC", "x")).pendingAmount.toFixed()).toBe(invoice.invoice_total_sum)
  })

  it("an unconfirmed payment makes it pending", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput())
    core.pay(invoice, { amount: null, confirmations: 0, error: false })
    expect(invoice.status).toBe("pending")
  })

  it("pending_amount is what is still due after a part payment", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput({ amount: new Dec("0.01") }))
    core.pay(invoice, { amount: new Dec("0.004"), confirmations: 0, error: false })
    expect(figures(invoice, core.requireCoin("BTC", "x")).pendingAmount.toFixed()).toBe("0.006")
  })

  it("confirmations arriving on the full amount complete it", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput())
    core.pay(invoice, { amount: null, confirmations: 0, error: false })
    core.confirm(invoice, null)
    expect(invoice.status).toBe("completed")
  })

  it("a confirmed payment above the total is a mismatch", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput())
    core.pay(invoice, { amount: new Dec(invoice.invoice_total_sum).plus("0.001"), confirmations: null, error: false })
    expect(invoice.status).toBe("mismatch")
  })

  it("a coin with an internal transfer passes through pending internal", async () => {
    const core = makeCore({ internalTransferSeconds: 60 })
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput({ psys_cid: "USDT_TRX", amount: new Dec("25") }))
    core.pay(invoice, { amount: null, confirmations: null, error: false })
    expect(invoice.status).toBe("pending internal")
  })

  it("pending internal ends in completed once the transfer time has passed", async () => {
    const core = makeCore({ internalTransferSeconds: 60 })
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput({ psys_cid: "USDT_TRX", amount: new Dec("25") }))
    core.pay(invoice, { amount: null, confirmations: null, error: false })
    core.advanceClock(61)
    expect(invoice.status).toBe("completed")
  })

  it("an invoice with nothing received is cancelled at expiry", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput({ expire_min: 30 }))
    core.advanceClock(30 * 60)
    expect(invoice.status).toBe("cancelled")
  })

  it("an invoice is still new one second before expiry", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput({ expire_min: 30 }))
    core.advanceClock(30 * 60 - 1)
    expect(invoice.status).toBe("new")
  })

  it("a part-paid invoice is expired at expiry, amount received kept", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput({ amount: new Dec("0.01") }))
    core.pay(invoice, { amount: new Dec("0.003"), confirmations: null, error: false })
    core.advanceClock(600 * 60)
    expect([invoice.status, figures(invoice, core.requireCoin("BTC", "x")).received.toFixed()]).toEqual(["expired", "0.003"])
  })

  it("the default expiry is 600 minutes", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput())
    expect(invoice.expire_at - invoice.created_at).toBe(600 * 60_000)
  })

  it("a fully paid but unconfirmed invoice does not expire: it waits for confirmations", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput({ expire_min: 10 }))
    core.pay(invoice, { amount: null, confirmations: 0, error: false })
    core.advanceClock(3600)
    expect(invoice.status).toBe("pending")
  })

  it("a network error moves the invoice to error", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput())
    core.pay(invoice, { amount: null, confirmations: null, error: true })
    expect(invoice.status).toBe("error")
  })

  it("a completed invoice refuses a payment without an amount: nothing is due", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput())
    core.pay(invoice, { amount: null, confirmations: null, error: false })
    expect(() => core.pay(invoice, { amount: null, confirmations: null, error: false })).toThrow(/amount/)
  })

  it("completion credits the shop balance with the confirmed amount minus the commission", async () => {
    const core = makeCore()
    const s = shop(core, false)
    const before = core.balance(s, "BTC")
    const { invoice } = await core.createInvoice(s, invoiceInput({ amount: new Dec("0.01") }))
    core.pay(invoice, { amount: null, confirmations: null, error: false })
    expect(core.balance(s, "BTC").minus(before).toFixed()).toBe(invoice.invoice_sum)
  })
})
