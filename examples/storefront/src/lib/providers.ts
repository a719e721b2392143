import { isCryptoProviderId, withCryptoPaymentInfo } from "medusa-payment-crypto/storefront"

/**
 * The crypto payment providers of the demo store (demo/medusa-config.ts): the same plugin registered
 * twice, once per mode. Medusa names a provider `pp_<identifier>_<id>`.
 */
export const HOSTED_PROVIDER_ID = "pp_crypto_crypto-hosted"
export const WHITE_LABEL_PROVIDER_ID = "pp_crypto_crypto"

/** Any crypto provider (`pp_crypto_` prefix), however the store registered the plugin. */
export function isCryptoProvider(providerId: string | null | undefined): boolean {
  return isCryptoProviderId(providerId)
}

/**
 * What the shopper reads for each provider: the two demo ids by mode, any other crypto id "Crypto"
 * (docs/storefront.md, step 1); an unknown one falls back to its id, never crashes.
 */
export const paymentTitles: Record<string, string> = withCryptoPaymentInfo(
  {
    [HOSTED_PROVIDER_ID]: "Crypto: pay on the payment page",
    [WHITE_LABEL_PROVIDER_ID]: "Crypto: pay here (address and QR code)",
    pp_system_default: "Manual payment",
  },
  "Crypto (BTC, LTC, USDT…)"
)

export function paymentTitle(providerId: string): string {
  return paymentTitles[providerId] ?? providerId
}
