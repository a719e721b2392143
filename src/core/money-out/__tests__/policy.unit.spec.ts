import { DEFAULT_MONEY_OUT_POLICY, effectiveMoneyOutPolicy, pendingPolicyChanges, planPolicyChanges, type MoneyOutPolicy, type StoredPolicyChange } from "../../config/money-out-policy"
import { parseCryptoOptions } from "../../config/options"
import {
  admitMoneyOut,
  approvalProblem,
  dailyLimitRefusal,
  decideAddresses,
  needsApproval,
  needsReview,
  refundBoundRefusal,
  type AddressBookEntry,
  type CountedWithdrawal,
  type MoneyOutRequest,
  type PolicyStore,
} from "../policy"

const now = new Date("2026-11-28T12:00:00.000Z")
const minutes = (n: number) => new Date(now.getTime() + n * 60_000)
const policy = (over: Partial<MoneyOutPolicy> = {}): MoneyOutPolicy => ({ ...DEFAULT_MONEY_OUT_POLICY, ...over })
const entry = (address: string, usableFrom: Date, id = `cadr_${address}`): AddressBookEntry => ({ id, address, added_at: new Date(usableFrom.getTime() - 24 * 60 * 60_000), usable_from: usableFrom })
const change = (field: string, to: unknown, savedAt: Date, effectiveAt: Date, over: Partial<StoredPolicyChange> = {}): StoredPolicyChange => ({
  id: `cpch_${field}_${savedAt.getTime()}`,
  field,
  change: { from: null, to },
  created_at: savedAt,
  effective_at: effectiveAt,
  cancelled_at: null,
  ...over,
})

describe("the deployment's policy (medusa-config moneyOut)", () => {
  const base = { apiKey: "key", baseUrl: "http://gateway.test" }

  it("keeps the address book on with 24 hours of cooling-off when nothing is set", () => {
    expect(parseCryptoOptions(base).moneyOut).toEqual({ address_book: true, cooling_off_minutes: 1440, approval_threshold: null, daily_limits: {}, claim_review_threshold: null, settlement: {} })
  })

  it("takes a shorter cooling-off and keeps the address book on", () => {
    expect(parseCryptoOptions({ ...base, moneyOut: { cooling_off_minutes: 0 } }).moneyOut).toEqual({ address_book: true, cooling_off_minutes: 0, approval_threshold: null, daily_limits: {}, claim_review_threshold: null, settlement: {} })
  })

  it("names the option of a wrong value", () => {
    expect(() => parseCryptoOptions({ ...base, moneyOut: { cooling_off_minutes: -1 } })).toThrow("moneyOut.cooling_off_minutes: cooling_off_minutes must be at least 0")
    expect(() => parseCryptoOptions({ ...base, moneyOut: { addressBook: false } })).toThrow("unknown option(s) moneyOut.addressBook")
  })
})

describe("the policy in force", () => {
  const defaults = policy()

  it("is the deployment's without saved changes", () => {
    expect(effectiveMoneyOutPolicy(defaults, [], now)).toEqual(defaults)
  })

  it("takes a change whose time has come, not one still in its cooling-off", () => {
    const off = change("address_book", false, minutes(-10), minutes(60))
    expect(effectiveMoneyOutPolicy(defaults, [off], now).address_book).toBe(true)
    expect(effectiveMoneyOutPolicy(defaults, [off], minutes(60)).address_book).toBe(false)
  })

  it("ignores a cancelled change and a value that no longer parses", () => {
    const cancelled = change("cooling_off_minutes", 5, minutes(-10), minutes(-5), { cancelled_at: minutes(-6) })
    const garbage = change("cooling_off_minutes", "soon", minutes(-9), minutes(-9))
    const unknown = change("retired_rule", true, minutes(-8), minutes(-8))
    expect(effectiveMoneyOutPolicy(defaults, [cancelled, garbage, unknown], now)).toEqual(defaults)
  })

  it("lets the later saved of two due changes win, whatever order they come in", () => {
    const first = change("cooling_off_minutes", 10, minutes(-30), minutes(-30))
    const second = change("cooling_off_minutes", 120, minutes(-20), minutes(-20))
    expect(effectiveMoneyOutPolicy(defaults, [second, first], now).cooling_off_minutes).toBe(120)
  })

  it("lists the changes still waiting, soonest first", () => {
    const later = change("address_book", false, minutes(-1), minutes(100))
    const sooner = change("cooling_off_minutes", 5, minutes(-2), minutes(50))
    const due = change("cooling_off_minutes", 600, minutes(-3), minutes(-3))
    expect(pendingPolicyChanges([later, due, sooner], now).map((row) => row.id)).toEqual([sooner.id, later.id])
  })
})

