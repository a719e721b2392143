import { Decimal } from "decimal.js"
import {
  INVOICE_STATUSES,
  isForwardMove,
  mapInvoiceChain,
  mapInvoiceStatus,
  minimumAccepted,
  shopperStatusOf,
  STATUS_FACTS,
  statusFacts,
  type ShopperInvoiceFacts,
  type StatusFacts,
  type StatusPolicy,
} from "../payment-state"

const onDetection: StatusPolicy = { orderOnDetection: true, underpaidTolerancePercent: new Decimal(0) }
const noDetection: StatusPolicy = { orderOnDetection: false, underpaidTolerancePercent: new Decimal(0) }
const tolerant = (percent: string): StatusPolicy => ({ orderOnDetection: true, underpaidTolerancePercent: new Decimal(percent) })
const d = (value: string) => new Decimal(value)

describe("mapInvoiceStatus", () => {
  it("maps new to pending", () => {
    expect(mapInvoiceStatus({ status: "new" }, onDetection)).toEqual({ kind: "awaiting_payment", sessionStatus: "pending" })
  })

  it.each(["pending", "pending internal"])("maps %s to pending_authorization when orders are placed on detection", (status) => {
    expect(mapInvoiceStatus({ status }, onDetection)).toEqual({ kind: "detected", sessionStatus: "pending_authorization" })
  })

  it.each(["pending", "pending internal"])("maps %s to pending when orders wait for confirmation", (status) => {
    expect(mapInvoiceStatus({ status }, noDetection)).toEqual({ kind: "detected", sessionStatus: "pending" })
  })

  it("maps completed to captured with no overpayment", () => {
    expect(mapInvoiceStatus({ status: "completed", received: d("0.5"), expected: d("0.5") }, onDetection)).toEqual({
      kind: "paid",
      sessionStatus: "captured",
      overpaid: undefined,
      underpaid: undefined,
      capture: "session",
    })
  })

  it("maps mismatch to captured and records the exact surplus", () => {
    const outcome = mapInvoiceStatus({ status: "mismatch", received: d("123456789.123456789012"), expected: d("123456789.123456789011") }, onDetection)
    expect(outcome.kind).toBe("paid")
    expect(outcome.kind === "paid" && outcome.overpaid?.toFixed()).toBe("0.000000000001")
  })

  it("maps mismatch without amounts to captured with the surplus unknown", () => {
    const outcome = mapInvoiceStatus({ status: "mismatch" }, onDetection)
    expect(outcome).toEqual({ kind: "paid", sessionStatus: "captured", overpaid: undefined, underpaid: undefined, capture: "session" })
  })

  it("maps expired with nothing received to canceled", () => {
    expect(mapInvoiceStatus({ status: "expired", received: d("0"), expected: d("1") }, onDetection)).toEqual({
      kind: "failed",
      sessionStatus: "canceled",
      reason: "expired",
      refundDue: undefined,
    })
  })

  it("maps expired with an unknown received amount to canceled", () => {
    expect(mapInvoiceStatus({ status: "expired" }, onDetection)).toMatchObject({ kind: "failed", reason: "expired" })
  })

  it("maps expired underpaid beyond a zero tolerance to canceled with the received amount due back", () => {
    const outcome = mapInvoiceStatus({ status: "expired", received: d("0.99999999"), expected: d("1") }, onDetection)
    expect(outcome).toMatchObject({ kind: "failed", sessionStatus: "canceled", reason: "underpaid" })
    expect(outcome.kind === "failed" && outcome.refundDue?.toFixed()).toBe("0.99999999")
  })

  it("captures an expired invoice exactly at the tolerance edge", () => {
    const outcome = mapInvoiceStatus({ status: "expired", received: d("0.99"), expected: d("1") }, tolerant("1"))
    expect(outcome).toMatchObject({ kind: "paid", sessionStatus: "captured" })
    expect(outcome.kind === "paid" && outcome.underpaid?.toFixed()).toBe("0.01")
  })

  it("cancels an expired invoice one satoshi below the tolerance edge", () => {
    const outcome = mapInvoiceStatus({ status: "expired", received: d("0.98999999"), expected: d("1") }, tolerant("1"))
    expect(outcome).toMatchObject({ kind: "failed", reason: "underpaid" })
  })

  it("captures an expired invoice that received the full amount", () => {
    expect(mapInvoiceStatus({ status: "expired", received: d("1"), expected: d("1") }, onDetection)).toMatchObject({ kind: "paid" })
  })

  it("cancels an expired invoice with money but no expected amount to compare with", () => {
    expect(mapInvoiceStatus({ status: "expired", received: d("0.1") }, tolerant("50"))).toMatchObject({ kind: "failed", reason: "underpaid" })
  })

  it("maps cancelled to canceled", () => {
    expect(mapInvoiceStatus({ status: "cancelled" }, onDetection)).toEqual({
      kind: "failed",
      sessionStatus: "canceled",
      reason: "cancelled",
      refundDue: undefined,
    })
  })

  it("maps error to error", () => {
    expect(mapInvoiceStatus({ status: "error" }, onDetection)).toEqual({ kind: "error", sessionStatus: "error" })
  })

  it("maps cancelled duplicate to a duplicate that says nothing about the session", () => {
    expect(mapInvoiceStatus({ status: "cancelled duplicate" }, onDetection)).toEqual({ kind: "duplicate" })
  })

  it("treats an unknown status as not paid", () => {
    expect(mapInvoiceStatus({ status: "refunded", received: d("5"), expected: d("1") }, onDetection)).toEqual({
      kind: "unknown",
      sessionStatus: "pending",
      status: "refunded",
    })
  })

  it("reads statuses case-insensitively", () => {
    expect(mapInvoiceStatus({ status: "Completed" }, onDetection)).toMatchObject({ kind: "paid" })
  })

  it("has a mapping for every documented status", () => {
    for (const status of INVOICE_STATUSES) {
      expect(mapInvoiceStatus({ status }, onDetection).kind).not.toBe("unknown")
    }
  })
})

