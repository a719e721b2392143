/**
 * The crypto payment providers of the demo store (demo/medusa-config.ts): the same plugin registered
 * twice, once per mode. Medusa names a provider `pp_<identifier>_<id>`.
 */
export const HOSTED_PROVIDER_ID = "pp_crypto_crypto-hosted"
export const WHITE_LABEL_PROVIDER_ID = "pp_crypto_crypto"

export function isCryptoProvider(providerId: string | null | undefined): boolean {
  return typeof providerId === "string" && providerId.startsWith("pp_crypto_")
}

/** What the shopper reads for each provider; an unknown one falls back to its id, never crashes. */
export const paymentTitles: Record<string, string> = {
  [HOSTED_PROVIDER_ID]: "Crypto: pay on the payment page",
  [WHITE_LABEL_PROVIDER_ID]: "Crypto: pay here (address and QR code)",
  pp_system_default: "Manual payment",
}

export function paymentTitle(providerId: string): string {
  return paymentTitles[providerId] ?? providerId
}