describe("a save of the policy", () => {
  it("tightens at once: the address book on, a longer cooling-off", () => {
    const planned = planPolicyChanges(policy({ address_book: false, cooling_off_minutes: 60 }), { address_book: true, cooling_off_minutes: 120 }, now)
    expect(planned).toEqual([
      { field: "address_book", from: false, to: true, loosens: false, effective_at: now },
      { field: "cooling_off_minutes", from: 60, to: 120, loosens: false, effective_at: now },
    ])
  })

  it("loosens only after the cooling-off in force: the address book off, a shorter cooling-off", () => {
    const planned = planPolicyChanges(policy({ cooling_off_minutes: 1440 }), { address_book: false, cooling_off_minutes: 10 }, now)
    expect(planned.map((p) => [p.field, p.loosens, p.effective_at])).toEqual([
      ["address_book", true, minutes(1440)],
      ["cooling_off_minutes", true, minutes(1440)],
    ])
  })

  it("loosens at once where the merchant set no cooling-off", () => {
    const [planned] = planPolicyChanges(policy({ cooling_off_minutes: 0 }), { address_book: false }, now)
    expect(planned).toMatchObject({ loosens: true, effective_at: now })
  })

  it("changes nothing for a value already in force", () => {
    expect(planPolicyChanges(policy({ daily_limits: { ETH: "100", BTC: "5" } }), { address_book: true, cooling_off_minutes: 1440, approval_threshold: null, daily_limits: { BTC: "5", ETH: "100" } }, now)).toEqual([])
  })

  it("tightens an approval threshold set or lowered, loosens one raised or removed", () => {
    const loosens = (from: string | null, to: string | null) => planPolicyChanges(policy({ approval_threshold: from }), { approval_threshold: to }, now)[0]?.loosens
    expect(loosens(null, "500")).toBe(false)
    expect(loosens("500", "100")).toBe(false)
    expect(loosens("500", "1000")).toBe(true)
    expect(loosens("500", null)).toBe(true)
    expect(loosens("500", "500")).toBeUndefined()
  })
})

