import { Module } from "@medusajs/framework/utils"
import CryptoModuleService from "./service"

/** The module key: `container.resolve(CRYPTO_MODULE)`. */
export const CRYPTO_MODULE = "crypto"

export default Module(CRYPTO_MODULE, {
  service: CryptoModuleService,
})

export { CryptoModuleService }
