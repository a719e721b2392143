import type { ConfigModule } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { parseCryptoOptions, type ResolvedCryptoOptions } from "./options"

/** `static identifier` of the provider: registered as `pp_crypto_<id>` (research §1.1). */
export const CRYPTO_PROVIDER_IDENTIFIER = "crypto"
const PREFIX = `pp_${CRYPTO_PROVIDER_IDENTIFIER}_`

export function providerIdFor(entryId: string): string {
  return `${PREFIX}${entryId}`
}

/** `pp_crypto_crypto` → `crypto` (the `id` of the provider entry in medusa-config). */
export function entryIdOf(providerId: string): string | undefined {
  return providerId.startsWith(PREFIX) ? providerId.slice(PREFIX.length) : undefined
}

export interface CryptoProviderEntry {
  entryId: string
  providerId: string
  options: ResolvedCryptoOptions
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * The crypto provider entries of the Payment Module in `medusa-config`.
 *
 * The provider lives in the Payment Module's own container (research §1.1): routes, workflows
 * and jobs cannot resolve it. They read its options from the same place Medusa does, the config
 * module, so the merchant writes the key once.
 */
export function listCryptoProviderEntries(configModule: Pick<ConfigModule, "modules">): CryptoProviderEntry[] {
  const declaration = configModule.modules?.[Modules.PAYMENT]
  if (!isRecord(declaration) || !isRecord(declaration.options)) {
    return []
  }
  const providers = declaration.options.providers
  if (!Array.isArray(providers)) {
    return []
  }
  const entries: CryptoProviderEntry[] = []
  for (const provider of providers) {
    if (!isRecord(provider) || typeof provider.id !== "string" || typeof provider.resolve !== "string") {
      continue
    }
    if (!/providers\/crypto(\/index(\.[cm]?[jt]s)?)?\/?$/.test(provider.resolve)) {
      continue
    }
    entries.push({ entryId: provider.id, providerId: providerIdFor(provider.id), options: parseCryptoOptions(provider.options) })
  }
  return entries
}

export function findCryptoProviderEntry(configModule: Pick<ConfigModule, "modules">, entryId: string): CryptoProviderEntry | undefined {
  return listCryptoProviderEntries(configModule).find((entry) => entry.entryId === entryId)
}

/** The entry for a registered provider id (`pp_crypto_<id>`), read from the app's config module. */
export function cryptoProviderEntryFor(configModule: Pick<ConfigModule, "modules">, providerId: string): CryptoProviderEntry {
  const entryId = entryIdOf(providerId)
  const entry = entryId === undefined ? undefined : findCryptoProviderEntry(configModule, entryId)
  if (entry === undefined) {
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `No crypto payment provider "${providerId}" in medusa-config: register "medusa-payment-crypto/providers/crypto" in the Payment Module's providers`
    )
  }
  return entry
}
