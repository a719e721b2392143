import { changedPolicy, policyBody, policyForm, policyFormErrors, policyValue } from "../money-out-policy"
import type { MoneyOutPolicy } from "../types"

const policy: MoneyOutPolicy = { address_book: true, cooling_off_minutes: 1440, approval_threshold: null, daily_limits: { ETH: "100" }, claim_review_threshold: "50" }

describe("the Money out policy form", () => {
  it("shows the policy in force, an unset threshold as empty", () => {
    expect(policyForm(policy)).toEqual({ addressBook: true, coolingOffMinutes: "1440", approvalThreshold: "", claimReviewThreshold: "50", dailyLimits: [{ coin: "ETH", amount: "100" }] })
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
    const errors = policyFormErrors({ addressBook: true, coolingOffMinutes: "-1", approvalThreshold: "0", claimReviewThreshold: "1e3", dailyLimits: [{ coin: "ETH", amount: "1" }, { coin: "ETH", amount: "2" }] })
    expect(Object.keys(errors).sort()).toEqual(["approvalThreshold", "claimReviewThreshold", "coolingOffMinutes", "dailyLimits"])
    expect(errors.dailyLimits).toBe("One limit per coin")
  })

  it("says a value in words", () => {
    expect([policyValue(true), policyValue(null), policyValue({}), policyValue({ ETH: "100" }), policyValue(60)]).toEqual(["on", "none", "no limits", "ETH 100", "60"])
  })
})
