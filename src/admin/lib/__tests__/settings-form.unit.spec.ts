import { changedSettings, type SettingsForm } from "../settings-form"

const loaded: SettingsForm = {
  accepted: ["BTC", "LTC"],
  defaultCoin: null,
  lifetime: "60",
  orderOnDetection: false,
  tolerance: "0.5",
  orderRules: [],
  orderOutcomes: { expired_unpaid: "cancel", underpaid: "cancel", overpaid: "capture", error: "wait" },
  protectOrderStatus: true,
}

describe("the settings page's save sends only what the merchant changed", () => {
  it("sends nothing for a form left as it was loaded", () => {
    expect(changedSettings({ ...loaded }, loaded)).toEqual({})
  })

  it("sends one changed field alone, so the others keep following medusa-config.ts", () => {
    const rules = [{ coins: ["LTC"], below: { amount: "500", currency: "EUR" }, place: "on_detection" as const }]
    expect(changedSettings({ ...loaded, orderRules: rules }, loaded)).toEqual({ order_rules: rules })
  })

  it("sends each field in the server's name and form", () => {
    expect(changedSettings({ ...loaded, lifetime: "30", defaultCoin: "LTC", protectOrderStatus: false }, loaded)).toEqual({
      invoice_lifetime_minutes: 30,
      default_coin: "LTC",
      protect_order_status: false,
    })
  })

  it("takes the accepted coins as a set: the same coins in another order are no change", () => {
    expect(changedSettings({ ...loaded, accepted: ["LTC", "BTC"] }, loaded)).toEqual({})
    expect(changedSettings({ ...loaded, accepted: ["LTC"] }, loaded)).toEqual({ accepted_coins: ["LTC"] })
  })

  it("sends a default coin set back to medusa-config.ts as null", () => {
    expect(changedSettings(loaded, { ...loaded, defaultCoin: "BTC" })).toEqual({ default_coin: null })
  })
})
