import { Decimal } from "decimal.js"
import type { Operation } from "../../../gateway"
import {
  assessInvoiceChain,
  callbackAmountsByInvoice,
  STORED_READING_CLOCK_SKEW_MS,
  STORED_READING_TTL_MS,
  storedReadingOf,
  usableStoredReading,
} from "../invoice-chain"
import type { StatusPolicy } from "../payment-state"

describe("callbackAmountsByInvoice", () => {
  it("takes the received and expected amounts of the latest callback per invoice", () => {
    const amounts = callbackAmountsByInvoice([
      { txn_id: "t1", fields: { amount: "0.1", invoice_total_sum: "1" }, created_at: "2026-01-01T00:00:00Z" },
      { txn_id: "t1", fields: { amount: "0.9", invoice_total_sum: "1" }, created_at: "2026-01-01T00:01:00Z" },
    ])
    expect(amounts.get("t1")?.received?.toFixed()).toBe("0.9")
    expect(amounts.get("t1")?.expected?.toFixed()).toBe("1")
  })

  it("ignores amounts that are not plain decimals", () => {
    const amounts = callbackAmountsByInvoice([{ txn_id: "t1", fields: { amount: "1e3", invoice_total_sum: 5 }, created_at: new Date() }])
    expect(amounts.get("t1")).toEqual({ received: undefined, expected: undefined })
  })

  it("skips callbacks without a txn_id", () => {
    expect(callbackAmountsByInvoice([{ txn_id: null, fields: { amount: "1" }, created_at: new Date() }]).size).toBe(0)
  })
})

describe("the gateway reading kept on the invoice row", () => {
  const policy: StatusPolicy = { orderOnDetection: true, underpaidTolerancePercent: new Decimal("1") }
  const gateway = {
    operations: {
      retrieve: async (id: string): Promise<Operation> => ({ id, type: "invoice", status: "completed", tx_url: [], amount: new Decimal("0.5"), sum: new Decimal("0.5") }),
    },
  }
  const readAt = new Date("2026-11-25T07:00:00.000Z")
  const stored = async () =>
    JSON.parse(JSON.stringify(storedReadingOf("INV-1", await assessInvoiceChain(gateway, undefined, { txn_id: "INV-1", order_number: undefined }, policy), policy, readAt))) as unknown

  it("is taken while fresh, under the same policy, with the status and the amounts as decimal strings", async () => {
    expect(usableStoredReading(await stored(), "INV-1", policy, readAt.getTime() + STORED_READING_TTL_MS)).toEqual({
      kind: "paid",
      session_status: "captured",
      gateway_status: "completed",
      active_txn_id: "INV-1",
      received_amount: "0.5",
      expected_amount: "0.5",
      overpaid_amount: null,
      underpaid_amount: null,
      refund_due_amount: null,
      capture_received: false,
      psys_cid: null,
      currency: null,
    })
  })

  it("is stale once older than STORED_READING_TTL_MS", async () => {
    expect(usableStoredReading(await stored(), "INV-1", policy, readAt.getTime() + STORED_READING_TTL_MS + 1)).toBeUndefined()
  })

  it("is refused when it says it was read in the future beyond the clock skew", async () => {
    expect(usableStoredReading(await stored(), "INV-1", policy, readAt.getTime() - STORED_READING_CLOCK_SKEW_MS - 1)).toBeUndefined()
  })

  it("is refused under another status policy (order on detection or tolerance changed)", async () => {
    const now = readAt.getTime() + 1_000
    expect(usableStoredReading(await stored(), "INV-1", { ...policy, orderOnDetection: false }, now)).toBeUndefined()
    expect(usableStoredReading(await stored(), "INV-1", { ...policy, underpaidTolerancePercent: new Decimal("1.5") }, now)).toBeUndefined()
    expect(usableStoredReading(await stored(), "INV-1", { ...policy, underpaidTolerancePercent: new Decimal("1.0") }, now)).toBeDefined()
  })

  it("is refused for another chain, when absent, or when a field is not what it should be", async () => {
    const now = readAt.getTime() + 1_000
    const reading = (await stored()) as Record<string, unknown>
    expect(usableStoredReading(reading, "INV-2", policy, now)).toBeUndefined()
    expect(usableStoredReading(null, "INV-1", policy, now)).toBeUndefined()
    expect(usableStoredReading({ ...reading, received_amount: 0.5 }, "INV-1", policy, now)).toBeUndefined()
    expect(usableStoredReading({ ...reading, received_amount: "1e3" }, "INV-1", policy, now)).toBeUndefined()
    expect(usableStoredReading({ ...reading, kind: "settled" }, "INV-1", policy, now)).toBeUndefined()
    expect(usableStoredReading({ ...reading, session_status: "authorized" }, "INV-1", policy, now)).toBeUndefined()
    expect(usableStoredReading({ ...reading, read_at: "yesterday" }, "INV-1", policy, now)).toBeUndefined()
  })
})
