import { DEFAULT_MONEY_OUT_POLICY, moneyOutPolicyPatchSchema, planPolicyChanges, type SettlementRule } from "../../config/money-out-policy"
import { completedShortfall, conversionAmount, estimateProblem, settlementKey, settlementOfInvoice, settlementOfPayIn, shortfallPercent, sweepAmount } from "../settlement"

// docs/money-out.md#settlement
const convert: NonNullable<SettlementRule["convert"]> = { to_currency: "USDT_TRX", to_address: "TXyz", min_amount: "0.01", max_difference_percent: "2" }
const sweep: NonNullable<SettlementRule["sweep"]> = { threshold: "0.5", to_address: "bc1qcold" }

describe("settlement triggers", () => {
  const before = { id: "cinv_1", provider_id: "pp_crypto_crypto", commission: "0.0001" }

  it("an invoice whose amount becomes final credits what it received less the commission the gateway took", () => {
    expect(settlementOfInvoice(before, { kind: "paid", gateway_status: "completed", psys_cid: "BTC", received_amount: "0.0101", overpaid_amount: null }, "0.00015")).toEqual({
      settlement: { provider_id: "pp_crypto_crypto", psys_cid: "BTC", subject_id: "cinv_1", amount: "0.00995" },
    })
  })

  it("takes the quoted commission when the operation named none", () => {
    expect(settlementOfInvoice(before, { kind: "paid", gateway_status: "mismatch", psys_cid: "BTC", received_amount: "0.0101", overpaid_amount: null }, null)).toMatchObject({ settlement: { amount: "0.01" } })
  })

  it("leaves out an overpayment: the shopper's until someone decides", () => {
    expect(settlementOfInvoice(before, { kind: "paid", gateway_status: "completed", psys_cid: "BTC", received_amount: "0.011", overpaid_amount: "0.001" }, "0.0001")).toMatchObject({ settlement: { amount: "0.0099" } })
  })

  it("makes no trigger before the amount is final, for money the order did not take, without a coin or with nothing credited", () => {
    const paid = { kind: "paid", gateway_status: "completed", psys_cid: "BTC", received_amount: "0.01", overpaid_amount: null }
    expect(settlementOfInvoice(before, { ...paid, kind: "detected", gateway_status: "pending" }, null)).toEqual({})
    expect(settlementOfInvoice(before, { ...paid, psys_cid: null }, null)).toEqual({})
    expect(settlementOfInvoice(before, { ...paid, received_amount: "0.0001" }, null)).toEqual({})
    // Money due back: an underpayment beyond the tolerance is the shopper's.
    expect(settlementOfInvoice(before, { ...paid, kind: "failed", gateway_status: "expired" }, null)).toEqual({})
  })

  it("a completed pay_in credits its amount less its commission; a pending one makes no trigger", () => {
    const callback = { provider_id: "pp_crypto_crypto", status: "completed", txn_id: "PI-1", fields: { psys_cid: "LTC", amount: "1.25", invoice_commission: "0.0125" } }
    expect(settlementOfPayIn(callback)).toEqual({ provider_id: "pp_crypto_crypto", psys_cid: "LTC", subject_id: "pay_in:PI-1", amount: "1.2375" })
    expect(settlementOfPayIn({ ...callback, status: "pending" })).toBeNull()
    expect(settlementOfPayIn({ ...callback, fields: { psys_cid: "LTC", amount: "1e3", invoice_commission: "0" } })).toBeNull()
    // Read back from the operations list: no commission named, what it credited is not known.
    expect(settlementOfPayIn({ ...callback, fields: { psys_cid: "LTC", amount: "1.25" } })).toBeNull()
  })

  it("keys each part by its trigger", () => {
    expect(settlementKey("convert", "cinv_1")).toBe("settlement:convert:cinv_1")
    expect(settlementKey("sweep", "pay_in:PI-1")).toBe("settlement:sweep:pay_in:PI-1")
  })
})

describe("conversion rules", () => {
  it("converts what was credited from the minimum up, and names the minimum below it", () => {
    expect(conversionAmount(convert, "0.01")).toEqual({ amount: "0.01" })
    expect(conversionAmount(convert, "0.00999")).toEqual({ skipped: "0.00999 is below the conversion minimum 0.01" })
  })

  it("measures the estimate against the market value, exactly", () => {
    // 1 BTC at 60 000, USDT at 1: the market buys 60 000; an estimate of 59 400 is 1 % below it.
    expect(shortfallPercent("59400", "1", "60000", "1").toFixed()).toBe("1")
    expect(shortfallPercent("60600", "1", "60000", "1").toFixed()).toBe("-1")
    expect(estimateProblem(convert, "BTC", "1", "59400", "60000", "1")).toBeNull()
    expect(estimateProblem(convert, "BTC", "1", "58200", "60000", "1")).toBe(
      "the gateway's estimate for 1 BTC is 58200 USDT_TRX, 3 % below the market value, more than the rule's 2 %"
    )
  })

  it("finds a completed exchange that bought less than quoted beyond the difference allowed", () => {
    expect(completedShortfall("100", "98", "2")).toBeNull()
    expect(completedShortfall("100", "97.5", "2")?.toFixed()).toBe("2.5")
    expect(completedShortfall("100", "99.99", "0")?.toFixed()).toBe("0.01")
    expect(completedShortfall("100", "101", "0")).toBeNull()
  })
})

describe("sweep rules", () => {
  it("sends the balance above the threshold, cut to the coin's places, and nothing at or below it", () => {
    expect(sweepAmount(sweep, "0.812345678", 8)).toBe("0.31234567")
    expect(sweepAmount(sweep, "0.5", 8)).toBeNull()
    expect(sweepAmount(sweep, "0.4", 8)).toBeNull()
  })
})

describe("settlement rules in the policy", () => {
  const rules = { BTC: { convert, sweep: null } }

  it("validates each rule, naming the field", () => {
    expect(moneyOutPolicyPatchSchema.parse({ settlement: rules }).settlement).toEqual(rules)
    const bad = moneyOutPolicyPatchSchema.safeParse({ settlement: { BTC: { convert: { ...convert, max_difference_percent: "120" }, sweep: null } } })
    expect(bad.success).toBe(false)
    expect(JSON.stringify(bad.error?.issues)).toContain("settlement: convert.max_difference_percent must be a percentage")
    const amount = moneyOutPolicyPatchSchema.safeParse({ settlement: { BTC: { convert: null, sweep: { threshold: "-1", to_address: "bc1q" } } } })
    expect(JSON.stringify(amount.error?.issues)).toContain("settlement: sweep.threshold must be a plain decimal")
  })

  it("a new or changed conversion or sweep loosens the policy (it waits the cooling-off); removing one tightens it", () => {
    const now = new Date("2026-11-28T00:00:00Z")
    const current = { ...DEFAULT_MONEY_OUT_POLICY, settlement: rules }
    const [added] = planPolicyChanges(DEFAULT_MONEY_OUT_POLICY, { settlement: rules }, now)
    expect(added).toMatchObject({ field: "settlement", loosens: true, effective_at: new Date(now.getTime() + 24 * 3600_000) })
    const [lowered] = planPolicyChanges(current, { settlement: { BTC: { convert: { ...convert, min_amount: "0.001" }, sweep: null } } }, now)
    expect(lowered.loosens).toBe(true)
    const [removed] = planPolicyChanges(current, { settlement: {} }, now)
    expect(removed).toMatchObject({ loosens: false, effective_at: now })
    expect(planPolicyChanges(current, { settlement: { BTC: { convert: { ...convert }, sweep: null } } }, now)).toEqual([])
  })
})