describe("where money may go", () => {
  const payee = (address: string, index = 0) => ({ field: `recipients[${index}].address`, address })

  it("refuses an address not in the book, naming the rule and the field", () => {
    const decision = decideAddresses(policy(), [], "ETH", [payee("0xabc")], now)
    expect(decision).toMatchObject({ allowed: false, refusal: { rule: "address_book", field: "recipients[0].address", usable_from: null } })
    if (decision.allowed) throw new Error("allowed")
    expect(decision.refusal.message).toBe(
      "Refused by the money-out policy (rule: address book): 0xabc is not in the address book for ETH: save it under Settings → Crypto → Money out; it becomes usable after the cooling-off (1440 minutes). Nothing was sent (field: recipients[0].address)"
    )
  })

  it("refuses a saved address during its cooling-off, saying when it becomes usable", () => {
    const decision = decideAddresses(policy(), [entry("0xabc", minutes(30))], "ETH", [payee("0xabc")], now)
    if (decision.allowed) throw new Error("allowed")
    expect(decision.refusal).toMatchObject({ rule: "cooling_off", usable_from: minutes(30) })
    expect(decision.refusal.message).toContain(`(rule: cooling-off): 0xabc was saved at ${minutes(30 - 1440).toISOString()} and becomes usable at ${minutes(30).toISOString()}`)
  })

  it("lets a saved address through from the moment its cooling-off ends, naming the entry", () => {
    expect(decideAddresses(policy(), [entry("0xabc", now, "cadr_1")], "ETH", [payee("0xabc")], now)).toEqual({ allowed: true, address_ids: ["cadr_1"] })
  })

  it("compares addresses exactly (some coins' addresses are case-sensitive)", () => {
    expect(decideAddresses(policy(), [entry("1AbC", minutes(-1))], "BTC", [payee("1abc")], now).allowed).toBe(false)
  })

  it("names the first line of a mass payout that fails", () => {
    const decision = decideAddresses(policy(), [entry("0xa", minutes(-1))], "ETH", [payee("0xa", 0), payee("0xb", 1)], now)
    expect(decision).toMatchObject({ allowed: false, refusal: { field: "recipients[1].address", address: "0xb" } })
  })

  it("lets any address through with the address book off, still naming the entries that match", () => {
    expect(decideAddresses(policy({ address_book: false }), [entry("0xa", minutes(60), "cadr_a")], "ETH", [payee("0xa"), payee("0xb", 1)], now)).toEqual({ allowed: true, address_ids: ["cadr_a"] })
  })
})

describe("daily limits", () => {
  const loosens = (from: Record<string, string>, to: Record<string, string>) => planPolicyChanges(policy({ daily_limits: from }), { daily_limits: to }, now)[0]?.loosens

  it("tightens a new or lowered limit, loosens a raised or removed one", () => {
    expect(loosens({}, { ETH: "100" })).toBe(false)
    expect(loosens({ ETH: "100" }, { ETH: "50", BTC: "10" })).toBe(false)
    expect(loosens({ ETH: "100" }, { ETH: "150" })).toBe(true)
    expect(loosens({ ETH: "100", BTC: "10" }, { BTC: "10" })).toBe(true)
  })

  const row = (value: string | null, over: Partial<CountedWithdrawal> = {}): CountedWithdrawal => ({ status: "completed", resolution: null, value_amount: value, value_currency: "USD", ...over })
  const limited = policy({ daily_limits: { ETH: "100" } })

  it("has no limit for a coin not listed", () => {
    expect(dailyLimitRefusal(limited, "BTC", "1000000", "USD", [])).toBeNull()
  })

  it("lets the sum reach the limit, refuses the one that would pass it, naming what was spent", () => {
    expect(dailyLimitRefusal(limited, "ETH", "40", "USD", [row("30"), row("30")])).toBeNull()
    const refusal = dailyLimitRefusal(limited, "ETH", "40.01", "USD", [row("30"), row("30")])
    expect(refusal).toMatchObject({ rule: "daily_limit", field: "recipients" })
    expect(refusal?.message).toBe(
      "Refused by the money-out policy (rule: daily limit): ETH withdrawals of the last 24 hours are worth 60 USD; this one (40.01 USD) would pass the daily limit of 100 USD. Nothing was sent (field: recipients)"
    )
  })

  it("does not count what never left: rejected, confirmed not sent, failed and decided", () => {
    const gone = [row("90", { status: "rejected" }), row("90", { status: "not_sent" }), row("90", { status: "error", resolution: "failed" })]
    expect(dailyLimitRefusal(limited, "ETH", "100", "USD", gone)).toBeNull()
    expect(dailyLimitRefusal(limited, "ETH", "20", "USD", [row("90", { status: "awaiting_approval" })])).not.toBeNull()
  })

  it("refuses a withdrawal whose value is unknown while the coin has a limit", () => {
    expect(dailyLimitRefusal(limited, "ETH", null, "USD", [])?.message).toContain("no USD rate for ETH")
  })
})

