import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { GatewayClient } from "../../../gateway"
import { listCryptoProviderEntries, type CryptoProviderEntry } from "../../../providers/crypto/config"
import { createGatewayClient } from "../../../providers/crypto/gateway"
import type { ResolvedCryptoOptions } from "../../../providers/crypto/options"
import { CRYPTO_MODULE } from "../../../modules/crypto"
import type CryptoModuleService from "../../../modules/crypto/service"
import type { StoredCryptoSettings } from "../../../modules/crypto/settings"

/**
 * The crypto provider entry the admin works with: the one named `providerId` (`pp_crypto_<id>`), or
 * the only one configured. The admin API reads the provider's options where Medusa does, the
 * config module (the provider itself lives in the payment module's container, research §1.1).
 */
export function resolveCryptoProviderEntry(scope: MedusaContainer, providerId?: string): CryptoProviderEntry {
  const configModule = scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
  const entries = listCryptoProviderEntries(configModule)
  if (entries.length === 0) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      'The crypto payment provider is not configured: add "medusa-payment-crypto/providers/crypto" to the payment module\'s providers in medusa-config.ts (see the README)'
    )
  }
  if (providerId === undefined) {
    return entries[0]
  }
  const entry = entries.find((candidate) => candidate.providerId === providerId || candidate.entryId === providerId)
  if (entry === undefined) {
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `provider_id "${providerId}" is not a configured crypto provider; configured: ${entries.map((e) => e.providerId).join(", ")}`
    )
  }
  return entry
}

export function resolveCryptoModuleService(scope: MedusaContainer): CryptoModuleService {
  return scope.resolve<CryptoModuleService>(CRYPTO_MODULE)
}

/** The stored admin settings row of a provider, if any. */
export async function readStoredSettings(scope: MedusaContainer, providerId: string): Promise<(StoredCryptoSettings & { id: string; updated_by?: string | null; updated_at?: Date | string }) | undefined> {
  const [row] = await resolveCryptoModuleService(scope).listCryptoSettings({ provider_id: providerId }, { take: 1 })
  return row ?? undefined
}

/** The options in effect for the next checkout: medusa-config defaults with the stored settings on top. */
export async function effectiveOptions(scope: MedusaContainer, entry: CryptoProviderEntry): Promise<ResolvedCryptoOptions> {
  return resolveCryptoModuleService(scope).getEffectiveSettings(entry.providerId, entry.options)
}

export interface AdminGateway {
  entry: CryptoProviderEntry
  client: GatewayClient
}

export function resolveAdminGateway(scope: MedusaContainer, providerId?: string): AdminGateway {
  const entry = resolveCryptoProviderEntry(scope, providerId)
  // The provider's own client: the same validated options (gatewayTimeoutMs included). Withdrawals
  // and exchanges are never retried by the client.
  return { entry, client: createGatewayClient(entry.options) }
}
