import { Decimal } from "decimal.js"
import type { ResolvedCryptoOptions } from "../../providers/crypto/options"

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
      tolerance !== undefined && tolerance !== null && /^\d+(\.\d+)?$/.test(tolerance) ? new Decimal(tolerance) : defaults.underpaidTolerancePercent,
  }
}
