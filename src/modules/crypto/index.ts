import type { MedusaContainer } from "@medusajs/framework/types"
import { Module } from "@medusajs/framework/utils"
import CryptoModuleService from "./service"

/** The module key: `container.resolve(CRYPTO_MODULE)`. */
export const CRYPTO_MODULE = "crypto"

export default Module(CRYPTO_MODULE, {
  service: CryptoModuleService,
})

export { CryptoModuleService }

/** Our module's service from a container (a request's, a step's, the app's). */
export function resolveCryptoModule(scope: Pick<MedusaContainer, "resolve">): CryptoModuleService {
  return scope.resolve<CryptoModuleService>(CRYPTO_MODULE)
}
