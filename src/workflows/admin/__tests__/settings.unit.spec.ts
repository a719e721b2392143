import { Decimal } from "decimal.js"
import { consumeCryptoRefundAuthorization } from "../../../modules/crypto/refund-authorization"
import { mergeCryptoSettings } from "../../../modules/crypto/settings"

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

describe("crypto refund authorization", () => {
  const authorization = { withdrawal_id: "cwdr_1", amount: "4.25", psys_cid: "BTC", coin_amount: "0.0001", rate: "42500", address: "bc1q", tx_urls: [] }

  it("accepts the refund of exactly the authorized amount and records it", () => {
    const data = consumeCryptoRefundAuthorization({ txn_id: "INV-1", crypto_refund_authorization: authorization }, "4.250", "ref_1")
    expect(data).toEqual({ txn_id: "INV-1", crypto_refunds: [{ ...authorization, refund_id: "ref_1" }] })
  })

  it("refuses a plain refund without an authorization", () => {
    expect(consumeCryptoRefundAuthorization({ txn_id: "INV-1" }, "4.25", "ref_1")).toBeUndefined()
  })

  it("refuses a refund of another amount than the authorized one", () => {
    expect(consumeCryptoRefundAuthorization({ crypto_refund_authorization: authorization }, "5", "ref_1")).toBeUndefined()
  })
})
