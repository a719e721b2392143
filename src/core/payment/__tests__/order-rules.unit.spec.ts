import { Decimal } from "decimal.js"
import type { Operation } from "../../../gateway"
import { assessUnderInvoicePolicy, placementOf, statusPolicy, type OperationReader, type PlacementFacts } from "../invoice-chain"
import { DEFAULT_ORDER_OUTCOMES, orderRulesProblems, orderRulesSchema, readOrderRules, type OrderRule } from "../../config/order-rules"
import { mapInvoiceStatus, type StatusPolicy } from "../payment-state"
import { mergeCryptoSettings, settingChanges } from "../../config/settings"

const facts = (psys_cid: string | null, source_amount: string | null = "100", source_currency: string | null = "EUR"): PlacementFacts => ({ psys_cid, source_amount, source_currency })
const onDetectionBelow500 = { coins: [], below: { amount: "500", currency: "EUR" }, place: "on_detection" } satisfies OrderRule
const fastCoins = { coins: ["LTC", "USDT_TRX"], below: null, place: "on_detection" } satisfies OrderRule

describe("placementOf: first matching rule, else the default", () => {
  it("without rules, the order-on-detection setting decides", () => {
    expect(placementOf([], true, facts("BTC"))).toBe(true)
    expect(placementOf([], false, facts("BTC"))).toBe(false)
  })

  it("an amount rule places invoices strictly below the amount, in the invoice's currency", () => {
    expect(placementOf([onDetectionBelow500], false, facts("BTC", "499.99"))).toBe(true)
    expect(placementOf([onDetectionBelow500], false, facts("BTC", "500"))).toBe(false)
    expect(placementOf([onDetectionBelow500], false, facts("BTC", "500.01"))).toBe(false)
  })

  it("an amount rule in another currency than the invoice's does not match", () => {
    expect(placementOf([onDetectionBelow500], false, facts("BTC", "10", "USD"))).toBe(false)
    expect(placementOf([onDetectionBelow500], false, facts("BTC", "10", "eur"))).toBe(true)
  })

  it("a coin rule matches only the listed coins", () => {
    expect(placementOf([fastCoins], false, facts("LTC"))).toBe(true)
    expect(placementOf([fastCoins], false, facts("USDT_TRX"))).toBe(true)
    expect(placementOf([fastCoins], false, facts("BTC"))).toBe(false)
  })

  it("a coin rule does not match while the shopper has not chosen a coin (hosted page)", () => {
    expect(placementOf([fastCoins], false, facts(null))).toBe(false)
  })

  it("a rule with coins and an amount needs both", () => {
    const both = { coins: ["LTC", "USDT_TRX"], below: { amount: "500", currency: "EUR" }, place: "on_detection" } satisfies OrderRule
    expect(placementOf([both], false, facts("LTC", "499"))).toBe(true)
    expect(placementOf([both], false, facts("LTC", "501"))).toBe(false)
    expect(placementOf([both], false, facts("BTC", "10"))).toBe(false)
  })

  it("a rule for any coin and any amount always matches (the list's last word)", () => {
    expect(placementOf([{ coins: [], below: null, place: "on_confirmation" }], true, facts(null, null, null))).toBe(false)
  })

  it("the first matching rule wins over later ones", () => {
    const rules: OrderRule[] = [{ coins: ["BTC"], below: null, place: "on_confirmation" }, onDetectionBelow500]
    expect(placementOf(rules, true, facts("BTC", "10"))).toBe(false)
    expect(placementOf(rules, false, facts("LTC", "10"))).toBe(true)
  })
})

describe("orderRulesSchema", () => {
  const problems = (value: unknown) => {
    const parsed = orderRulesSchema.safeParse(value)
    return parsed.success ? [] : orderRulesProblems(parsed.error)
  }

  it("accepts the example rule and normalizes the currency code", () => {
    const parsed = orderRulesSchema.parse([{ coins: ["LTC", "USDT_TRX"], below: { amount: "500", currency: "eur" }, place: "on_detection" }])
    expect(parsed).toEqual([{ coins: ["LTC", "USDT_TRX"], below: { amount: "500", currency: "EUR" }, place: "on_detection" }])
  })

  it("names the field of each problem", () => {
    expect(problems([fastCoins, { coins: [], below: { amount: "0", currency: "EUR" }, place: "on_detection" }])).toEqual(["order_rules[1].below.amount must be greater than 0"])
    expect(problems([{ coins: [], below: { amount: "-5", currency: "EUR" }, place: "on_detection" }])[0]).toMatch(/^order_rules\[0\]\.below\.amount must be a plain decimal/)
    expect(problems([{ coins: [], below: { amount: "5.001", currency: "EUR" }, place: "on_detection" }])).toEqual(["order_rules[0].below.amount at most 2 decimal places for EUR"])
    expect(problems([{ coins: [], below: { amount: "5", currency: "EURO" }, place: "on_detection" }])[0]).toMatch(/^order_rules\[0\]\.below\.currency must be a 3-letter/)
    expect(problems([{ coins: ["BTC", "no coin"], below: null, place: "on_detection" }])[0]).toMatch(/^order_rules\[0\]\.coins\[1\] must be a coin ID/)
    expect(problems([{ coins: [], below: null, place: "sometimes" }])[0]).toMatch(/^order_rules\[0\]\.place must be "on_detection" or "on_confirmation"/)
    expect(problems([{ coins: [], below: null, place: "on_detection", extra: 1 }])[0]).toMatch(/^order_rules\[0\]/)
  })

  it("holds at most 20 rules", () => {
    expect(problems(Array.from({ length: 21 }, () => fastCoins))).toEqual(["order_rules at most 20 rules"])
  })

  it("reads stored rules that no longer parse as none", () => {
    expect(readOrderRules([{ coins: ["LTC"], below: null, place: "on_detection" }])).toEqual([{ coins: ["LTC"], below: null, place: "on_detection" }])
    expect(readOrderRules([{ place: "later" }])).toEqual([])
    expect(readOrderRules(null)).toEqual([])
  })
})

