import { Decimal } from "decimal.js"
import { isDecimalString } from "../../gateway"
import type { ICacheService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import type CryptoModuleService from "../../modules/crypto/service"
import type { ResolvedCryptoOptions } from "./options"
import { readOrderOutcomes, readOrderRules } from "./order-rules"

/** The settings a merchant edits in the admin (Settings → Crypto); all optional: null = config. */
export interface StoredCryptoSettings {
  accepted_coins?: string[] | null
  default_coin?: string | null
  invoice_lifetime_minutes?: number | null
  order_on_detection?: boolean | null
  underpaid_tolerance_percent?: string | null
  /** The order rules (src/core/config/order-rules.ts) as stored JSON; null = none. */
  order_rules?: unknown
  /** What each invoice outcome does to its order (src/core/config/order-rules.ts) as stored JSON; null = defaults. */
  order_outcomes?: unknown
  /** Null = on (protection is the safe default). */
  protect_order_status?: boolean | null
}

/** The subset of the provider options the admin can override. */
export type EditableCryptoOptions = Pick<
  ResolvedCryptoOptions,
  "allowedCurrencies" | "defaultCurrency" | "expireMinutes" | "orderOnDetection" | "orderRules" | "orderOutcomes" | "protectOrderStatus" | "underpaidTolerancePercent"
>

const isCoinList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((coin) => typeof coin === "string")

/**
 * The options a checkout uses: the `medusa-config.ts` options (`defaults`) with the stored admin
 * settings on top. A stored null keeps the config value. Pure; `apiKey`, `baseUrl` and the URLs
 * always come from the config (the secret key is never stored).
 */
export function mergeCryptoSettings<T extends EditableCryptoOptions>(defaults: T, stored: StoredCryptoSettings | undefined | null): T {
  if (stored === undefined || stored === null) {
    return defaults
  }
  const allowedCurrencies = isCoinList(stored.accepted_coins) ? stored.accepted_coins : defaults.allowedCurrencies
  let defaultCurrency = stored.default_coin ?? defaults.defaultCurrency
  // A default coin the accepted list no longer holds would make every checkout fail: fall back.
  if (defaultCurrency !== undefined && allowedCurrencies.length > 0 && !allowedCurrencies.includes(defaultCurrency)) {
    defaultCurrency = allowedCurrencies[0]
  }
  const tolerance = stored.underpaid_tolerance_percent
  return {
    ...defaults,
    allowedCurrencies,
    defaultCurrency,
    expireMinutes: stored.invoice_lifetime_minutes ?? defaults.expireMinutes,
    orderOnDetection: stored.order_on_detection ?? defaults.orderOnDetection,
    // Rules stored before a change of their shape, or hand-written ones that do not parse, count as none.
    orderRules: stored.order_rules === null || stored.order_rules === undefined ? defaults.orderRules : readOrderRules(stored.order_rules),
    orderOutcomes: stored.order_outcomes === null || stored.order_outcomes === undefined ? defaults.orderOutcomes : readOrderOutcomes(stored.order_outcomes, defaults.orderOutcomes),
    protectOrderStatus: stored.protect_order_status ?? defaults.protectOrderStatus,
    underpaidTolerancePercent:
      tolerance !== undefined && tolerance !== null && isDecimalString(tolerance) ? new Decimal(tolerance) : defaults.underpaidTolerancePercent,
  }
}

/** The part of our module the settings live in (table `crypto_setting`). */
export type SettingsStore = Pick<CryptoModuleService, "listCryptoSettings">

/** A provider's stored admin settings row, if any. */
export async function readStoredSettings(
  store: SettingsStore,
  providerId: string
): Promise<(StoredCryptoSettings & { id: string; updated_by?: string | null; updated_at?: Date | string }) | undefined> {
  const [row] = await store.listCryptoSettings({ provider_id: providerId }, { take: 1 })
  return row ?? undefined
}

/**
 * The options the next checkout uses: `defaults` (the provider's medusa-config options) with the
 * settings the merchant saved in the admin on top. Read from the database on every call (the
 * admin's path; checkouts use `readEffectiveOptionsCached`, through Medusa's cache module), so a
 * change reaches every server instance without a restart.
 */
export async function readEffectiveOptions<T extends EditableCryptoOptions>(store: SettingsStore, providerId: string, defaults: T): Promise<T> {
  return mergeCryptoSettings(defaults, await readStoredSettings(store, providerId))
}

/** The part of Medusa's cache module (`Modules.CACHE`: in-memory by default, Redis in production) the settings use. */
export type SettingsCache = Pick<ICacheService, "get" | "set" | "invalidate">

/**
 * Where the stored settings rows of every provider entry live in the cache module: one key, so a
 * write to any row (the module service does not always know its provider) invalidates it at once.
 */
export const SETTINGS_CACHE_KEY = "medusa-payment-crypto:settings:v1"

/**
 * How long a cached copy lives (seconds). Every save invalidates it (the settings workflow's step,
 * `invalidateCryptoSettings`), so this bounds only a read that raced a save (read the old row before
 * the save, cached it after the invalidation) or a row written outside the workflow.
 */
export const SETTINGS_CACHE_TTL_SECONDS = 30

/** The cached copy: the stored rows by provider id, plain values only (the cache may be Redis: JSON). */
interface CachedSettingsRows {
  rows: Record<string, StoredCryptoSettings>
}

/**
 * Medusa's cache module from a container (`Modules.CACHE`: in-memory by default, Redis in
 * production), or undefined where the application has none (a script, a unit test).
 */
export function settingsCacheOf(scope: Pick<MedusaContainer, "resolve">): SettingsCache | undefined {
  try {
    return scope.resolve<SettingsCache | undefined>(Modules.CACHE, { allowUnregistered: true }) ?? undefined
  } catch {
    return undefined
  }
}

const plainSettings = (row: StoredCryptoSettings): StoredCryptoSettings => ({
  accepted_coins: isCoinList(row.accepted_coins) ? [...row.accepted_coins] : null,
  default_coin: row.default_coin ?? null,
  invoice_lifetime_minutes: row.invoice_lifetime_minutes ?? null,
  order_on_detection: row.order_on_detection ?? null,
  underpaid_tolerance_percent: row.underpaid_tolerance_percent ?? null,
  order_rules: row.order_rules ?? null,
  order_outcomes: row.order_outcomes ?? null,
  protect_order_status: row.protect_order_status ?? null,
})

const isCachedRows = (value: unknown): value is CachedSettingsRows =>
  typeof value === "object" && value !== null && typeof (value as { rows?: unknown }).rows === "object" && (value as { rows?: unknown }).rows !== null

async function readAllStoredSettings(store: SettingsStore): Promise<CachedSettingsRows> {
  const rows: Record<string, StoredCryptoSettings> = {}
  for (const row of await store.listCryptoSettings({})) {
    rows[row.provider_id] = plainSettings(row)
  }
  return { rows }
}

/**
 * `readEffectiveOptions` for the payment paths (`initiatePayment`, `authorizePayment`, callback
 * processing): the stored rows come from Medusa's cache module, filled from the database on a miss
 * and invalidated by every save (`invalidateCryptoSettings`). With the Redis cache module
 * (production, docs/production.md) a save is seen by every instance at once; without a cache (a
 * unit test's fake store) or when the cache fails, the database is read.
 */
export async function readEffectiveOptionsCached<T extends EditableCryptoOptions>(
  store: SettingsStore,
  cache: SettingsCache | undefined,
  providerId: string,
  defaults: T
): Promise<T> {
  if (cache === undefined) {
    return readEffectiveOptions(store, providerId, defaults)
  }
  let cached: unknown = null
  try {
    cached = await cache.get<CachedSettingsRows>(SETTINGS_CACHE_KEY)
  } catch {
    // A cache that cannot answer (Redis down) costs a database read, never a checkout.
    cached = null
  }
  if (isCachedRows(cached)) {
    return mergeCryptoSettings(defaults, cached.rows[providerId])
  }
  const fresh = await readAllStoredSettings(store)
  try {
    await cache.set(SETTINGS_CACHE_KEY, fresh, SETTINGS_CACHE_TTL_SECONDS)
  } catch {
    // Not cached: the next checkout reads the database again.
  }
  return mergeCryptoSettings(defaults, fresh.rows[providerId])
}

/**
 * Drops the cached settings: the next read on any instance sharing the cache goes to the database.
 * A cache that cannot be reached must not fail a save that happened: the copy then lives at most
 * SETTINGS_CACHE_TTL_SECONDS.
 */
export async function invalidateCryptoSettings(cache: SettingsCache | undefined): Promise<void> {
  await cache?.invalidate(SETTINGS_CACHE_KEY).catch(() => undefined)
}

/** One saved field in the audit trail (`crypto_setting_change.changes`): its value before and after. */
export interface SettingChange {
  from: unknown
  to: unknown
}

/**
 * What a save changes (the audit trail, `crypto_setting_change`): each field of `patch` whose value
 * differs from the stored one, `{ from, to }` (null = the medusa-config default). Order rules are
 * compared and recorded as lists, outcome rules with every outcome. Pure; an empty result means the save changed nothing.
 */
export function settingChanges(
  previous: StoredCryptoSettings | undefined | null,
  patch: Partial<Record<keyof StoredCryptoSettings, unknown>>
): Record<string, SettingChange> {
  const changes: Record<string, SettingChange> = {}
  for (const [field, value] of Object.entries(patch) as Array<[keyof StoredCryptoSettings, unknown]>) {
    if (value === undefined) continue
    const before = canonical(field, previous?.[field] ?? null)
    const after = canonical(field, value)
    if (JSON.stringify(before) !== JSON.stringify(after)) changes[field] = { from: before, to: after }
  }
  return changes
}

/** A stored JSON setting in one shape whatever its key order (jsonb reorders keys), so a save that changes nothing records nothing. */
function canonical(field: keyof StoredCryptoSettings, value: unknown): unknown {
  if (value === null || value === undefined) return null
  if (field === "order_rules") return readOrderRules(value)
  if (field === "order_outcomes") return readOrderOutcomes(value)
  return value
}