describe("minimumAccepted", () => {
  it("computes the tolerance floor exactly for amounts beyond 20 significant digits", () => {
    expect(minimumAccepted(d("123456789.123456789012"), d("0.5")).toFixed()).toBe("122839505.17783950506694")
  })
})

describe("mapInvoiceChain", () => {
  it("follows the paid invoice of a switch chain and ignores the cancelled duplicate", () => {
    const result = mapInvoiceChain([{ status: "cancelled duplicate" }, { status: "completed" }], onDetection)
    expect(result).toMatchObject({ index: 1, outcome: { kind: "paid" } })
  })

  it("follows the open invoice after a switch when the first one expired", () => {
    const result = mapInvoiceChain([{ status: "cancelled" }, { status: "new" }], onDetection)
    expect(result).toMatchObject({ index: 1, outcome: { kind: "awaiting_payment" } })
  })

  it("stays pending when only duplicates are visible", () => {
    expect(mapInvoiceChain([{ status: "cancelled duplicate" }], onDetection).outcome).toEqual({ kind: "awaiting_payment", sessionStatus: "pending" })
  })
})

describe("isForwardMove", () => {
  it("lets an abandoned invoice move only when it pays a live session again (the apply step checks the session first)", () => {
    expect(isForwardMove("abandoned", "captured")).toBe(true)
    expect(isForwardMove("abandoned", "pending")).toBe(true)
    expect(isForwardMove("abandoned", "abandoned")).toBe(false)
  })

  it("lets pending move to pending_authorization and captured", () => {
    expect(isForwardMove("pending", "pending_authorization")).toBe(true)
    expect(isForwardMove("pending_authorization", "captured")).toBe(true)
  })

  it("refuses a late pending after captured", () => {
    expect(isForwardMove("captured", "pending")).toBe(false)
  })

  it("refuses any move out of a terminal status", () => {
    expect(isForwardMove("canceled", "captured")).toBe(false)
    expect(isForwardMove("captured", "canceled")).toBe(false)
  })

  it("lets an invoice in error be captured when the gateway later reports the money", () => {
    expect(isForwardMove("error", "captured")).toBe(true)
  })

  it("moves an invoice in error nowhere but to captured", () => {
    expect(isForwardMove("error", "pending")).toBe(false)
    expect(isForwardMove("error", "canceled")).toBe(false)
  })

  it("refuses pending_authorization back to pending", () => {
    expect(isForwardMove("pending_authorization", "pending")).toBe(false)
  })
})