describe("the settings carry the rules and protection", () => {
  const defaults = { allowedCurrencies: [], defaultCurrency: undefined, expireMinutes: 60, orderOnDetection: true, orderRules: [], orderOutcomes: DEFAULT_ORDER_OUTCOMES, protectOrderStatus: true, underpaidTolerancePercent: new Decimal(0) }

  it("protection is on unless the merchant turned it off; stored rules replace none", () => {
    expect(mergeCryptoSettings(defaults, { protect_order_status: null }).protectOrderStatus).toBe(true)
    expect(mergeCryptoSettings(defaults, { protect_order_status: false }).protectOrderStatus).toBe(false)
    expect(mergeCryptoSettings(defaults, { order_rules: [fastCoins] }).orderRules).toEqual([fastCoins])
    expect(mergeCryptoSettings(defaults, { order_rules: { rules: [fastCoins] } }).orderRules).toEqual([fastCoins])
  })

  it("the audit trail records only the fields a save changes, rules as lists", () => {
    const stored = { order_on_detection: true, order_rules: { rules: [fastCoins] }, protect_order_status: null }
    expect(settingChanges(stored, { order_on_detection: true, order_rules: [fastCoins], protect_order_status: false, default_coin: undefined })).toEqual({
      protect_order_status: { from: null, to: false },
    })
    expect(settingChanges(undefined, { order_rules: [onDetectionBelow500] })).toEqual({ order_rules: { from: null, to: [onDetectionBelow500] } })
    expect(settingChanges(stored, { order_rules: null })).toEqual({ order_rules: { from: [fastCoins], to: null } })
  })
})

describe("the invoice's status policy", () => {
  const options = { orderOnDetection: false, orderRules: [fastCoins], orderOutcomes: DEFAULT_ORDER_OUTCOMES, underpaidTolerancePercent: new Decimal("0.5") }

  it("chooses order on detection by the rules; the status map stays the one map", () => {
    const ltc = statusPolicy(options, facts("LTC"))
    const btc = statusPolicy(options, facts("BTC"))
    expect(ltc).toEqual({ orderOnDetection: true, underpaidTolerancePercent: new Decimal("0.5"), outcomes: DEFAULT_ORDER_OUTCOMES })
    expect(mapInvoiceStatus({ status: "pending" }, ltc)).toEqual({ kind: "detected", sessionStatus: "pending_authorization" })
    expect(mapInvoiceStatus({ status: "pending" }, btc)).toEqual({ kind: "detected", sessionStatus: "pending" })
  })

  /** A gateway with one operation, INV-1, in `currency`, counting its reads. */
  const gatewayOf = (currency: string) => {
    const gateway = {
      reads: 0,
      operations: {
        retrieve: async (id: string) => {
          gateway.reads += 1
          return { id, status: "pending", currency } as unknown as Operation
        },
      },
    }
    return gateway
  }

  it("re-maps under the resolved coin's policy when the coin is learnt from the reading (plain shop), from the one gateway read", async () => {
    const gateway = gatewayOf("LTC")
    const policies: StatusPolicy[] = []
    const placed = await assessUnderInvoicePolicy(
      options,
      facts(null),
      gateway,
      async (policy, reader) => {
        policies.push(policy)
        const operation = await reader.operations.retrieve("INV-1")
        return { currency: operation.currency, outcome: mapInvoiceStatus({ status: operation.status }, policy) }
      },
      async (reading) => (reading.currency === "LTC" ? "LTC" : null)
    )
    expect(policies.map((policy) => policy.orderOnDetection)).toEqual([false, true])
    expect(placed.policy.orderOnDetection).toBe(true)
    expect(placed.psys_cid).toBe("LTC")
    expect(placed.reading.outcome).toEqual({ kind: "detected", sessionStatus: "pending_authorization" })
    // Mapped twice, read once: the second pass asks the gateway nothing.
    expect(gateway.reads).toBe(1)
  })

  it("maps once when the resolved coin places the order the same way", async () => {
    const gateway = gatewayOf("BTC")
    let maps = 0
    const placed = await assessUnderInvoicePolicy(
      options,
      facts(null),
      gateway,
      async (policy, reader) => {
        maps += 1
        return mapInvoiceStatus({ status: (await reader.operations.retrieve("INV-1")).status }, policy)
      },
      async () => "BTC"
    )
    expect(maps).toBe(1)
    expect(gateway.reads).toBe(1)
    expect(placed).toMatchObject({ psys_cid: "BTC", policy: { orderOnDetection: false } })
  })

  it("reads the gateway afresh on the next assessment: nothing is kept between two", async () => {
    const gateway = gatewayOf("BTC")
    const assess = async (policy: StatusPolicy, reader: OperationReader) => mapInvoiceStatus({ status: (await reader.operations.retrieve("INV-1")).status }, policy)
    await assessUnderInvoicePolicy(options, facts(null), gateway, assess, async () => "BTC")
    await assessUnderInvoicePolicy(options, facts(null), gateway, assess, async () => "BTC")
    expect(gateway.reads).toBe(2)
  })
})
