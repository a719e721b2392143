import {
  abandonedPaymentText,
  englishLabels,
  resolveCryptoReturn,
  toCryptoPaymentState,
  type CryptoAbandonedPayment,
  type CryptoInvoicePaymentStatus,
  type CryptoPaymentStatusResponse,
} from "../index"
import { statusWith } from "./fixtures"

/** Money on the cart's earlier invoice (84.90 EUR) after the cart changed: what the store route answers. */
const abandoned: CryptoAbandonedPayment = {
  order_number: "cart_1",
  attempt: 1,
  txn_id: "txn_old",
  status: "completed",
  psys_cid: "LTC",
  currency: "LTC",
  network: "LTC",
  source_currency: "EUR",
  source_amount: "84.9",
  amount: "1.11022381",
  received_amount: "1.11022381",
  reason: "cart_changed",
  next_step: "refund",
}

describe("money on an invoice the cart no longer uses", () => {
  it("no current invoice after the cart changed is cart_changed and final, never paid, even with that invoice paid in full", () => {
    const state = toCryptoPaymentState(statusWith(null, { cart_changed: true, abandoned_payments: [abandoned] }))
    expect(state).toMatchObject({ status: "cart_changed", final: true, abandonedPayments: [abandoned] })
  })

  it("never completes the cart for it: the return page goes back to checkout", () => {
    const response = statusWith(null, { cart_changed: true, abandoned_payments: [abandoned], payment_collection_status: "not_paid" })
    expect(resolveCryptoReturn(response)).toEqual({ kind: "failed", reason: "cart_changed" })
  })

  it("a new invoice for the new total is what the cart's status follows; the earlier money is listed apart", () => {
    const state = toCryptoPaymentState(statusWith({ status: "new", txn_id: "txn_new" }, { abandoned_payments: [abandoned] }))
    expect(state).toMatchObject({ status: "new", abandonedPayments: [abandoned] })
    expect(resolveCryptoReturn(statusWith({ status: "new" }, { abandoned_payments: [abandoned] }))).toEqual({ kind: "not_received" })
  })

  it("says in plain words what the money is and what happens next", () => {
    expect(abandonedPaymentText(abandoned, englishLabels, "en-US")).toBe(
      "You sent 1.11022381 LTC to an earlier invoice (cart_1, for €84.90) that no longer matches your cart. It does not pay for your order: the store will send it back to you in the same coin. Please pay the new total."
    )
  })

  it("drops an earlier payment whose received amount is not a decimal string", () => {
    const broken = { ...abandoned, received_amount: "about 1" }
    expect(toCryptoPaymentState(statusWith(null, { cart_changed: true, abandoned_payments: [broken] })).abandonedPayments).toEqual([])
  })
})

describe("the status model (toCryptoPaymentState)", () => {
  it("no invoice yet is pending, not final", () => {
    expect(toCryptoPaymentState(statusWith(null))).toMatchObject({ status: "pending", final: false })
  })

  it("new with nothing received is new, the whole amount due", () => {
    expect(toCryptoPaymentState(statusWith({ status: "new" }))).toMatchObject({ status: "new", amountDue: "0.00123400", final: false })
  })

  it("pending is detected, with confirmations n/m", () => {
    const state = toCryptoPaymentState(statusWith({ status: "pending", pending_amount: "0", confirmations: { current: 1, required: 3 } }))
    expect(state).toMatchObject({ status: "detected", confirmations: { current: 1, required: 3 }, final: false })
  })

  it("pending internal is detected too", () => {
    expect(toCryptoPaymentState(statusWith({ status: "pending internal", pending_amount: "0" })).status).toBe("detected")
  })

  it("part received on an open invoice is underpaid, with the amount still due", () => {
    const state = toCryptoPaymentState(statusWith({ status: "pending", pending_amount: "0.00023400" }))
    expect(state).toMatchObject({ status: "underpaid", amountDue: "0.00023400", final: false })
  })

  it("a received amount below the amount asked is underpaid even without pending_amount (hosted sync)", () => {
    const state = toCryptoPaymentState(statusWith({ status: "pending", pending_amount: null, amount: null, expected_amount: "1", received_amount: "0.4" }))
    expect(state.status).toBe("underpaid")
  })

  it("completed is paid and final", () => {
    expect(toCryptoPaymentState(statusWith({ status: "completed", pending_amount: "0" }))).toMatchObject({ status: "paid", final: true })
  })

  it("mismatch is overpaid, with the amount over", () => {
    const state = toCryptoPaymentState(statusWith({ status: "mismatch", overpaid_amount: "0.0001" }))
    expect(state).toMatchObject({ status: "overpaid", overpaidAmount: "0.0001", final: true })
  })

  it("expired is expired and final", () => {
    expect(toCryptoPaymentState(statusWith({ status: "expired" }))).toMatchObject({ status: "expired", final: true })
  })

  it("expired but captured by the store (within its underpayment tolerance) is paid", () => {
    expect(toCryptoPaymentState(statusWith({ status: "expired", session_status: "captured" })).status).toBe("paid")
  })

  it("cancelled is canceled and error is error, both final", () => {
    expect(toCryptoPaymentState(statusWith({ status: "cancelled" }))).toMatchObject({ status: "canceled", final: true })
    expect(toCryptoPaymentState(statusWith({ status: "error" }))).toMatchObject({ status: "error", final: true })
  })

  it("an invoice not synced yet (status null) is pending", () => {
    expect(toCryptoPaymentState(statusWith({ status: null })).status).toBe("pending")
  })

  it("a status the kit does not know is pending, never paid", () => {
    expect(toCryptoPaymentState(statusWith({ status: "settling" }))).toMatchObject({ status: "pending", final: false })
  })

  it("cancelled duplicate is not final: the paid invoice of the chain decides", () => {
    expect(toCryptoPaymentState(statusWith({ status: "cancelled duplicate" })).final).toBe(false)
  })

  it("drops an amount that is not a decimal string", () => {
    const state = toCryptoPaymentState(statusWith({ amount: "1,5", pending_amount: null }))
    expect(state.amount).toBeNull()
  })
})

