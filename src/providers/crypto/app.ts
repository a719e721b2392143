import { container } from "@medusajs/framework"
import type { ILockingModule, IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type CryptoModuleService from "../../modules/crypto/service"
import { CRYPTO_MODULE } from "../../modules/crypto"

/**
 * The provider's way into the application.
 *
 * Medusa builds the provider with the Payment Module's local container (research §1.1): no
 * `query`, no cart, no locking, no other module. The provider needs the cart behind a payment
 * session, our module's invoice mirror and a lock, so it resolves them from the application
 * container (`@medusajs/framework`'s `container`, the one the app loaders register everything in).
 * Resolution happens at call time, never in the constructor: modules load after providers.
 */
export function appContainer(): MedusaContainer {
  return container
}

export function resolveCryptoModule(scope: MedusaContainer = container): CryptoModuleService {
  return scope.resolve<CryptoModuleService>(CRYPTO_MODULE)
}

export function resolveLocking(scope: MedusaContainer = container): ILockingModule {
  return scope.resolve<ILockingModule>(Modules.LOCKING)
}

export function resolvePaymentModule(scope: MedusaContainer = container): IPaymentModuleService {
  return scope.resolve<IPaymentModuleService>(Modules.PAYMENT)
}

export function resolveLogger(scope: MedusaContainer = container): Logger {
  return scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
}
