import { container } from "@medusajs/framework"
import type { GatewayClient } from "../../gateway"
import type { IEventBusModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { resolveCryptoModule } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { settingsCacheOf, type SettingsCache } from "../../core/config/settings"
import { storedAmountToDecimalString } from "../../core/money"

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

/** The part of Query the provider uses: graph reads (a payment session with the cart or order behind it; the store). */
export interface ProviderQuery {
  graph(input: {
    entity: string
    fields: string[]
    filters: Record<string, unknown>
    pagination?: { take?: number; order?: Record<string, "ASC" | "DESC"> }
  }): Promise<{ data: Array<Record<string, unknown> | undefined> }>
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

/** One line of what is bought: its title and quantity (a decimal string; null when Medusa's value is unreadable). */
export interface BoughtItem {
  title: string
  quantity: string | null
}

/**
 * A payment session as `initiatePayment` needs it: its collection, its provider entry, the cart
 * behind the collection (none for a collection Medusa bills after checkout), the order the
 * collection belongs to (an order edit's, a claim's or an exchange's difference, a draft order; a
 * cart's collection once its order is placed), what is bought and the store's name: the words
 * the gateway shows for the invoice (src/providers/crypto/invoice-text.ts).
 */
export interface SessionOfCart {
  id: string
  provider_id: string
  payment_collection_id: string
  cart: { id: string; email: string | null } | undefined
  order: { id: string; display_id: number | null; email: string | null } | undefined
  /** The order's items when the collection has an order, else the cart's; in Medusa's order. */
  items: BoughtItem[]
  /** The store's name (Medusa's store module: its first store, the one Medusa creates); null when it has none. */
  store_name: string | null
}

type Row = Record<string, unknown>

const rowOf = (value: unknown): Row | undefined => (typeof value === "object" && value !== null ? (value as Row) : undefined)
const textOf = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null)

/** A line's quantity as a decimal string (an order's item carries it on itself and in its `detail`); null when missing or unreadable. */
function quantityOf(item: Row): string | null {
  const detail = rowOf(item.detail)
  const raw = item.raw_quantity ?? detail?.raw_quantity
  const quantity = item.quantity ?? detail?.quantity
  if ((raw ?? quantity) == null) return null
  try {
    return storedAmountToDecimalString(raw, quantity, "quantity")
  } catch {
    // A description is words only: an unreadable quantity leaves it out rather than refusing the payment.
    return null
  }
}

/** The lines bought, as Query gives cart or order items (`title`, `quantity`, `raw_quantity`); a line of none (an order edit removed it) is left out. */
function boughtItems(items: unknown): BoughtItem[] {
  if (!Array.isArray(items)) return []
  const bought: BoughtItem[] = []
  for (const item of items.map(rowOf)) {
    if (item === undefined) continue
    const quantity = quantityOf(item)
    if (quantity === "0") continue
    bought.push({ title: textOf(item.title) ?? "Item", quantity })
  }
  return bought
}

/**
 * The fields of the items a description names. An order's quantities are those of its current
 * version (the order module's item `detail`, which it copies onto each item); a cart's are on the item.
 */
const cartItemFields = (path: string): string[] => [`${path}.items.title`, `${path}.items.quantity`, `${path}.items.raw_quantity`]
const orderItemFields = (path: string): string[] => [`${path}.items.title`, `${path}.items.detail.quantity`, `${path}.items.detail.raw_quantity`]

/**
 * The payment session with the cart or order behind its collection and their items, in one Query
 * read (payment_session → payment_collection → cart, and → order through Medusa's
 * order ↔ payment_collection link), and the store's name. Medusa links no store to a cart, an order
 * or a collection, so the store is a second read, made at the same time as the first.
 */
export async function sessionOfCart(query: ProviderQuery, sessionId: string): Promise<SessionOfCart> {
  const [{ data }, { data: stores }] = await Promise.all([
    query.graph({
      entity: "payment_session",
      fields: [
        "id",
        "provider_id",
        "payment_collection_id",
        "payment_collection.cart.id",
        "payment_collection.cart.email",
        ...cartItemFields("payment_collection.cart"),
        "payment_collection.order.id",
        "payment_collection.order.display_id",
        "payment_collection.order.email",
        ...orderItemFields("payment_collection.order"),
      ],
      filters: { id: sessionId },
    }),
    query.graph({ entity: "store", fields: ["id", "name"], filters: {}, pagination: { take: 1, order: { created_at: "ASC" } } }),
  ])
  const session = data[0]
  if (typeof session?.provider_id !== "string" || typeof session.payment_collection_id !== "string") {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${sessionId} was not found`)
  }
  const collection = rowOf(session.payment_collection)
  const cart = rowOf(collection?.cart)
  const order = rowOf(collection?.order)
  const hasCart = typeof cart?.id === "string"
  const hasOrder = typeof order?.id === "string"
  return {
    id: sessionId,
    provider_id: session.provider_id,
    payment_collection_id: session.payment_collection_id,
    cart: hasCart ? { id: String(cart.id), email: textOf(cart.email) } : undefined,
    order: hasOrder ? { id: String(order.id), display_id: typeof order.display_id === "number" ? order.display_id : null, email: textOf(order.email) } : undefined,
    items: boughtItems(hasOrder ? order.items : cart?.items),
    store_name: textOf(stores[0]?.name)?.trim() ?? null,
  }
}
