import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { convertToCoin, listCurrencies, offeredCoins } from "../../core/currency-cache"
import { storedAmountToDecimalString } from "../../core/money"
import { isCryptoProviderId, resolveCryptoProvider } from "../../core/provider-entry"
import { resolveCryptoModule } from "../../modules/crypto"

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
    const regionProviders: string[] = []
    for (const provider of (cart.region?.payment_providers ?? []) as Array<{ id?: unknown } | null>) {
      if (typeof provider?.id === "string" && isCryptoProviderId(provider.id)) regionProviders.push(provider.id)
    }
    if (regionProviders.length === 0) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Crypto payments are not enabled in the region of cart ${input.cart_id}`)
    }
    // The coins the merchant accepts now (admin settings) over the medusa-config options.
    const { entry, options: effective, client } = await resolveCryptoProvider(container, regionProviders)
    const total = storedAmountToDecimalString(cart.total, undefined, "cart total")
    const all = await listCurrencies(client, resolveCryptoModule(container), cart.currency_code)
    const currencies = offeredCoins(all, effective.allowedCurrencies)
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
