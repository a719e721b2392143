import { container } from "@medusajs/framework"
import type { GatewayClient } from "../../gateway"
import type { ILockingModule, IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { resolveCryptoModule } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"

/** What the provider reads and writes in our module: the invoice mirror (a reservation the gateway refused is deleted; the sync's stored gateway reading), callbacks, settings (and the cache they are kept in), rate cache. */
export type ProviderStore = Pick<
  CryptoModuleService,
  | "listCryptoInvoices"
  | "createCryptoInvoices"
  | "updateCryptoInvoices"
  | "deleteCryptoInvoices"
  | "listCryptoCallbacks"
  | "listCryptoSettings"
  | "cryptoSettingsCache"
  | "listCryptoRateCaches"
  | "createCryptoRateCaches"
  | "updateCryptoRateCaches"
>

/** The part of Query the provider uses: one graph read (the cart behind a payment collection). */
export interface ProviderQuery {
  graph(input: { entity: string; fields: string[]; filters: Record<string, unknown> }): Promise<{ data: Array<Record<string, unknown> | undefined> }>
}

/**
 * The provider's collaborators: the one seam between the provider and the application.
 *
 * Medusa builds a payment provider with the Payment Module's local container
 * (docs/architecture.md#the-provider): no Query, no locking, no other module. The provider needs the
 * cart behind a payment session, our module's invoice mirror and a lock, so in production they come
 * from the application container, resolved at call time (modules load after providers). Unit tests
 * pass fakes instead.
 */
export interface ProviderDeps {
  query: ProviderQuery
  locking: Pick<ILockingModule, "execute">
  paymentModule: Pick<IPaymentModuleService, "retrievePaymentSession">
  cryptoModule: ProviderStore
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
    get locking() {
      return scope.resolve<ILockingModule>(Modules.LOCKING)
    },
    get paymentModule() {
      return scope.resolve<IPaymentModuleService>(Modules.PAYMENT)
    },
    get cryptoModule() {
      return resolveCryptoModule(scope)
    },
  }
}
