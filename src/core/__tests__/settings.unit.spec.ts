import { Decimal } from "decimal.js"
import { settingsChanged } from "../../modules/crypto/settings-generation"
import { mergeCryptoSettings, readEffectiveOptionsCached, SETTINGS_CACHE_TTL_MS, type StoredCryptoSettings } from "../settings"

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

describe("settings read on the checkout path", () => {
  function storeWith(row: (StoredCryptoSettings & { id: string }) | undefined) {
    const store = {
      row,
      reads: 0,
      listCryptoSettings: async () => {
        store.reads += 1
        return store.row === undefined ? [] : [store.row]
      },
    }
    return store
  }
  const read = (store: ReturnType<typeof storeWith>, now: number) =>
    readEffectiveOptionsCached(store as unknown as Parameters<typeof readEffectiveOptionsCached>[0], "pp_crypto_crypto", defaults, now)

  it("reuses the stored row for a few seconds, then reads it again", async () => {
    const store = storeWith({ id: "cset_1", invoice_lifetime_minutes: 15 })
    expect((await read(store, 1_000)).expireMinutes).toBe(15)
    store.row = { id: "cset_1", invoice_lifetime_minutes: 30 }
    expect((await read(store, 1_000 + SETTINGS_CACHE_TTL_MS - 1)).expireMinutes).toBe(15)
    expect(store.reads).toBe(1)
    expect((await read(store, 1_000 + SETTINGS_CACHE_TTL_MS)).expireMinutes).toBe(30)
    expect(store.reads).toBe(2)
  })

  it("reads again at once after a write to the settings in this process", async () => {
    const store = storeWith(undefined)
    expect((await read(store, 5_000)).expireMinutes).toBe(60)
    store.row = { id: "cset_1", invoice_lifetime_minutes: 20 }
    settingsChanged()
    expect((await read(store, 5_001)).expireMinutes).toBe(20)
    expect(store.reads).toBe(2)
  })

  it("never trusts a row read in the future (a clock moved back)", async () => {
    const store = storeWith({ id: "cset_1", order_on_detection: false })
    await read(store, 10_000)
    await read(store, 9_000)
    expect(store.reads).toBe(2)
  })

  it("keeps one store's rows apart from another's", async () => {
    const first = storeWith({ id: "cset_1", invoice_lifetime_minutes: 15 })
    const second = storeWith(undefined)
    expect((await read(first, 1_000)).expireMinutes).toBe(15)
    expect((await read(second, 1_000)).expireMinutes).toBe(60)
  })
})
