import type { Currency } from "../../../gateway"
import { convertToCoin, listCurrencies, offeredCoins, resolveCoinId, type CachedCurrency, type RateCacheStore } from "../currency-cache"

const coin = (overrides: Partial<CachedCurrency>): CachedCurrency => ({
  psys_cid: "BTC",
  currency: "BTC",
  name: "Bitcoin",
  icon: null,
  fiat_rate: "60000",
  min_sum_in: null,
  precision: "8",
  maintenance: false,
  hidden: false,
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

/** A rate cache with nothing stored: every read goes to the (fake) gateway list. */
function emptyCache(): RateCacheStore {
  return {
    listCryptoRateCaches: async () => [],
    createCryptoRateCaches: async () => ({}) as never,
    updateCryptoRateCaches: async () => ({}) as never,
  } as unknown as RateCacheStore
}
const gatewayListing = (currencies: Currency[]) => ({ currencies: { list: async () => currencies } })

describe("offeredCoins", () => {
  it("drops a coin the shop disabled at the gateway (hidden)", async () => {
    const listed = await listCurrencies(
      gatewayListing([
        { cid: "BTC", currency: "BTC", hidden: 0 },
        { cid: "LTC", currency: "LTC", hidden: 1 },
      ]),
      emptyCache(),
      "EUR"
    )
    expect(offeredCoins(listed, []).map((c) => c.psys_cid)).toEqual(["BTC"])
  })

  it("keeps only the coins the merchant accepts among those the shop enabled", () => {
    const all = [coin({ psys_cid: "BTC" }), coin({ psys_cid: "ETH" }), coin({ psys_cid: "LTC", hidden: true })]
    expect(offeredCoins(all, ["ETH", "LTC"]).map((c) => c.psys_cid)).toEqual(["ETH"])
  })
})

describe("resolveCoinId", () => {
  const listing = gatewayListing([
    { cid: "LTC", currency: "LTC" },
    { cid: "USDT_TRX", currency: "USDT" },
    { cid: "USDT_ETH", currency: "USDT" },
  ])

  it("maps the coin code a callback names to the one coin ID that has it", async () => {
    expect(await resolveCoinId(listing, emptyCache(), "EUR", "LTC", { psys_cid: "BTC", currency: "BTC" })).toBe("LTC")
  })

  it("keeps the invoice's own coin when the code is its code", async () => {
    expect(await resolveCoinId(listing, emptyCache(), "EUR", "USDT", { psys_cid: "USDT_ETH", currency: "USDT" })).toBe("USDT_ETH")
  })

  it("leaves a code two coins share unknown rather than guessing", async () => {
    expect(await resolveCoinId(listing, emptyCache(), "EUR", "USDT", { psys_cid: null, currency: null })).toBeNull()
  })
})
