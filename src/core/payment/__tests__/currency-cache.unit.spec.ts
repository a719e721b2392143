import type { Currency } from "../../../gateway"
import { allowedPsysCids, chooseCoin, listCurrencies, offeredCoins, resolveCoinId, type CachedCurrency, type RateCacheStore } from "../currency-cache"

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
  invoice_commission_percentage: null,
  ...overrides,
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

describe("chooseCoin", () => {
  const coins = [coin({ psys_cid: "BTC", maintenance: true }), coin({ psys_cid: "LTC", currency: "LTC", fiat_rate: "80" })]
  const total = { amount: "10", currency: "EUR" }
  const noSettings = { allowedCurrencies: [], defaultCurrency: undefined }

  it("takes the shopper's coin when it can take the total", () => {
    expect(chooseCoin("LTC", noSettings, coins, total)).toBe("LTC")
  })

  it("refuses the shopper's coin while the gateway has it under maintenance, naming the coin and data.psys_cid", () => {
    expect(() => chooseCoin("BTC", noSettings, coins, total)).toThrow(
      'data.psys_cid "BTC" is under maintenance at the gateway and takes no payment now; choose another coin (see GET /store/crypto/currencies)'
    )
  })

  it("skips the store's default coin while it is under maintenance, leaving the choice to the gateway", () => {
    expect(chooseCoin(undefined, { allowedCurrencies: [], defaultCurrency: "BTC" }, coins, total)).toBeUndefined()
  })

  it("skips the store's default coin when the total is below its minimum", () => {
    const btc = coin({ psys_cid: "BTC", min_sum_in: "0.001" })
    expect(chooseCoin(undefined, { allowedCurrencies: [], defaultCurrency: "BTC" }, [btc], total)).toBeUndefined()
  })
})

describe("allowedPsysCids", () => {
  const total = { amount: "5", currency: "EUR" }
  // 0.0001 BTC at 60000 is 6 EUR; 0.01 LTC at 80 is 0.80 EUR.
  const btc = coin({ psys_cid: "BTC", min_sum_in: "0.0001" })
  const ltc = coin({ psys_cid: "LTC", currency: "LTC", fiat_rate: "80", min_sum_in: "0.01" })
  const eth = coin({ psys_cid: "ETH", currency: "ETH", fiat_rate: "3000" })

  it("sends no list when the merchant accepts every coin and each can take the total", () => {
    expect(allowedPsysCids([ltc, eth], { allowedCurrencies: [] }, total)).toEqual([])
  })

  it("sends the shop's other coins when the merchant accepts every coin and one's minimum is above the total", () => {
    expect(allowedPsysCids([btc, ltc, eth], { allowedCurrencies: [] }, total)).toEqual(["LTC", "ETH"])
  })

  it("leaves out of the merchant's accepted coins one under maintenance and one above the total's reach", () => {
    expect(allowedPsysCids([btc, ltc, { ...eth, maintenance: true }], { allowedCurrencies: ["BTC", "LTC", "ETH"] }, total)).toEqual(["LTC"])
  })

  it("never sends a coin the shop disabled at the gateway", () => {
    expect(allowedPsysCids([ltc, { ...eth, hidden: true }], { allowedCurrencies: ["LTC", "ETH"] }, total)).toEqual(["LTC"])
  })

  it("refuses when the total is below every coin's minimum, naming the lowest", () => {
    expect(() => allowedPsysCids([btc, ltc], { allowedCurrencies: [] }, { amount: "0.5", currency: "EUR" })).toThrow(
      "No coin can take this payment: the cart total 0.5 EUR is below every coin's minimum at the gateway (the lowest: 0.8 EUR, for LTC)"
    )
  })

  it("refuses when every coin is under maintenance, naming them", () => {
    expect(() => allowedPsysCids([{ ...ltc, maintenance: true }, { ...eth, maintenance: true }], { allowedCurrencies: [] }, total)).toThrow(
      "No coin can take this payment now: every coin this store offers is under maintenance at the gateway (LTC, ETH); try again later"
    )
  })

  it("refuses when some coins are under maintenance and the total is below the others' minimum", () => {
    expect(() => allowedPsysCids([btc, { ...eth, maintenance: true }], { allowedCurrencies: [] }, total)).toThrow(
      "No coin can take this payment now: ETH is under maintenance at the gateway, and the cart total 5 EUR is below the other coins' minimum (the lowest: 6 EUR, for BTC)"
    )
  })

  it("refuses when none of the merchant's accepted coins is enabled at the gateway", () => {
    expect(() => allowedPsysCids([{ ...ltc, hidden: true }], { allowedCurrencies: ["LTC"] }, total)).toThrow(
      "No coin can take this payment: none of the coins this store accepts (LTC) is enabled in the shop's settings at the gateway"
    )
  })
})
