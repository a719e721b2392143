import { DEFAULT_ORDER_OUTCOMES } from "../order-rules"
import { Decimal } from "decimal.js"
import {
  invalidateCryptoSettings,
  mergeCryptoSettings,
  readEffectiveOptionsCached,
  SETTINGS_CACHE_KEY,
  SETTINGS_CACHE_TTL_SECONDS,
  type SettingsCache,
  type SettingsStore,
  type StoredCryptoSettings,
} from "../settings"

const defaults = {
  allowedCurrencies: ["BTC", "ETH"],
  defaultCurrency: "BTC",
  expireMinutes: 60,
  orderOnDetection: true,
  orderRules: [],
  orderOutcomes: DEFAULT_ORDER_OUTCOMES,
  protectOrderStatus: true,
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

describe("settings read on the checkout path, through Medusa's cache module", () => {
  type Row = StoredCryptoSettings & { id: string; provider_id: string }

  /** Medusa's cache module as the payment paths see it: one store shared by every instance (Redis in production). */
  class FakeCache implements SettingsCache {
    readonly entries = new Map<string, { data: unknown; ttl: number | undefined }>()
    invalidations = 0
    failing = false

    async get<T>(key: string): Promise<T | null> {
      if (this.failing) throw new Error("cache unreachable")
      return (this.entries.get(key)?.data as T | undefined) ?? null
    }

    async set(key: string, data: unknown, ttl?: number): Promise<void> {
      if (this.failing) throw new Error("cache unreachable")
      // Redis keeps JSON: what comes back is a copy, never the object that was set.
      this.entries.set(key, { data: JSON.parse(JSON.stringify(data)), ttl })
    }

    async invalidate(key: string): Promise<void> {
      if (this.failing) throw new Error("cache unreachable")
      this.invalidations += 1
      this.entries.delete(key)
    }
  }

  /** The database table, shared by every instance. */
  class SettingsTable {
    rows: Row[] = []
    reads = 0
  }

  /** One instance: our module reading the shared table, and the cache module it shares (or none). */
  function moduleService(table: SettingsTable, cache: SettingsCache | undefined) {
    return {
      cache,
      listCryptoSettings: async (filters: { provider_id?: string }) => {
        table.reads += 1
        return table.rows.filter((row) => filters.provider_id === undefined || row.provider_id === filters.provider_id)
      },
      /** A save as the settings workflow's step makes it (src/workflows/admin/steps/upsert-crypto-settings.ts): the row, then the cache. */
      save: async (data: Partial<Row> & { id: string }) => {
        Object.assign(table.rows.find((candidate) => candidate.id === data.id) ?? {}, data)
        await invalidateCryptoSettings(cache)
      },
    }
  }

  // The fake returns only the columns the settings use, not every generated one.
  const read = (service: ReturnType<typeof moduleService>, providerId = "pp_crypto_crypto") =>
    readEffectiveOptionsCached(service as unknown as SettingsStore, service.cache, providerId, defaults)

  it("reads the database once, then serves the cached rows, for every provider entry", async () => {
    const table = new SettingsTable()
    table.rows = [
      { id: "cset_1", provider_id: "pp_crypto_crypto", invoice_lifetime_minutes: 15 },
      { id: "cset_2", provider_id: "pp_crypto_other", invoice_lifetime_minutes: 45 },
    ]
    const cache = new FakeCache()
    const service = moduleService(table, cache)
    expect((await read(service)).expireMinutes).toBe(15)
    expect((await read(service)).expireMinutes).toBe(15)
    expect((await read(service, "pp_crypto_other")).expireMinutes).toBe(45)
    expect((await read(service, "pp_crypto_none")).expireMinutes).toBe(60)
    expect(table.reads).toBe(1)
    expect(cache.entries.get(SETTINGS_CACHE_KEY)?.ttl).toBe(SETTINGS_CACHE_TTL_SECONDS)
  })

  it("a save on one instance is seen at once by another instance sharing the cache", async () => {
    const table = new SettingsTable()
    table.rows = [{ id: "cset_1", provider_id: "pp_crypto_crypto", underpaid_tolerance_percent: "0", order_on_detection: true }]
    const cache = new FakeCache()
    const server = moduleService(table, cache)
    const worker = moduleService(table, cache)
    expect((await read(worker)).orderOnDetection).toBe(true)

    await server.save({ id: "cset_1", order_on_detection: false, underpaid_tolerance_percent: "2.5" })

    expect(cache.invalidations).toBe(1)
    const after = await read(worker)
    expect(after.orderOnDetection).toBe(false)
    expect(after.underpaidTolerancePercent.toFixed()).toBe("2.5")
    expect(table.reads).toBe(2)
  })

  it("a cache that cannot answer costs a database read, never a checkout or a save", async () => {
    const table = new SettingsTable()
    table.rows = [{ id: "cset_1", provider_id: "pp_crypto_crypto", invoice_lifetime_minutes: 15 }]
    const cache = new FakeCache()
    cache.failing = true
    const service = moduleService(table, cache)
    expect((await read(service)).expireMinutes).toBe(15)
    expect((await read(service)).expireMinutes).toBe(15)
    expect(table.reads).toBe(2)
    await expect(service.save({ id: "cset_1", invoice_lifetime_minutes: 20 })).resolves.toBeUndefined()
    expect(table.rows[0].invoice_lifetime_minutes).toBe(20)
  })

  it("reads the database on every call where there is no cache module", async () => {
    const table = new SettingsTable()
    table.rows = [{ id: "cset_1", provider_id: "pp_crypto_crypto", invoice_lifetime_minutes: 15 }]
    const service = moduleService(table, undefined)
    await read(service)
    table.rows[0].invoice_lifetime_minutes = 25
    expect((await read(service)).expireMinutes).toBe(25)
    expect(table.reads).toBe(2)
  })
})
