/** The provider id Medusa registers for the plugin's default entry (`id: "crypto"` in medusa-config). */
export const DEFAULT_CRYPTO_PROVIDER_ID = "pp_crypto_crypto"

/**
 * True for the plugin's payment providers: Medusa names each `pp_crypto_<entry id>`, so a store that
 * registers the plugin twice (hosted and white-label, e.g. `pp_crypto_crypto-hosted`) has two.
 */
export function isCryptoProviderId(providerId: string | null | undefined): providerId is string {
  return typeof providerId === "string" && providerId.startsWith("pp_crypto_")
}

/**
 * A provider map (Medusa's Next.js starter: `paymentInfoMap`, id → `{ title, icon }`) that also
 * answers `info` for every crypto provider id it does not list, so no `pp_crypto_…` id ever shows
 * raw or reads as missing, whatever `id` the store registered the plugin under
 * (docs/storefront.md, step 1). Ids the map lists keep their own entry; other ids stay undefined.
 * The map is not copied: later changes to it show through.
 */
export function withCryptoPaymentInfo<T>(map: Record<string, T>, info: T): Record<string, T> {
  const listed = (key: string | symbol): boolean => Object.prototype.hasOwnProperty.call(map, key)
  return new Proxy(map, {
    get(target, key, receiver) {
      if (typeof key === "string" && !listed(key) && isCryptoProviderId(key)) return info
      return Reflect.get(target, key, receiver) as T
    },
    has(target, key) {
      return (typeof key === "string" && isCryptoProviderId(key)) || Reflect.has(target, key)
    },
  })
}