describe("the store maps, the kit follows (shopper_status)", () => {
  it("takes what the shopper is told from the store's shopper_status, never from the gateway's status", () => {
    // The store's mapping decides (an expired invoice it accepted within its tolerance is paid): the kit does not second-guess it.
    expect(toCryptoPaymentState(statusWith({ status: "expired", shopper_status: "paid" }))).toMatchObject({ status: "paid", final: true })
    expect(toCryptoPaymentState(statusWith({ status: "completed", shopper_status: "detected" }))).toMatchObject({ status: "detected", final: false })
  })

  it("an answer without shopper_status (a store older than it) is pending, never paid, whatever the gateway's status", () => {
    const response = statusWith({ status: "completed" })
    const { shopper_status: _omitted, ...older } = response.invoice ?? { status: null }
    // Outside the declared answer: what a store older than the field sends.
    expect(toCryptoPaymentState({ ...response, invoice: older } as CryptoPaymentStatusResponse)).toMatchObject({ status: "pending", final: false })
  })

  it("a shopper_status the kit does not know is pending, never paid", () => {
    // Outside the declared answer: a status a newer store may add.
    const newer = "settled" as string as CryptoInvoicePaymentStatus
    expect(toCryptoPaymentState(statusWith({ status: "completed", shopper_status: newer }))).toMatchObject({ status: "pending", final: false })
  })
})

describe("resolveCryptoReturn", () => {
  it("an order id means the order page, whatever the invoice says", () => {
    expect(resolveCryptoReturn(statusWith({ status: "pending" }, { order_id: "order_1" }))).toEqual({ kind: "order", orderId: "order_1" })
  })

  it("paid without an order means complete the cart", () => {
    expect(resolveCryptoReturn(statusWith({ status: "completed" }))).toEqual({ kind: "complete" })
  })

  it("overpaid without an order means complete the cart", () => {
    expect(resolveCryptoReturn(statusWith({ status: "mismatch" }))).toEqual({ kind: "complete" })
  })

  it("detected with the session authorized (orders on detection) means complete the cart", () => {
    expect(resolveCryptoReturn(statusWith({ status: "pending", pending_amount: "0", session_status: "authorized" }))).toEqual({ kind: "complete" })
  })

  it("detected with the session pending_authorization (orders on detection) means complete the cart", () => {
    expect(resolveCryptoReturn(statusWith({ status: "pending", pending_amount: "0", session_status: "pending_authorization" }))).toEqual({ kind: "complete" })
  })

  it("detected and not authorized is pending", () => {
    expect(resolveCryptoReturn(statusWith({ status: "pending", pending_amount: "0", session_status: "pending" }))).toEqual({ kind: "pending" })
  })

  it("new (nothing sent to the invoice yet) is not_received, never pending (\"being confirmed\")", () => {
    expect(resolveCryptoReturn(statusWith({ status: "new" }))).toEqual({ kind: "not_received" })
    expect(resolveCryptoReturn(statusWith({ status: "new", white_label: false, address: null, pending_amount: null }))).toEqual({ kind: "not_received" })
  })

  it("no invoice yet, or a status the kit does not know, is pending", () => {
    expect(resolveCryptoReturn(statusWith(null))).toEqual({ kind: "pending" })
    expect(resolveCryptoReturn(statusWith({ status: "something new" }))).toEqual({ kind: "pending" })
  })

  it("says nothing was received yet, in every built-in language, with its own words", () => {
    const { cryptoLabelsByLanguage } = jest.requireActual<typeof import("../index")>("../index")
    for (const labels of Object.values(cryptoLabelsByLanguage)) {
      expect(typeof labels.resultNotReceived).toBe("string")
      expect(labels.resultNotReceived).not.toBe(labels.resultPending)
      expect(typeof labels.backToInvoice).toBe("string")
    }
    expect(englishLabels.resultNotReceived).toBe(
      "We have not received your payment yet. If you have sent it, this page updates by itself; otherwise go back and pay the invoice."
    )
  })

  it("expired with nothing received failed as expired", () => {
    expect(resolveCryptoReturn(statusWith({ status: "expired" }))).toEqual({ kind: "failed", reason: "expired" })
  })

  it("expired with part received failed as underpaid", () => {
    expect(resolveCryptoReturn(statusWith({ status: "expired", received_amount: "0.0001", refund_due_amount: "0.0001" }))).toEqual({
      kind: "failed",
      reason: "underpaid",
    })
  })

  it("cancelled and error failed with their reason", () => {
    expect(resolveCryptoReturn(statusWith({ status: "cancelled" }))).toEqual({ kind: "failed", reason: "canceled" })
    expect(resolveCryptoReturn(statusWith({ status: "error" }))).toEqual({ kind: "failed", reason: "error" })
  })
})
