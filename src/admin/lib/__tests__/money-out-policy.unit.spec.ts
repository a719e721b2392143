import { changedPolicy, emptySettlementRow, policyBody, policyForm, policyFormErrors, policyValue, type SettlementRow } from "../money-out-policy"
import type { AddressBookEntry, MoneyOutPolicy } from "../types"

const policy: MoneyOutPolicy = { address_book: true, cooling_off_minutes: 1440, approval_threshold: null, daily_limits: { ETH: "100" }, claim_review_threshold: "50", settlement: {} }

describe("the Money out policy form", () => {
  it("shows the policy in force, an unset threshold as empty", () => {
    expect(policyForm(policy)).toEqual({ addressBook: true, coolingOffMinutes: "1440", approvalThreshold: "", claimReviewThreshold: "50", dailyLimits: [{ coin: "ETH", amount: "100" }], settlement: [] })
  })

  it("sends only the fields that changed, an emptied threshold as null (off)", () => {
    const form = { ...policyForm(policy), claimReviewThreshold: "", dailyLimits: [{ coin: "ETH", amount: "100" }, { coin: "BTC", amount: "5" }] }
    expect(changedPolicy(form, policy)).toEqual({ claim_review_threshold: null, daily_limits: { ETH: "100", BTC: "5" } })
  })

  it("sends nothing when nothing changed, whatever the order of the limits", () => {
    const two = { ...policy, daily_limits: { ETH: "100", BTC: "5" } }
    expect(changedPolicy({ ...policyForm(two), dailyLimits: [{ coin: "BTC", amount: "5" }, { coin: "ETH", amount: "100" }] }, two)).toEqual({})
  })

  it("leaves an empty limit row out of what it sends", () => {
    expect(policyBody({ ...policyForm(policy), dailyLimits: [{ coin: "", amount: "" }] }).daily_limits).toEqual({})
  })

  it("names each field that cannot be saved", () => {
    const errors = policyFormErrors({ addressBook: true, coolingOffMinutes: "-1", approvalThreshold: "0", claimReviewThreshold: "1e3", dailyLimits: [{ coin: "ETH", amount: "1" }, { coin: "ETH", amount: "2" }], settlement: [] })
    expect(Object.keys(errors).sort()).toEqual(["approvalThreshold", "claimReviewThreshold", "coolingOffMinutes", "dailyLimits"])
    expect(errors.dailyLimits).toBe("One limit per coin")
  })

  it("says a value in words", () => {
    expect([policyValue(true), policyValue(null), policyValue({}), policyValue({ ETH: "100" }), policyValue(60)]).toEqual(["on", "none", "no limits", "ETH 100", "60"])
  })
})

const TRON = "TXyz1234567890abcdefghij9fQ2aa"
const BECH32 = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"

const settled: MoneyOutPolicy = {
  ...policy,
  settlement: {
    BTC: { convert: { to_currency: "USDT_TRX", to_address: TRON, min_amount: "0.001", max_difference_percent: "2" }, sweep: { threshold: "0.5", to_address: BECH32 } },
    ETH: { convert: null, sweep: { threshold: "10", to_address: "0xabc" } },
  },
}

const entry = (psys_cid: string, address: string, removed_at: string | null = null): AddressBookEntry => ({
  id: `cadr_${psys_cid}_${address}`,
  provider_id: "pp_crypto_crypto",
  psys_cid,
  address,
  label: null,
  added_by: null,
  added_at: "2025-01-01T00:00:00.000Z",
  usable_from: "2025-01-02T00:00:00.000Z",
  removed_at,
  removed_by: null,
  created_at: "2025-01-01T00:00:00.000Z",
  updated_at: "2025-01-01T00:00:00.000Z",
  deleted_at: null,
})

const book = [entry("USDT_TRX", TRON), entry("BTC", BECH32), entry("ETH", "0xabc")]

const row = (fields: Partial<SettlementRow>): SettlementRow => ({ ...emptySettlementRow(), ...fields })
const convertRow = row({ coin: "BTC", convert: true, convertTo: "USDT_TRX", convertAddress: TRON, minAmount: "0.001", maxDifference: "2" })
const sweepRow = row({ coin: "BTC", sweep: true, sweepThreshold: "0.5", sweepAddress: BECH32 })
const formWith = (...settlement: SettlementRow[]) => ({ ...policyForm(policy), settlement })

