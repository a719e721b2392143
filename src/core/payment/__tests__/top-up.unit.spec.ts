import { Decimal } from "decimal.js"
import type { AssessmentFields } from "../invoice-chain"
import type { StatusPolicy } from "../payment-state"
import { groupReceived, isOpenTopUp, restHoldUntil, topUpCommission, topUpGroupFields, topUpOrderNumber, topUpPlan, type TopUpFacts, type TopUpGroupRow } from "../top-up"

const policy: StatusPolicy = { orderOnDetection: false, underpaidTolerancePercent: new Decimal("1") }

const root = (over: Partial<TopUpGroupRow> = {}): TopUpGroupRow => ({
  id: "cinv_root",
  order_number: "cart_1",
  topup_of: null,
  superseded_by: null,
  session_status: "canceled",
  gateway_status: "expired",
  psys_cid: "LTC",
  currency: "LTC",
  expected_amount: "1.12133585",
  received_amount: "0.6",
  txn_id: "INV-1",
  ...over,
})

const topUp = (over: Partial<TopUpGroupRow> = {}): TopUpGroupRow =>
  root({ id: "cinv_rest", order_number: "cart_1-rest", topup_of: "cinv_root", session_status: "pending", gateway_status: "new", expected_amount: "0.52133585", received_amount: null, txn_id: "INV-2", ...over })

const facts = (over: Partial<TopUpFacts> = {}): TopUpFacts => ({ underpaidItemOpen: true, moneySentBack: false, orderCanceled: false, restExpired: false, ...over })

describe("topUpPlan: whether the shopper may pay the rest", () => {
  it("opens a top-up for the exact shortfall in the root's coin, numbered after the root", () => {
    expect(topUpPlan(root(), [], facts())).toEqual({
      kind: "new",
      orderNumber: "cart_1-rest",
      shortfall: "0.52133585",
      psys_cid: "LTC",
      currency: "LTC",
      received: "0.6",
      expected: "1.12133585",
    })
  })

  it("answers the open top-up again instead of opening a second one", () => {
    const open = topUp()
    expect(topUpPlan(root({ session_status: "pending" }), [open], facts())).toEqual({ kind: "existing", topUp: open })
  })

  it("after a top-up ended short, asks only for what the root and the top-up together still lack", () => {
    const ended = topUp({ gateway_status: "expired", session_status: "canceled", received_amount: "0.5" })
    const plan = topUpPlan(root(), [ended], facts())
    expect(plan).toMatchObject({ kind: "new", orderNumber: "cart_1-rest-2", shortfall: "0.02133585", received: "1.1" })
  })

  it.each([
    ["nothing received", root({ received_amount: "0" })],
    ["all received", root({ received_amount: "1.12133585" })],
    ["the session not ended short", root({ session_status: "pending" })],
    ["a superseded invoice", root({ superseded_by: "cinv_other" })],
    ["a top-up itself", root({ topup_of: "cinv_x" })],
    ["no amount known", root({ expected_amount: null })],
  ])("refuses %s: there is no rest to pay", (_, row) => {
    expect(topUpPlan(row, [], facts())).toMatchObject({ kind: "refused", reason: "not_underpaid" })
  })

  it("refuses once the merchant decided about the money (item resolved, or money sent back)", () => {
    expect(topUpPlan(root(), [], facts({ underpaidItemOpen: false }))).toMatchObject({ kind: "refused", reason: "decided" })
    expect(topUpPlan(root(), [], facts({ moneySentBack: true }))).toMatchObject({ kind: "refused", reason: "decided" })
  })

  it("refuses once the order placed on detection was canceled, or its time to wait for the rest passed", () => {
    expect(topUpPlan(root(), [], facts({ orderCanceled: true }))).toMatchObject({ kind: "refused", reason: "order_canceled" })
    expect(topUpPlan(root(), [], facts({ restExpired: true }))).toMatchObject({ kind: "refused", reason: "too_late" })
  })

  it("refuses while the coin is unknown (a hosted invoice not synced yet)", () => {
    expect(topUpPlan(root({ psys_cid: null }), [], facts())).toMatchObject({ kind: "refused", reason: "coin_unknown" })
  })
})

describe("the pieces of the rule", () => {
  it("numbers top-ups -rest, -rest-2, -rest-3", () => {
    expect([1, 2, 3].map((n) => topUpOrderNumber("cart_1", n))).toEqual(["cart_1-rest", "cart_1-rest-2", "cart_1-rest-3"])
  })

  it("counts a top-up open while the gateway can still take money or has not answered", () => {
    expect(isOpenTopUp(topUp({ gateway_status: null }))).toBe(true)
    expect(isOpenTopUp(topUp({ gateway_status: "pending internal" }))).toBe(true)
    expect(isOpenTopUp(topUp({ gateway_status: "expired" }))).toBe(false)
    expect(isOpenTopUp(topUp({ session_status: "captured", gateway_status: "pending" }))).toBe(false)
    expect(isOpenTopUp(topUp({ superseded_by: "cinv_new" }))).toBe(false)
  })

  it("adds only the top-ups in the root's coin", () => {
    expect(groupReceived(root(), [topUp({ received_amount: "0.3" }), topUp({ psys_cid: "BTC", received_amount: "9" })]).toFixed()).toBe("0.9")
  })

  it("reads a top-up's commission only when it is a plain decimal", () => {
    expect(topUpCommission({ commission: "0.0052" })).toBe("0.0052")
    expect(topUpCommission({ commission: 1 })).toBeNull()
    expect(topUpCommission(null)).toBeNull()
  })
})

