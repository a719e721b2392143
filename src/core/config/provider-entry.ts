import { createHash } from "node:crypto"
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { GatewayClient } from "../../gateway"
import { CRYPTO_MODULE } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { callbackUrl, parseCryptoOptions, returnUrl, type ResolvedCryptoOptions } from "./options"
import { readEffectiveOptions, readEffectiveOptionsCached, settingsCacheOf } from "./settings"

/** `static identifier` of the provider: Medusa registers each entry as `pp_<identifier>_<id>`. */
export const CRYPTO_PROVIDER_IDENTIFIER = "crypto"
const PREFIX = `pp_${CRYPTO_PROVIDER_IDENTIFIER}_`

/** The provider id Medusa registers for an entry of medusa-config (`crypto` → `pp_crypto_crypto`). */
export function providerIdFor(entryId: string): string {
  return `${PREFIX}${entryId}`
}

/** `pp_crypto_crypto` → `crypto` (the `id` of the provider entry in medusa-config). */
export function entryIdOf(providerId: string): string | undefined {
  return providerId.startsWith(PREFIX) ? providerId.slice(PREFIX.length) : undefined
}

/** The links a new invoice of a provider entry carries (spec §4.1): callback URL, return URLs, the shopper's e-mail; each only when known. */
export function invoiceLinks(
  options: ResolvedCryptoOptions,
  providerId: string,
  cartId: string | undefined,
  email: string | null | undefined
): { callback_url?: string; success_invoice_url?: string; fail_invoice_url?: string; email?: string } {
  const links = {
    callback_url: callbackUrl(options, entryIdOf(providerId) ?? CRYPTO_PROVIDER_IDENTIFIER),
    success_invoice_url: returnUrl(options, "success", cartId),
    fail_invoice_url: returnUrl(options, "fail", cartId),
    email: email === null || email === "" ? undefined : email,
  }
  return Object.fromEntries(Object.entries(links).filter(([, value]) => value !== undefined))
}

/** Is this a payment provider id of this plugin's provider (`pp_crypto_<id>`)? */
export function isCryptoProviderId(providerId: string): boolean {
  return entryIdOf(providerId) !== undefined
}

/** One crypto provider entry of the Payment Module in medusa-config, its options validated. */
export interface CryptoProviderEntry {
  entryId: string
  providerId: string
  /** The medusa-config options (defaults for the admin settings). */
  options: ResolvedCryptoOptions
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * The crypto provider entries of the Payment Module in `medusa-config`, each with its gateway
 * client: THE registry of this plugin's integration.
 *
 * The provider lives in the Payment Module's own container (docs/architecture.md#the-provider):
 * routes, workflows and jobs cannot resolve it. They read its options from the same place Medusa
 * does, the config module, so the merchant writes the key once. The config module does not change
 * while the application runs, so its entries are parsed once per config module; their clients are
 * `gatewayClientOf`'s, one per configuration, shared with the provider.
 */
export function listCryptoProviderEntries(configModule: Pick<ConfigModule, "modules">): CryptoProviderEntry[] {
  let entries = registries.get(configModule)
  if (entries === undefined) {
    entries = parseEntries(configModule)
    registries.set(configModule, entries)
  }
  return entries
}

const registries = new WeakMap<object, CryptoProviderEntry[]>()

function parseEntries(configModule: Pick<ConfigModule, "modules">): CryptoProviderEntry[] {
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

const clients = new Map<string, GatewayClient>()

/**
 * THE client of a provider configuration in this process: the provider (built by Medusa in the
 * Payment Module's container, from its own copy of the options) and the registry's lookups get the
 * same object for the same base URL, key and timeout. Keyed by the key's hash: the key itself is
 * kept by the client alone.
 */
export function gatewayClientOf(options: Pick<ResolvedCryptoOptions, "baseUrl" | "apiKey" | "gatewayTimeoutMs">): GatewayClient {
  const id = `${options.baseUrl} ${options.gatewayTimeoutMs} ${createHash("sha256").update(options.apiKey).digest("hex")}`
  let client = clients.get(id)
  if (client === undefined) {
    // Per attempt (default 20 s): initiatePayment runs while the shopper waits at checkout.
    client = new GatewayClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: options.gatewayTimeoutMs })
    clients.set(id, client)
  }
  return client
}

/** A configured crypto provider, ready to use. */
export interface CryptoProvider {
  entry: CryptoProviderEntry
  /** The options in effect now: the medusa-config options with the admin's saved settings on top. */
  options: ResolvedCryptoOptions
  /** A gateway client with the entry's key, base URL and timeout. */
  client: GatewayClient
}

/**
 * Which provider: a provider id (`pp_crypto_<id>`) or an entry id (`<id>`); a list of provider ids
 * (a region's), of which the first configured crypto provider is taken; or nothing, for the only
 * (first) one configured.
 */
export type CryptoProviderChoice = string | readonly string[] | undefined

/**
 * THE lookup: the provider entry for `choice`, its effective options and a gateway client. The
 * options are read from the database on every call (`fresh`, the admin's paths: a change reaches
 * every instance at once) or, on the payment paths (`cached`: checkout, callback processing), from
 * Medusa's cache module, invalidated on every settings save (`readEffectiveOptionsCached`).
 * Throws NOT_ALLOWED when no crypto provider is configured (or none of a list is), NOT_FOUND for
 * an id that is not one.
 */
export async function resolveCryptoProvider(
  scope: MedusaContainer,
  choice?: CryptoProviderChoice,
  settings: "fresh" | "cached" = "fresh"
): Promise<CryptoProvider> {
  const configModule = scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
  const entry = findEntry(listCryptoProviderEntries(configModule), choice)
  const store = scope.resolve<CryptoModuleService>(CRYPTO_MODULE)
  const options =
    settings === "cached"
      ? await readEffectiveOptionsCached(store, settingsCacheOf(scope), entry.providerId, entry.options)
      : await readEffectiveOptions(store, entry.providerId, entry.options)
  return { entry, options, client: gatewayClientOf(entry.options) }
}

/**
 * The provider entry alone (its medusa-config options: key, base URL), with no database read: for
 * the callback route, which needs only the key to verify a delivery. Throws like
 * `resolveCryptoProvider`.
 */
export function resolveCryptoProviderEntry(scope: MedusaContainer, choice?: CryptoProviderChoice): CryptoProviderEntry {
  return findEntry(listCryptoProviderEntries(scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)), choice)
}

function findEntry(entries: CryptoProviderEntry[], choice: CryptoProviderChoice): CryptoProviderEntry {
  if (entries.length === 0) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      'The crypto payment provider is not configured: add "medusa-payment-crypto/providers/crypto" to the payment module\'s providers in medusa-config.ts (see the README)'
    )
  }
  if (choice === undefined) {
    return entries[0]
  }
  if (typeof choice !== "string") {
    const among = new Set(choice)
    const entry = entries.find((candidate) => among.has(candidate.providerId))
    if (entry === undefined) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `None of the payment providers ${[...among].join(", ") || "(none)"} is a configured crypto provider`)
    }
    return entry
  }
  const entry = entries.find((candidate) => candidate.providerId === choice || candidate.entryId === choice)
  if (entry === undefined) {
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `provider_id "${choice}" is not a configured crypto provider; configured: ${entries.map((e) => e.providerId).join(", ")}`
    )
  }
  return entry
}