describe("the settlement rules in the Money out policy form", () => {
  it("shows one row per received coin, a part that is off with its fields empty", () => {
    expect(policyForm(settled).settlement).toEqual([
      { coin: "BTC", convert: true, convertTo: "USDT_TRX", convertAddress: TRON, minAmount: "0.001", maxDifference: "2", sweep: true, sweepThreshold: "0.5", sweepAddress: BECH32 },
      { coin: "ETH", convert: false, convertTo: "", convertAddress: "", minAmount: "", maxDifference: "2", sweep: true, sweepThreshold: "10", sweepAddress: "0xabc" },
    ])
  })

  it("sends the rules it shows unchanged (form and body round trip)", () => {
    expect(policyBody(policyForm(settled)).settlement).toEqual(settled.settlement)
  })

  it("sends a part that is off as null, whatever its fields still hold", () => {
    const form = formWith({ ...convertRow, convert: false, sweep: true, sweepThreshold: "0.5", sweepAddress: BECH32 })
    expect(policyBody(form).settlement).toEqual({ BTC: { convert: null, sweep: { threshold: "0.5", to_address: BECH32 } } })
  })

  it("leaves out a row with no coin or with neither part on", () => {
    expect(policyBody(formWith(emptySettlementRow(), row({ coin: "ETH" }))).settlement).toEqual({})
  })

  it("sends amounts as the server stores them", () => {
    const form = formWith({ ...convertRow, minAmount: "0.0010", maxDifference: "2.50" })
    expect(policyBody(form).settlement).toEqual({ BTC: { convert: { to_currency: "USDT_TRX", to_address: TRON, min_amount: "0.001", max_difference_percent: "2.5" }, sweep: null } })
  })

  it("sends the settlement rules only when they changed", () => {
    expect(changedPolicy(policyForm(settled), settled)).toEqual({})
    expect(changedPolicy({ ...policyForm(settled), settlement: [...policyForm(settled).settlement].reverse() }, settled)).toEqual({})
    expect(changedPolicy({ ...policyForm(settled), settlement: policyForm(settled).settlement.map((r) => ({ ...r, minAmount: r.minAmount === "" ? "" : "0.00100" })) }, settled)).toEqual({})
    expect(changedPolicy(formWith(sweepRow), policy)).toEqual({ settlement: { BTC: { convert: null, sweep: { threshold: "0.5", to_address: BECH32 } } } })
  })

  it("sends the whole map when one coin's rule is removed", () => {
    const [, eth] = policyForm(settled).settlement
    expect(changedPolicy({ ...policyForm(settled), settlement: [eth] }, settled)).toEqual({ settlement: { ETH: settled.settlement.ETH } })
  })

  it("accepts a rule whose addresses are saved entries of the right coins", () => {
    expect(policyFormErrors(formWith({ ...convertRow, sweep: true, sweepThreshold: "0.5", sweepAddress: BECH32 }), book)).toEqual({})
  })

  it("asks for the coin of a row that has a part on", () => {
    expect(policyFormErrors(formWith({ ...sweepRow, coin: "" }), book).settlement).toEqual([{ coin: "Choose the received coin" }])
  })

  it("refuses a second rule for the same coin, on the second row", () => {
    expect(policyFormErrors(formWith(convertRow, sweepRow), book).settlement).toEqual([{}, { coin: "BTC has a rule above: one rule per coin" }])
  })

  it("refuses amounts that are not positive decimals, and a difference outside 0–99.99", () => {
    const errors = policyFormErrors(formWith({ ...convertRow, minAmount: "0", maxDifference: "100" }, row({ coin: "ETH", sweep: true, sweepThreshold: "1e3", sweepAddress: "0xabc" })), book).settlement
    expect(errors).toEqual([
      { minAmount: "An amount in BTC above 0, like 0.001", maxDifference: "A percentage from 0 to 99.99, like 2" },
      { sweepThreshold: "An amount in ETH above 0, like 0.5" },
    ])
  })

  it("accepts a difference of 0 and of 99.99", () => {
    expect(policyFormErrors(formWith({ ...convertRow, maxDifference: "0" }), book)).toEqual({})
    expect(policyFormErrors(formWith({ ...convertRow, maxDifference: "99.99" }), book)).toEqual({})
  })

  it("refuses converting a coin into itself", () => {
    expect(policyFormErrors(formWith({ ...convertRow, convertTo: "BTC", convertAddress: BECH32 }), book).settlement).toEqual([{ convertTo: "Convert to a coin other than BTC" }])
  })

  it("refuses an address that is not a saved entry of the right coin", () => {
    const wrongCoin = formWith({ ...convertRow, convertAddress: BECH32 }, row({ coin: "ETH", sweep: true, sweepThreshold: "1", sweepAddress: TRON }))
    expect(policyFormErrors(wrongCoin, book).settlement).toEqual([
      { convertAddress: "Not a saved USDT_TRX address: choose one from the address book" },
      { sweepAddress: "Not a saved ETH address: choose one from the address book" },
    ])
  })

  it("refuses an address removed from the address book", () => {
    const removed = [entry("USDT_TRX", TRON, "2025-02-01T00:00:00.000Z"), entry("BTC", BECH32)]
    expect(policyFormErrors(formWith(convertRow), removed).settlement).toEqual([{ convertAddress: "Not a saved USDT_TRX address: choose one from the address book" }])
  })

  it("leaves the address book check to the server while the book loads, but still asks for an address", () => {
    expect(policyFormErrors(formWith({ ...convertRow, convertAddress: "Tunknown" }))).toEqual({})
    expect(policyFormErrors(formWith({ ...sweepRow, sweepAddress: "" })).settlement).toEqual([{ sweepAddress: "Choose a saved address to sweep to" }])
  })

  it("says the settlement rules in words, addresses shortened to their start and end", () => {
    expect(policyValue(settled.settlement, "settlement")).toBe(
      "BTC: convert to USDT_TRX (min 0.001, max 2 % below market) → TXyz12…9fQ2aa; sweep above 0.5 → bc1qxy…hx0wlh · ETH: sweep above 10 → 0xabc"
    )
  })

  it("says no settlement rules as none, and a rule with nothing on as kept", () => {
    expect(policyValue({}, "settlement")).toBe("none")
    expect(policyValue({ BTC: { convert: null, sweep: null } })).toBe("BTC: kept as received")
  })
})
