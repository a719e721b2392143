import { Dec, figures, type Invoice, type SandboxCore } from "../index"
import { invoiceInput, makeCore, shop } from "./helpers"

// The rules under test: docs/gateway-readings.md#money-after-the-end-of-an-invoice.
const pay = (core: SandboxCore, invoice: Invoice, amount: string | null, confirmations: number | null = null) =>
  core.pay(invoice, { amount: amount === null ? null : new Dec(amount), confirmations, error: false })

const received = (core: SandboxCore, invoice: Invoice) => figures(invoice, core.requireCoin(invoice.psys_cid, "x")).received.toFixed()
const btc = (core: SandboxCore, whiteLabel = false) => core.balance(shop(core, whiteLabel), "BTC")

describe("money after the end of an invoice", () => {
  it("a payment to a cancelled invoice makes it expired with the amount received", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput({ expire_min: 30 }))
    core.advanceClock(30 * 60)
    pay(core, invoice, "0.004")
    expect([invoice.status, received(core, invoice)]).toEqual(["expired", "0.004"])
  })

  it("a full payment to a cancelled invoice still ends in expired", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput({ expire_min: 30 }))
    core.advanceClock(30 * 60)
    pay(core, invoice, null)
    expect([invoice.status, received(core, invoice)]).toEqual(["expired", invoice.invoice_total_sum])
  })

  it("confirmed money sent to a cancelled invoice is credited minus the commission", async () => {
    const core = makeCore()
    const before = btc(core)
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput({ expire_min: 30 }))
    core.advanceClock(30 * 60)
    pay(core, invoice, null)
    expect(btc(core).minus(before).toFixed()).toBe(new Dec(invoice.invoice_total_sum).minus(invoice.invoice_commission).toFixed())
  })

  it("more confirmed money on a completed invoice makes it a mismatch", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput())
    pay(core, invoice, null)
    pay(core, invoice, "0.001")
    expect([invoice.status, received(core, invoice)]).toEqual(["mismatch", "0.011"])
  })

  it("unconfirmed money on a completed invoice keeps it completed until it confirms, then mismatch", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput())
    pay(core, invoice, null)
    pay(core, invoice, "0.001", 0)
    const seen = invoice.status
    core.confirm(invoice, null)
    expect([seen, invoice.status]).toEqual(["completed", "mismatch"])
  })

  it("a second payment to a completed invoice credits only its own amount", async () => {
    const core = makeCore()
    const before = btc(core)
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput())
    pay(core, invoice, null)
    const afterFirst = btc(core)
    pay(core, invoice, "0.001")
    expect([afterFirst.minus(before).toFixed(), btc(core).minus(afterFirst).toFixed()]).toEqual([
      new Dec("0.01").minus(invoice.invoice_commission).toFixed(),
      "0.001",
    ])
  })

  it("a payment to an expired invoice keeps it expired and credits the increment", async () => {
    const core = makeCore()
    const before = btc(core)
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput({ expire_min: 30 }))
    pay(core, invoice, "0.004")
    core.advanceClock(30 * 60)
    const atExpiry = btc(core)
    pay(core, invoice, "0.006")
    expect([invoice.status, received(core, invoice), btc(core).minus(before).toFixed()]).toEqual([
      "expired",
      "0.01",
      new Dec("0.01").minus(invoice.invoice_commission).toFixed(),
    ])
    expect(atExpiry.gt(before)).toBe(true)
  })

  it("a payment to a mismatch invoice stays mismatch and credits the increment", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput())
    pay(core, invoice, "0.011")
    const after = btc(core)
    pay(core, invoice, "0.002")
    expect([invoice.status, btc(core).minus(after).toFixed()]).toEqual(["mismatch", "0.002"])
  })

  it("a payment to a cancelled duplicate stays cancelled duplicate and is credited", async () => {
    const core = makeCore()
    const { invoice: first } = await core.createInvoice(shop(core, false), invoiceInput())
    const child = await core.switchInvoice(first, "LTC")
    pay(core, child, null)
    const before = btc(core)
    pay(core, first, null)
    expect([first.status, received(core, first), btc(core).minus(before).toFixed()]).toEqual([
      "cancelled duplicate",
      first.invoice_total_sum,
      new Dec(first.invoice_total_sum).minus(first.invoice_commission).toFixed(),
    ])
  })

  it("a payment to a pending internal invoice is recorded and ends in mismatch after the transfer", async () => {
    const core = makeCore({ internalTransferSeconds: 60 })
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput({ psys_cid: "USDT_TRX", amount: new Dec("25") }))
    pay(core, invoice, null)
    const seen = invoice.status
    pay(core, invoice, "1")
    core.advanceClock(61)
    expect([seen, invoice.status]).toEqual(["pending internal", "mismatch"])
  })

  it("a payment to an invoice in error stays in error, recorded, not credited", async () => {
    const core = makeCore()
    const before = btc(core)
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput())
    core.pay(invoice, { amount: null, confirmations: null, error: true })
    pay(core, invoice, "0.001")
    expect([invoice.status, received(core, invoice), btc(core).toFixed()]).toEqual(["error", "0.011", before.toFixed()])
  })

  it("a late payment sends a callback with the new received amount", async () => {
    const core = makeCore()
    const s = shop(core, false)
    const { invoice } = await core.createInvoice(s, invoiceInput({ expire_min: 30, callback_url: "http://127.0.0.1:9/cb?json=true" }))
    core.advanceClock(30 * 60)
    pay(core, invoice, "0.004")
    const last = core.deliveries(s, invoice.txn_id).at(-1)
    core.dispatcher.close()
    expect([last?.fields.status, last?.fields.amount]).toEqual(["expired", "0.004"])
  })
})

