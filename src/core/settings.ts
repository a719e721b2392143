import { Decimal } from "decimal.js"
import { isDecimalString } from "../gateway"
import type CryptoModuleService from "../modules/crypto/service"
import { settingsGeneration } from "../modules/crypto/settings-generation"
import type { ResolvedCryptoOptions } from "./options"

/** The settings a merchant edits in the admin (Settings → Crypto); all optional: null = config. */
export interface StoredCryptoSettings {
  accepted_coins?: string[] | null
  default_coin?: string | null
  invoice_lifetime_minutes?: number | null
  order_on_detection?: boolean | null
  underpaid_tolerance_percent?: string | null
}

/** The subset of the provider options the admin can override. */
export type EditableCryptoOptions = Pick<
  ResolvedCryptoOptions,
  "allowedCurrencies" | "defaultCurrency" | "expireMinutes" | "orderOnDetection" | "underpaidTolerancePercent"
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
 * admin's path; checkouts use `readEffectiveOptionsCached`), so a change reaches every server
 * instance without a restart.
 */
export async function readEffectiveOptions<T extends EditableCryptoOptions>(store: SettingsStore, providerId: string, defaults: T): Promise<T> {
  return mergeCryptoSettings(defaults, await readStoredSettings(store, providerId))
}

/** How long a checkout reuses the stored settings it read (per process): an admin change reaches other instances within this. */
export const SETTINGS_CACHE_TTL_MS = 5_000

interface CachedSettings {
  at: number
  generation: number
  row: StoredCryptoSettings | undefined
}

/**
 * The settings rows read by checkouts, per store (the module service) and provider. A cache of a
 * database row with a short life, never a source of truth: any write to the settings table in this
 * process (`settingsGeneration`, counted by the module service) makes the next read go to the
 * database; other instances see a change within `SETTINGS_CACHE_TTL_MS`.
 */
const settingsCache = new WeakMap<object, Map<string, CachedSettings>>()

/**
 * `readEffectiveOptions` for the payment paths (`initiatePayment`, `authorizePayment`, callback
 * processing): the stored row is reused for `SETTINGS_CACHE_TTL_MS` unless this process wrote the
 * settings since, so a checkout does not read the settings table on every call.
 */
export async function readEffectiveOptionsCached<T extends EditableCryptoOptions>(
  store: SettingsStore,
  providerId: string,
  defaults: T,
  now: number = Date.now()
): Promise<T> {
  let byProvider = settingsCache.get(store)
  if (byProvider === undefined) {
    byProvider = new Map()
    settingsCache.set(store, byProvider)
  }
  const generation = settingsGeneration()
  const cached = byProvider.get(providerId)
  if (cached !== undefined && cached.generation === generation && now - cached.at >= 0 && now - cached.at < SETTINGS_CACHE_TTL_MS) {
    return mergeCryptoSettings(defaults, cached.row)
  }
  const row = await readStoredSettings(store, providerId)
  byProvider.set(providerId, { at: now, generation, row })
  return mergeCryptoSettings(defaults, row)
}
