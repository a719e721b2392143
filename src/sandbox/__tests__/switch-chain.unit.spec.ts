import { invoiceInput, makeCore, shop } from "./helpers"
import { Dec } from "../index"

async function chainOfTwo() {
  const core = makeCore()
  const { invoice: first } = await core.createInvoice(
    shop(core, true),
    invoiceInput({ amount: null, source_currency: "EUR", source_amount: new Dec("50") })
  )
  const second = await core.switchInvoice(first, "LTC")
  return { core, first, second }
}

describe("currency switch chain (spec §2.1, §3)", () => {
  it("switching creates a new invoice whose parent_id is the first one", async () => {
    const { first, second } = await chainOfTwo()
    expect([second.parent_id, second.psys_cid]).toEqual([first.txn_id, "LTC"])
  })

  it("the first invoice lists the new one in child_ids", async () => {
    const { first, second } = await chainOfTwo()
    expect(first.child_ids).toEqual([second.txn_id])
  })

  it("every invoice of the chain carries the first invoice's txn_id as switch_id", async () => {
    const { first, second } = await chainOfTwo()
    expect([first.switch_id, second.switch_id]).toEqual([first.txn_id, first.txn_id])
  })

  it("the new invoice converts the same fiat amount into the new coin", async () => {
    const { second } = await chainOfTwo()
    expect([second.source_amount, second.source_currency, second.amount]).toEqual(["50", "EUR", "0.65384777"])
  })

  it("paying the new invoice cancels the first as cancelled duplicate", async () => {
    const { core, first, second } = await chainOfTwo()
    core.pay(second, { amount: null, confirmations: null, error: false })
    expect([second.status, first.status]).toEqual(["completed", "cancelled duplicate"])
  })

  it("paying the first invoice cancels the switched one as cancelled duplicate", async () => {
    const { core, first, second } = await chainOfTwo()
    core.pay(first, { amount: null, confirmations: null, error: false })
    expect([first.status, second.status]).toEqual(["completed", "cancelled duplicate"])
  })

  it("switching back to a coin of the chain reuses its unpaid invoice", async () => {
    const { core, first, second } = await chainOfTwo()
    expect((await core.switchInvoice(second, "BTC")).txn_id).toBe(first.txn_id)
  })

  it("a third coin makes a second child of the first invoice", async () => {
    const { core, first, second } = await chainOfTwo()
    const third = await core.switchInvoice(second, "ETH")
    expect([third.parent_id, first.child_ids]).toEqual([first.txn_id, [second.txn_id, third.txn_id]])
  })

  it("the switched invoice keeps the chain's expiry", async () => {
    const { first, second } = await chainOfTwo()
    expect(second.expire_at).toBe(first.expire_at)
  })

  it("an invoice with a payment seen cannot switch", async () => {
    const { core, first } = await chainOfTwo()
    core.pay(first, { amount: new Dec("0.0001"), confirmations: 0, error: false })
    await expect(core.switchInvoice(first, "ETH")).rejects.toMatchObject({ code: 105 })
  })

  it("a coin outside allowed_psys_cids cannot be switched to", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, true), invoiceInput({ allowed_psys_cids: ["BTC", "LTC"] }))
    await expect(core.switchInvoice(invoice, "ETH")).rejects.toMatchObject({ code: 105 })
  })
})