const fields = (over: Partial<AssessmentFields> = {}): AssessmentFields => ({
  capture_received: false,
  kind: "failed",
  session_status: "canceled",
  gateway_status: "expired",
  active_txn_id: "INV-1",
  received_amount: "0.6",
  expected_amount: "1.12133585",
  overpaid_amount: null,
  underpaid_amount: null,
  refund_due_amount: "0.6",
  psys_cid: "LTC",
  currency: "LTC",
  siblings_with_money: [],
  ...over,
})

const rest = (over: Partial<AssessmentFields> = {}) => ({
  invoice_id: "cinv_rest",
  fields: fields({ kind: "awaiting_payment", session_status: "pending", gateway_status: "new", active_txn_id: "INV-2", received_amount: null, expected_amount: "0.52133585", refund_due_amount: null, ...over }),
})

describe("topUpGroupFields: the root and its top-ups decide the session together", () => {
  it("without top-ups, the root's own fields", () => {
    expect(topUpGroupFields(fields(), [], policy)).toEqual({ root: fields(), topUps: [], received: "0.6", due: "0.52133585" })
  })

  it("an open top-up: the session waits, nothing is owed back, the rest is still due", () => {
    const group = topUpGroupFields(fields(), [rest()], policy)
    expect(group.root).toMatchObject({ kind: "awaiting_payment", session_status: "pending", refund_due_amount: null, received_amount: "0.6", gateway_status: "expired" })
    expect(group.topUps[0].fields).toMatchObject({ kind: "awaiting_payment", session_status: "pending", refund_due_amount: null })
    expect(group.due).toBe("0.52133585")
  })

  it("the rest paid: captured, each invoice keeping its own amounts", () => {
    const group = topUpGroupFields(fields(), [rest({ gateway_status: "completed", received_amount: "0.52133585" })], policy)
    expect(group.root).toMatchObject({ kind: "paid", session_status: "captured", received_amount: "0.6", overpaid_amount: null, underpaid_amount: null })
    expect(group.topUps[0].fields).toMatchObject({ kind: "paid", session_status: "captured", received_amount: "0.52133585", overpaid_amount: null })
    expect(group).toMatchObject({ received: "1.12133585", due: "0" })
  })

  it("more than the rest: the surplus is the top-up's overpayment", () => {
    const group = topUpGroupFields(fields(), [rest({ gateway_status: "mismatch", received_amount: "0.6" })], policy)
    expect(group.topUps[0].fields.overpaid_amount).toBe("0.07866415")
    expect(group.root.overpaid_amount).toBeNull()
  })

  it("the top-up's commission is owed on top of the root's amount, never an overpayment", () => {
    const group = topUpGroupFields(fields(), [{ ...rest({ gateway_status: "completed", received_amount: "0.52655" }), commission: "0.00521415" }], policy)
    expect(group.root.session_status).toBe("captured")
    expect(group.topUps[0].fields.overpaid_amount).toBeNull()
    expect(group.due).toBe("0")
  })

  it("the top-up expired short again: canceled, each invoice owes back its own receipt", () => {
    const group = topUpGroupFields(fields(), [rest({ gateway_status: "expired", received_amount: "0.2" })], policy)
    expect(group.root).toMatchObject({ kind: "failed", session_status: "canceled", refund_due_amount: "0.6" })
    expect(group.topUps[0].fields).toMatchObject({ kind: "failed", session_status: "canceled", refund_due_amount: "0.2" })
    expect(group.due).toBe("0.32133585")
  })

  it("the top-up expired within the tolerance of the whole amount: captured, the shortfall on the root", () => {
    const group = topUpGroupFields(fields(), [rest({ gateway_status: "expired", received_amount: "0.515" })], policy)
    expect(group.root).toMatchObject({ kind: "paid", session_status: "captured", underpaid_amount: "0.00633585" })
  })

  it("money seen on the top-up: detected, held as the policy says", () => {
    expect(topUpGroupFields(fields(), [rest({ gateway_status: "pending", received_amount: "0.52133585" })], policy).root.session_status).toBe("pending")
    expect(
      topUpGroupFields(fields(), [rest({ gateway_status: "pending", received_amount: "0.52133585" })], { ...policy, orderOnDetection: true }).root.session_status
    ).toBe("pending_authorization")
  })
})

describe("restHoldUntil: an order placed on detection waits for the rest", () => {
  const now = new Date("2026-11-26T12:00:00.000Z")
  const short = { kind: "failed", gateway_status: "expired", refund_due_amount: "0.6" }

  it("starts the window the first time the invoice ended short, and keeps it", () => {
    const until = restHoldUntil(short, null, now, 24)
    expect(until?.toISOString()).toBe("2026-11-27T12:00:00.000Z")
    const later = new Date(now.getTime() + 3600 * 1000)
    expect(restHoldUntil(short, until, later, 24)?.toISOString()).toBe(until?.toISOString())
  })

  it("lets the order be canceled once the window passed", () => {
    expect(restHoldUntil(short, new Date(now.getTime() - 1), now, 24)).toBeNull()
  })

  it("holds nothing with payRestHours 0: the order is canceled at once", () => {
    expect(restHoldUntil(short, null, now, 0)).toBeNull()
  })

  it.each([
    ["expired with nothing received", { ...short, refund_due_amount: null }],
    ["cancelled", { ...short, gateway_status: "cancelled" }],
    ["paid", { ...short, kind: "paid" }],
  ])("holds nothing for an invoice %s", (_, seen) => {
    expect(restHoldUntil(seen, null, now, 24)).toBeNull()
  })
})
