import { invoiceAttentions, type InvoiceBeforeSync } from "../attention"
import type { AssessmentFields } from "../../payment/invoice-chain"

const before: InvoiceBeforeSync = {
  id: "cinv_1",
  provider_id: "pp_crypto_crypto",
  cart_id: "cart_1",
  order_id: null,
  order_number: "cart_1",
  session_status: "pending",
  refund_due_amount: null,
}

const seen = (overrides: Partial<AssessmentFields>): AssessmentFields => ({
  kind: "paid",
  session_status: "captured",
  gateway_status: "completed",
  active_txn_id: "INV-1",
  received_amount: "0.2",
  expected_amount: "0.2",
  overpaid_amount: null,
  underpaid_amount: null,
  refund_due_amount: null,
  capture_received: false,
  psys_cid: "LTC",
  currency: "LTC",
  siblings_with_money: [],
  ...overrides,
})

const applied = { outcome: "applied", session_status: "captured" as const, order_id: "order_1" }
const kinds = (items: ReturnType<typeof invoiceAttentions>) => items.map((item) => [item.kind, item.amount, item.psys_cid])

describe("invoiceAttentions", () => {
  it("raises nothing for an invoice paid exactly", () => {
    expect(invoiceAttentions(before, seen({}), applied)).toEqual([])
  })

  it("raises an overpayment with the surplus in the paid coin", () => {
    expect(kinds(invoiceAttentions(before, seen({ gateway_status: "mismatch", received_amount: "0.25", overpaid_amount: "0.05" }), applied))).toEqual([["overpaid", "0.05", "LTC"]])
  })

  it("raises the shortfall of an underpayment accepted within the tolerance", () => {
    const items = invoiceAttentions(before, seen({ gateway_status: "expired", received_amount: "0.19", underpaid_amount: "0.01" }), applied)
    expect(kinds(items)).toEqual([["underpaid", "0.01", "LTC"]])
    expect(items[0].evidence).toMatchObject({ within_tolerance: true })
  })

  it("raises what an underpayment beyond the tolerance received, to send back", () => {
    const failed = seen({ kind: "failed", session_status: "canceled", gateway_status: "expired", received_amount: "0.1", refund_due_amount: "0.1" })
    const items = invoiceAttentions(before, failed, { outcome: "applied", session_status: "canceled", order_id: null })
    expect(kinds(items)).toEqual([["underpaid", "0.1", "LTC"]])
    expect(items[0].evidence).toMatchObject({ within_tolerance: false })
  })

  it("raises money on an invoice canceled before as a late payment, counting only what came after the refund due", () => {
    const canceled = { ...before, session_status: "canceled" as const, refund_due_amount: "0.05" }
    const items = invoiceAttentions(canceled, seen({ received_amount: "0.25" }), { outcome: "ignored_backward", session_status: "canceled", order_id: null })
    expect(kinds(items)).toEqual([["late_payment", "0.2", "LTC"]])
  })

  it("raises money on an invoice the cart abandoned or a new amount superseded", () => {
    expect(kinds(invoiceAttentions(before, seen({}), { outcome: "session_gone", session_status: "captured", order_id: null }))).toEqual([["abandoned_invoice_payment", "0.2", "LTC"]])
    expect(kinds(invoiceAttentions(before, seen({}), { outcome: "superseded", session_status: "pending", order_id: null }))).toEqual([["abandoned_invoice_payment", "0.2", "LTC"]])
  })

  it("raises an invoice in error with what it received", () => {
    expect(kinds(invoiceAttentions(before, seen({ kind: "error", session_status: "error", gateway_status: "error", received_amount: null }), { outcome: "applied", session_status: "error", order_id: null }))).toEqual([
      ["invoice_error", null, "LTC"],
    ])
  })

  it("raises money on another invoice of the switch chain in that invoice's coin, one item per invoice", () => {
    const sibling = { txn_id: "INV-0", status: "cancelled duplicate", kind: "duplicate" as const, received: "0.0001", expected: "0.0003", psys_cid: "BTC", currency: "BTC" }
    const items = invoiceAttentions(before, seen({ siblings_with_money: [sibling] }), applied)
    expect(kinds(items)).toEqual([["duplicate_invoice_payment", "0.0001", "BTC"]])
    expect(items[0].subject_id).toBe("cinv_1:INV-0")
  })
})
