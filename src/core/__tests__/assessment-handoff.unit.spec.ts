import { Decimal } from "decimal.js"
import { borrowAssessment, HANDOFF_TTL_MS, lendAssessment, returnAssessment } from "../assessment-handoff"
import type { InvoiceAssessment } from "../invoice-chain"

const policy = { orderOnDetection: true, underpaidTolerancePercent: new Decimal("0.5") }

function reading(txnId: string): InvoiceAssessment {
  return {
    outcome: { kind: "paid", sessionStatus: "captured", overpaid: undefined, underpaid: undefined },
    active: { id: txnId, type: "invoice", status: "completed", tx_url: [] },
    observation: { status: "completed", received: new Decimal("0.001"), expected: new Decimal("0.001") },
    coin: { psys_cid: "BTC", currency: "BTC" },
    siblingsWithMoney: [],
  }
}

describe("the callback's gateway reading handed to the provider", () => {
  afterEach(() => {
    returnAssessment("INV-A")
    returnAssessment("INV-B")
  })

  it("gives the lent reading to a call under the same policy until it is returned", () => {
    const lent = reading("INV-A")
    lendAssessment("INV-A", lent, policy, 1_000)
    expect(borrowAssessment("INV-A", { ...policy, underpaidTolerancePercent: new Decimal("0.50") }, 1_001)).toBe(lent)
    expect(borrowAssessment("INV-A", policy, 1_002)).toBe(lent)
    returnAssessment("INV-A")
    expect(borrowAssessment("INV-A", policy, 1_003)).toBeUndefined()
  })

  it("never gives a reading of another invoice", () => {
    lendAssessment("INV-A", reading("INV-A"), policy, 1_000)
    expect(borrowAssessment("INV-B", policy, 1_001)).toBeUndefined()
  })

  it("never gives a reading made under another status policy", () => {
    lendAssessment("INV-A", reading("INV-A"), policy, 1_000)
    expect(borrowAssessment("INV-A", { ...policy, orderOnDetection: false }, 1_001)).toBeUndefined()
    expect(borrowAssessment("INV-A", { ...policy, underpaidTolerancePercent: new Decimal("1") }, 1_001)).toBeUndefined()
  })

  it("forgets a reading that was never returned once it is old", () => {
    lendAssessment("INV-A", reading("INV-A"), policy, 1_000)
    expect(borrowAssessment("INV-A", policy, 1_000 + HANDOFF_TTL_MS - 1)).toBeDefined()
    expect(borrowAssessment("INV-A", policy, 1_000 + HANDOFF_TTL_MS)).toBeUndefined()
  })

  it("drops old readings when a new one is lent", () => {
    lendAssessment("INV-A", reading("INV-A"), policy, 1_000)
    lendAssessment("INV-B", reading("INV-B"), policy, 1_000 + HANDOFF_TTL_MS)
    // INV-A was swept by the second lend: even a clock moved back does not bring it back.
    expect(borrowAssessment("INV-A", policy, 1_001)).toBeUndefined()
    expect(borrowAssessment("INV-B", policy, 1_001 + HANDOFF_TTL_MS)).toBeDefined()
  })
})
