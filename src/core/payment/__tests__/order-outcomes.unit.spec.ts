import { Decimal } from "decimal.js"
import { DEFAULT_ORDER_OUTCOMES, orderOutcomesSchema, orderRulesProblems, readOrderOutcomes, type OrderOutcomeRules } from "../../config/order-rules"
import { settingChanges } from "../../config/settings"
import { mapInvoiceStatus, type StatusPolicy } from "../payment-state"
import { medusaSessionStatusOf, orderOutcomeOf, receivedFiatValue, storedReadingOfFields, usableStoredReading, waitingOutcome, type AssessmentFields } from "../invoice-chain"

const policy = (outcomes: Partial<OrderOutcomeRules> = {}): StatusPolicy => ({
  orderOnDetection: true,
  underpaidTolerancePercent: new Decimal(0),
  outcomes: { ...DEFAULT_ORDER_OUTCOMES, ...outcomes },
})
const d = (value: string) => new Decimal(value)

describe("order rules per outcome: the status map (docs/books.md#order-rules)", () => {
  it("by default keeps today's map: underpaid canceled, overpaid captured, error kept open", () => {
    expect(mapInvoiceStatus({ status: "expired", received: d("0.5"), expected: d("1") }, policy())).toMatchObject({ kind: "failed", sessionStatus: "canceled", reason: "underpaid" })
    expect(mapInvoiceStatus({ status: "mismatch", received: d("1.1"), expected: d("1") }, policy())).toMatchObject({ kind: "paid", sessionStatus: "captured", capture: "session" })
    expect(mapInvoiceStatus({ status: "error" }, policy())).toEqual({ kind: "error", sessionStatus: "error" })
    expect(mapInvoiceStatus({ status: "error" }, { orderOnDetection: true, underpaidTolerancePercent: d("0") })).toEqual({ kind: "error", sessionStatus: "error" })
  })

  it("underpaid → capture_received: paid, captured for what arrived, the shortfall kept", () => {
    const outcome = mapInvoiceStatus({ status: "expired", received: d("0.5"), expected: d("1") }, policy({ underpaid: "capture_received" }))
    expect(outcome).toMatchObject({ kind: "paid", sessionStatus: "captured", capture: "received" })
    expect(outcome.kind === "paid" && outcome.underpaid?.toFixed()).toBe("0.5")
  })

  it("overpaid → wait: paid, held for review (pending_authorization)", () => {
    expect(mapInvoiceStatus({ status: "completed", received: d("1.2"), expected: d("1") }, policy({ overpaid: "wait" }))).toMatchObject({ kind: "paid", sessionStatus: "pending_authorization" })
    expect(mapInvoiceStatus({ status: "completed", received: d("1"), expected: d("1") }, policy({ overpaid: "wait" }))).toMatchObject({ sessionStatus: "captured" })
  })

  it("error → cancel: the session is canceled", () => {
    expect(mapInvoiceStatus({ status: "error" }, policy({ error: "cancel" }))).toEqual({ kind: "error", sessionStatus: "canceled" })
  })
})

const fields = (over: Partial<AssessmentFields>): AssessmentFields => ({
  kind: "failed",
  session_status: "canceled",
  gateway_status: "expired",
  active_txn_id: "INV-1",
  received_amount: null,
  expected_amount: "1",
  overpaid_amount: null,
  underpaid_amount: null,
  refund_due_amount: null,
  capture_received: false,
  psys_cid: "LTC",
  currency: "LTC",
  siblings_with_money: [],
  ...over,
})