describe("shopperStatusOf (what GET /store/crypto/payment-status tells the shopper)", () => {
  const open: ShopperInvoiceFacts = { status: "new", session_status: "pending", amount: "0.00123400", pending_amount: "0.00123400", received_amount: null, overpaid_amount: null }
  const of = (facts: Partial<ShopperInvoiceFacts>) => shopperStatusOf({ ...open, ...facts })

  it("new with nothing received is new; part received while open is underpaid", () => {
    expect(of({})).toBe("new")
    expect(of({ pending_amount: "0.00023400" })).toBe("underpaid")
  })

  it("pending and pending internal are detected, underpaid when less than asked arrived", () => {
    expect(of({ status: "pending", pending_amount: "0" })).toBe("detected")
    expect(of({ status: "pending internal", pending_amount: "0" })).toBe("detected")
    expect(of({ status: "pending", pending_amount: null, amount: "1", received_amount: "0.4" })).toBe("underpaid")
  })

  it("compares amounts as decimals, not as text or floats", () => {
    // As text "9.5" sorts after "10"; as a float the 40-digit amounts below are equal.
    expect(of({ status: "pending", amount: "10", pending_amount: "9.5" })).toBe("underpaid")
    expect(of({ status: "pending", amount: "100000000000000000000.000000000000000001", pending_amount: "100000000000000000000" })).toBe("underpaid")
  })

  it("completed is paid, overpaid when the store recorded more than asked; mismatch is overpaid", () => {
    expect(of({ status: "completed", pending_amount: "0" })).toBe("paid")
    expect(of({ status: "completed", overpaid_amount: "0.0001" })).toBe("overpaid")
    expect(of({ status: "mismatch" })).toBe("overpaid")
  })

  it("expired is expired, paid when the store captured it within its underpaid tolerance", () => {
    expect(of({ status: "expired", session_status: "canceled" })).toBe("expired")
    expect(of({ status: "expired", session_status: "captured" })).toBe("paid")
  })

  it("cancelled is canceled, error is error", () => {
    expect(of({ status: "cancelled" })).toBe("canceled")
    expect(of({ status: "error" })).toBe("error")
  })

  it("cancelled duplicate, no sync yet and a status spec §3 does not list are pending, never paid", () => {
    expect(of({ status: "cancelled duplicate" })).toBe("pending")
    expect(of({ status: null })).toBe("pending")
    expect(of({ status: "refunded", received_amount: "5" })).toBe("pending")
  })

  it("reads the gateway's status whatever its case and spaces", () => {
    expect(of({ status: " Completed ", pending_amount: "0" })).toBe("paid")
  })

  it("maps every documented status to something other than the unknown fallback or the duplicate's pending", () => {
    const mapped = INVOICE_STATUSES.filter((status) => status !== "cancelled duplicate").map((status) => of({ status, pending_amount: "0" }))
    expect(mapped).not.toContain("pending")
  })
})

describe("STATUS_FACTS", () => {
  // The statuses each former table said true for; every other status was false.
  const TRUE_FOR: Record<keyof StatusFacts, string[]> = {
    settled: ["completed", "mismatch", "expired", "cancelled", "cancelled duplicate", "error"], // SETTLED_AT_GATEWAY (payment-state.ts)
    amountFinal: ["completed", "mismatch", "expired", "cancelled", "cancelled duplicate"], // SETTLED_STATUS (money-out/account.ts)
    closed: ["expired", "cancelled", "error"], // CLOSED_AT_GATEWAY (payment/order-number.ts)
    closedUnpaid: ["expired", "cancelled"], // CLOSED (workflows/steps/read-crypto-payment-status.ts)
    moneySeen: ["pending", "pending internal", "completed", "mismatch"], // MONEY_SEEN (workflows/steps/read-crypto-payment-status.ts)
  }

  it.each(INVOICE_STATUSES)("%s has the facts the former tables gave it", (status) => {
    expect(STATUS_FACTS[status]).toEqual(Object.fromEntries(Object.entries(TRUE_FOR).map(([fact, statuses]) => [fact, statuses.includes(status)])))
  })

  it("reads a stored status whatever its case and spaces", () => {
    expect(statusFacts(" Expired ")).toBe(STATUS_FACTS.expired)
  })

  it("a status spec §3 does not list, or none, says nothing", () => {
    const none = { settled: false, amountFinal: false, closed: false, closedUnpaid: false, moneySeen: false }
    expect([statusFacts("refunded"), statusFacts(null), statusFacts(undefined)]).toEqual([none, none, none])
  })
})