describe("refunds to a shopper", () => {
  it("stay within the coins the order received, this refund included", () => {
    expect(refundBoundRefusal("order_1", "ETH", "0.5", "0.5", "amount")).toBeNull()
    expect(refundBoundRefusal("order_1", "ETH", "0.5", "0.5000001", "amount")?.message).toBe(
      "Refused by the money-out policy (rule: what the order received): order order_1's refunds in ETH (0.5000001, this one included) would be more than the 0.5 ETH it received. Nothing was sent (field: amount)"
    )
  })

  it("wait for review when claimed above the claim review threshold", () => {
    expect(needsReview(policy(), "1000")).toBe(false)
    expect(needsReview(policy({ claim_review_threshold: "50" }), "50")).toBe(false)
    expect(needsReview(policy({ claim_review_threshold: "50" }), "50.5")).toBe(true)
    expect(needsReview(policy({ claim_review_threshold: "50" }), null)).toBe(true)
  })
})

describe("approval above a threshold", () => {
  it("needs none without a threshold", () => {
    expect(needsApproval(policy(), "1000000")).toBe(false)
    expect(needsApproval(policy(), null)).toBe(false)
  })

  it("needs it strictly above the threshold, and whenever the value is unknown", () => {
    const withThreshold = policy({ approval_threshold: "500" })
    expect(needsApproval(withThreshold, "500")).toBe(false)
    expect(needsApproval(withThreshold, "500.01")).toBe(true)
    expect(needsApproval(withThreshold, null)).toBe(true)
  })

  it("lets only another admin approve, and only a withdrawal waiting for it", () => {
    const waiting = { id: "cwdr_1", status: "awaiting_approval" as const, requested_by: "user_a" }
    expect(approvalProblem(waiting, "user_b")).toBeNull()
    expect(approvalProblem(waiting, "user_a")).toContain("another admin must approve it")
    expect(approvalProblem(waiting, null)).toContain("needs the approval of an admin user")
    expect(approvalProblem({ ...waiting, status: "rejected" }, "user_b")).toContain("is not waiting for approval (status rejected)")
  })
})

describe("admitting a payment", () => {
  const request: MoneyOutRequest = { kind: "withdrawal", provider_id: "pp_crypto_crypto", psys_cid: "ETH", payees: [{ field: "recipients[0].address", address: "0xabc" }], actor: "user_1", details: { total_amount: "0.5" } }
  const storeWith = (book: AddressBookEntry[], changes: StoredPolicyChange[] = []) => {
    const audits: Array<Record<string, unknown>> = []
    const store = {
      listCryptoPolicyChanges: async () => changes,
      listCryptoAddresses: async () => book,
      createCryptoMoneyOutAudits: async (row: Record<string, unknown>) => {
        audits.push(row)
        return row
      },
    } as unknown as PolicyStore // the three methods admitMoneyOut calls, over arrays
    return { store, audits }
  }

  it("audits a refusal (who, which rule, which address) and throws it", async () => {
    const { store, audits } = storeWith([])
    await expect(admitMoneyOut(store, policy(), request, now)).rejects.toThrow("rule: address book")
    expect(audits).toEqual([expect.objectContaining({ action: "withdrawal_refused", actor: "user_1", rule: "address_book", details: expect.objectContaining({ address: "0xabc", total_amount: "0.5" }) })])
  })

  it("lets a usable saved address through without auditing yet (the caller audits the record)", async () => {
    const { store, audits } = storeWith([entry("0xabc", minutes(-1), "cadr_1")])
    await expect(admitMoneyOut(store, policy(), request, now)).resolves.toEqual({ address_ids: ["cadr_1"], policy: policy() })
    expect(audits).toEqual([])
  })

  it("follows the saved policy over the deployment's: the address book switched off once its cooling-off passed", async () => {
    const { store } = storeWith([], [change("address_book", false, minutes(-1500), minutes(-60))])
    await expect(admitMoneyOut(store, policy(), request, now)).resolves.toMatchObject({ address_ids: [], policy: { address_book: false } })
  })
})