describe("a payment the network rejects (error)", () => {
  it("is recorded on the invoice and ends it in error", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput())
    core.pay(invoice, { amount: new Dec("0.004"), confirmations: null, error: true })
    expect([invoice.status, received(core, invoice)]).toEqual(["error", "0.004"])
  })
})

describe("settle: the gateway finishes an invoice in error", () => {
  it("completes it when the amount due arrived, crediting it once", async () => {
    const core = makeCore()
    const before = btc(core)
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput())
    core.pay(invoice, { amount: null, confirmations: null, error: true })
    const inError = btc(core)
    core.settle(invoice)
    expect([invoice.status, inError.toFixed(), btc(core).minus(before).toFixed()]).toEqual([
      "completed",
      before.toFixed(),
      new Dec("0.01").minus(invoice.invoice_commission).toFixed(),
    ])
  })

  it("makes it a mismatch when more than due arrived", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput())
    core.pay(invoice, { amount: new Dec("0.012"), confirmations: 0, error: true })
    core.settle(invoice)
    expect(invoice.status).toBe("mismatch")
  })

  it("makes it expired when less than due arrived", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput())
    core.pay(invoice, { amount: new Dec("0.004"), confirmations: null, error: true })
    core.settle(invoice)
    expect([invoice.status, received(core, invoice)]).toEqual(["expired", "0.004"])
  })

  it("cancels the other invoices of the chain when it completes", async () => {
    const core = makeCore()
    const { invoice: first } = await core.createInvoice(shop(core, false), invoiceInput())
    const child = await core.switchInvoice(first, "LTC")
    core.pay(child, { amount: null, confirmations: null, error: true })
    core.settle(child)
    expect([child.status, first.status]).toEqual(["completed", "cancelled duplicate"])
  })

  it("is refused with 105 on txn_id for an invoice not in error", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput())
    pay(core, invoice, null)
    expect(() => core.settle(invoice)).toThrow(/txn_id/)
  })
})

describe("an error when nothing is due", () => {
  it("ends a fully seen invoice in error without recording another payment", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput())
    pay(core, invoice, null, 0)
    core.pay(invoice, { amount: null, confirmations: null, error: true })
    expect([invoice.status, received(core, invoice)]).toEqual(["error", invoice.invoice_total_sum])
  })
})
