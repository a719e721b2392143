import type { BigNumberInput, ConfigModule } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_MODULE } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { listCryptoProviderEntries } from "../../providers/crypto/config"
import { convertToCoin, listCurrencies } from "../../providers/crypto/currency-cache"
import { createGatewayClient } from "../../providers/crypto/gateway"

export interface CryptoCurrencyOption {
  psys_cid: string
  currency: string | null
  name: string | null
  icon: string | null
  /** The cart total in this coin at the current rate (display only; the invoice decides). */
  amount: string | null
  /** Price of one coin in the cart's currency. */
  rate: string | null
  maintenance: boolean
  default: boolean
}

export interface CryptoCurrenciesForCart {
  cart_id: string
  provider_id: string
  currency_code: string
  total: string
  currencies: CryptoCurrencyOption[]
}

export const listCryptoCurrenciesStepId = "list-crypto-currencies"

/** The coins a shopper may pick for a cart, with the cart total converted (cached rates, spec §4.8). */
export const listCryptoCurrenciesStep = createStep(
  listCryptoCurrenciesStepId,
  async (input: { cart_id: string }, { container }) => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data: carts } = await query.graph({
      entity: "cart",
      fields: ["id", "currency_code", "total", "region.payment_providers.id"],
      filters: { id: input.cart_id },
    })
    const cart = carts[0]
    if (cart === undefined) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart ${input.cart_id} was not found`)
    }
    const configModule = container.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
    const regionProviders = new Set<string>()
    for (const provider of (cart.region?.payment_providers ?? []) as Array<{ id?: unknown } | null>) {
      if (typeof provider?.id === "string") regionProviders.add(provider.id)
    }
    const entry = listCryptoProviderEntries(configModule).find((candidate) => regionProviders.has(candidate.providerId))
    if (entry === undefined) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Crypto payments are not enabled in the region of cart ${input.cart_id}`)
    }
    const total = MathBN.convert(cart.total as BigNumberInput).toFixed()
    const cryptoModule = container.resolve<CryptoModuleService>(CRYPTO_MODULE)
    const all = await listCurrencies(createGatewayClient(entry.options), cryptoModule, cart.currency_code)
    // The coins the merchant accepts now (admin settings, issue 5) over the medusa-config options.
    const effective = await cryptoModule.getEffectiveSettings(entry.providerId, entry.options)
    const allowed = effective.allowedCurrencies
    const currencies = all
      .filter((coin) => allowed.length === 0 || allowed.includes(coin.psys_cid))
      .map<CryptoCurrencyOption>((coin) => ({
        psys_cid: coin.psys_cid,
        currency: coin.currency,
        name: coin.name,
        icon: coin.icon,
        amount: convertToCoin(total, coin),
        rate: coin.fiat_rate,
        maintenance: coin.maintenance,
        default: coin.psys_cid === effective.defaultCurrency,
      }))
    return new StepResponse<CryptoCurrenciesForCart>({
      cart_id: cart.id,
      provider_id: entry.providerId,
      currency_code: cart.currency_code,
      total,
      currencies,
    })
  }
)
