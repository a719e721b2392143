import { container } from "@medusajs/framework"
import type { GatewayClient } from "../../gateway"
import type { IEventBusModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { resolveCryptoModule } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { settingsCacheOf, type SettingsCache } from "../../core/config/settings"

/**
 * What the provider asks of our module: a transaction to reserve (or release) a session's order
 * number in, record the invoice the gateway created, read the sync's stored gateway reading;
 * callbacks, settings, rate cache.
 */
export type ProviderStore = Pick<
  CryptoModuleService,
  | "inCryptoTransaction"
  | "listCryptoInvoices"
  | "updateCryptoInvoices"
  | "listCryptoCallbacks"
  | "listCryptoSettings"
  | "listCryptoRateCaches"
  | "createCryptoRateCaches"
  | "updateCryptoRateCaches"
>

/** The part of Query the provider uses: one graph read (a payment session and the cart behind it). */
export interface ProviderQuery {
  graph(input: { entity: string; fields: string[]; filters: Record<string, unknown> }): Promise<{ data: Array<Record<string, unknown> | undefined> }>
}

/**
 * The provider's collaborators: the one seam between the provider and the application.
 *
 * Medusa builds a payment provider with the Payment Module's local container
 * (docs/architecture.md#the-provider): no Query, no other module. The provider needs the cart behind
 * a payment session and our module (which reserves order numbers under its own lock), so in
 * production they come from the application container, resolved at call time (modules load after
 * providers). Unit tests pass fakes instead.
 */
export interface ProviderDeps {
  query: ProviderQuery
  cryptoModule: ProviderStore
  /** Medusa's event bus, for `crypto.invoice.created` (docs/events.md); unit tests may leave it out. */
  eventBus?: Pick<IEventBusModuleService, "emit">
  /** Medusa's cache module, where the payment paths keep the settings (src/core/config/settings.ts); none in unit tests. */
  settingsCache?: SettingsCache
}

/** The gateway calls the provider makes: create an invoice, read operations, list currencies. */
export interface ProviderGateway {
  invoices: Pick<GatewayClient["invoices"], "create">
  operations: Pick<GatewayClient["operations"], "retrieve">
  currencies: Pick<GatewayClient["currencies"], "list">
}

/** Builds the collaborators when an operation needs them (never in the constructor). */
export type ProviderDepsFactory = () => ProviderDeps

/** Production: the application container (`@medusajs/framework`'s `container`), each collaborator resolved when first used. */
export function applicationDeps(scope: MedusaContainer = container): ProviderDeps {
  return {
    get query(): ProviderQuery {
      return scope.resolve(ContainerRegistrationKeys.QUERY)
    },
    get cryptoModule() {
      return resolveCryptoModule(scope)
    },
    get eventBus() {
      return scope.resolve<IEventBusModuleService>(Modules.EVENT_BUS)
    },
    get settingsCache() {
      return settingsCacheOf(scope)
    },
  }
}

/** A payment session as `initiatePayment` needs it: its collection, its provider entry, and the cart behind the collection (none for an order's later collection). */
export interface SessionOfCart {
  id: string
  provider_id: string
  payment_collection_id: string
  cart: { id: string; email: string | null } | undefined
}

/** The payment session and the cart behind its collection, in one Query read (payment_session → payment_collection → cart). */
export async function sessionOfCart(query: ProviderQuery, sessionId: string): Promise<SessionOfCart> {
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "payment_collection_id", "payment_collection.cart.id", "payment_collection.cart.email"],
    filters: { id: sessionId },
  })
  const session = data[0]
  if (typeof session?.provider_id !== "string" || typeof session.payment_collection_id !== "string") {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${sessionId} was not found`)
  }
  const cart = (session.payment_collection as { cart?: { id?: unknown; email?: unknown } | null } | null | undefined)?.cart
  return {
    id: sessionId,
    provider_id: session.provider_id,
    payment_collection_id: session.payment_collection_id,
    cart: typeof cart?.id === "string" ? { id: cart.id, email: typeof cart.email === "string" ? cart.email : null } : undefined,
  }
}
