import { convertToCoin, type CachedCurrency } from "../currency-cache"

const coin = (overrides: Partial<CachedCurrency>): CachedCurrency => ({
  psys_cid: "BTC",
  currency: "BTC",
  name: "Bitcoin",
  icon: null,
  fiat_rate: "60000",
  min_sum_in: null,
  precision: "8",
  maintenance: false,
  ...overrides,
})

describe("convertToCoin", () => {
  it("divides the fiat amount by the coin's fiat rate, rounding up to the coin's decimals", () => {
    expect(convertToCoin("10.5", coin({}))).toBe("0.000175")
  })

  it("rounds up so the figure shown is never below the invoice", () => {
    expect(convertToCoin("10", coin({ fiat_rate: "3" }))).toBe("3.33333334")
  })

  it("uses 8 decimals when the precision is unknown", () => {
    expect(convertToCoin("1", coin({ fiat_rate: "3", precision: null }))).toBe("0.33333334")
  })

  it("has no amount without a rate", () => {
    expect(convertToCoin("10", coin({ fiat_rate: null }))).toBeNull()
    expect(convertToCoin("10", coin({ fiat_rate: "0" }))).toBeNull()
  })
})
