import { Decimal } from "decimal.js"
import { mergeCryptoSettings } from "../settings"

const defaults = {
  allowedCurrencies: ["BTC", "ETH"],
  defaultCurrency: "BTC",
  expireMinutes: 60,
  orderOnDetection: true,
  underpaidTolerancePercent: new Decimal(0),
  apiKey: "secret",
}

describe("effective crypto settings", () => {
  it("keeps the medusa-config options when nothing is stored", () => {
    expect(mergeCryptoSettings(defaults, undefined)).toBe(defaults)
  })

  it("puts stored values over the config and keeps the key from the config", () => {
    const merged = mergeCryptoSettings(defaults, { accepted_coins: ["LTC"], default_coin: "LTC", invoice_lifetime_minutes: 15, order_on_detection: false, underpaid_tolerance_percent: "0.5" })
    expect(merged).toMatchObject({ allowedCurrencies: ["LTC"], defaultCurrency: "LTC", expireMinutes: 15, orderOnDetection: false, apiKey: "secret" })
    expect(merged.underpaidTolerancePercent.toFixed()).toBe("0.5")
  })

  it("treats a stored null as the config value", () => {
    expect(mergeCryptoSettings(defaults, { default_coin: null, order_on_detection: null }).orderOnDetection).toBe(true)
  })

  it("falls back to an accepted coin when the default coin is no longer accepted", () => {
    expect(mergeCryptoSettings(defaults, { accepted_coins: ["ETH"] }).defaultCurrency).toBe("ETH")
  })
})