describe("order rules per outcome: which outcome, and whether the order waits", () => {
  it("names the outcome of an assessment", () => {
    expect(orderOutcomeOf(fields({}))).toBe("expired_unpaid")
    expect(orderOutcomeOf(fields({ refund_due_amount: "0.5" }))).toBe("underpaid")
    expect(orderOutcomeOf(fields({ kind: "paid", capture_received: true }))).toBe("underpaid")
    expect(orderOutcomeOf(fields({ kind: "paid", overpaid_amount: "0.1" }))).toBe("overpaid")
    expect(orderOutcomeOf(fields({ kind: "error" }))).toBe("error")
    expect(orderOutcomeOf(fields({ kind: "paid" }))).toBeNull()
    expect(orderOutcomeOf(fields({ kind: "detected" }))).toBeNull()
  })

  it("keeps the order waiting only where the rule says wait", () => {
    expect(waitingOutcome(fields({ refund_due_amount: "0.5" }), undefined)).toBeNull()
    expect(waitingOutcome(fields({ refund_due_amount: "0.5" }), { ...DEFAULT_ORDER_OUTCOMES, underpaid: "wait" })).toBe("underpaid")
    expect(waitingOutcome(fields({}), { ...DEFAULT_ORDER_OUTCOMES, expired_unpaid: "wait" })).toBe("expired_unpaid")
    expect(waitingOutcome(fields({ kind: "paid", overpaid_amount: "0.1" }), { ...DEFAULT_ORDER_OUTCOMES, overpaid: "wait" })).toBe("overpaid")
    expect(waitingOutcome(fields({ kind: "error" }), DEFAULT_ORDER_OUTCOMES)).toBeNull()
  })

  it("tells Medusa `authorized` for a capture of what arrived, so it captures only that", () => {
    expect(medusaSessionStatusOf({ session_status: "captured", capture_received: true })).toBe("authorized")
    expect(medusaSessionStatusOf({ session_status: "captured", capture_received: false })).toBe("captured")
  })

  it("values what arrived as its share of the session amount, rounded down to the currency", () => {
    expect(receivedFiatValue("10.5", "0.5", "1", "EUR")).toBe("5.25")
    expect(receivedFiatValue("10", "1", "3", "EUR")).toBe("3.33")
    expect(receivedFiatValue("1000", "1", "3", "JPY")).toBe("333")
    expect(receivedFiatValue("10", "0.0001", "1", "EUR")).toBeNull()
    expect(receivedFiatValue("10", null, "1", "EUR")).toBeNull()
  })

  it("takes a stored reading only under the same outcome rules", () => {
    const now = new Date("2026-11-28T00:00:00Z")
    const stored = storedReadingOfFields("INV-1", fields({ refund_due_amount: "0.5" }), policy({ underpaid: "wait" }), now)
    expect(usableStoredReading(stored, "INV-1", policy({ underpaid: "wait" }), now.getTime())).toBeDefined()
    expect(usableStoredReading(stored, "INV-1", policy(), now.getTime())).toBeUndefined()
  })
})

describe("order rules per outcome: the setting", () => {
  it("fills every outcome left out with its default, and names the field of a wrong action", () => {
    expect(orderOutcomesSchema.parse({ underpaid: "wait" })).toEqual({ ...DEFAULT_ORDER_OUTCOMES, underpaid: "wait" })
    const wrong = orderOutcomesSchema.safeParse({ overpaid: "capture_received" })
    expect(wrong.success).toBe(false)
    if (!wrong.success) expect(orderRulesProblems(wrong.error, "order_outcomes")).toEqual(['order_outcomes.overpaid must be one of "capture", "wait"'])
    expect(orderOutcomesSchema.safeParse({ late: "wait" }).success).toBe(false)
  })

  it("reads stored rules whatever their key order, an unknown action as the default", () => {
    expect(readOrderOutcomes({ error: "cancel", underpaid: "nonsense" })).toEqual({ ...DEFAULT_ORDER_OUTCOMES, error: "cancel" })
    expect(readOrderOutcomes(null)).toEqual(DEFAULT_ORDER_OUTCOMES)
  })

  it("records a change once, not a save that changes nothing (jsonb reorders keys)", () => {
    const all = { ...DEFAULT_ORDER_OUTCOMES, underpaid: "wait" as const }
    expect(settingChanges(null, { order_outcomes: all })).toEqual({ order_outcomes: { from: null, to: all } })
    const reordered = Object.fromEntries(Object.entries(all).reverse())
    expect(settingChanges({ order_outcomes: reordered }, { order_outcomes: all })).toEqual({})
  })
})
