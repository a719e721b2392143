import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { belowMinimum, convertToCoin, listCurrencies, offeredCoins } from "../../core/payment/currency-cache"
import { exact, storedAmountToDecimalString } from "../../core/money"
import { isCryptoProviderId, resolveCryptoProvider } from "../../core/config/provider-entry"
import { resolveCryptoModule } from "../../modules/crypto"
import type { CryptoCurrenciesResponse, CryptoCurrencyOption, CryptoCurrencyUnavailable } from "../../storefront/types"
import { assertCartInSalesChannels } from "./find-cart-crypto-invoice"

export const listCryptoCurrenciesStepId = "list-crypto-currencies"

/**
 * The coins a shopper may pick for a cart, with the cart total converted (cached rates, spec §4.8);
 * the coins whose minimum the total does not reach, listed apart with it; none for a zero total. The
 * answer is the storefront kit's declaration of the route's (src/storefront/types.ts).
 */
export const listCryptoCurrenciesStep = createStep(
  listCryptoCurrenciesStepId,
  async (input: { cart_id: string; sales_channel_ids: string[] }, { container }) => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data: carts } = await query.graph({
      entity: "cart",
      fields: ["id", "sales_channel_id", "currency_code", "total", "region.payment_providers.id"],
      filters: { id: input.cart_id },
    })
    const cart = carts[0]
    assertCartInSalesChannels(input.cart_id, cart, input.sales_channel_ids)
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
    const answer = { cart_id: cart.id, provider_id: entry.providerId, currency_code: cart.currency_code, total }
    if (exact(total).isZero()) {
      // Nothing to pay: no invoice can be made (the provider refuses a zero amount).
      return new StepResponse<CryptoCurrenciesResponse>({ ...answer, currencies: [], unavailable: [], reason: "zero_total" })
    }
    const all = await listCurrencies(client, resolveCryptoModule(container), cart.currency_code)
    const currencies: CryptoCurrencyOption[] = []
    const unavailable: CryptoCurrencyUnavailable[] = []
    for (const coin of offeredCoins(all, effective.allowedCurrencies)) {
      const described = { psys_cid: coin.psys_cid, currency: coin.currency, name: coin.name, icon: coin.icon }
      // The same check the provider makes before it asks the gateway (spec §2.4 `min_sum_in`).
      const minimum = belowMinimum(total, cart.currency_code, coin)
      if (minimum !== undefined) {
        unavailable.push({ ...described, reason: "below_minimum", ...minimum })
        continue
      }
      currencies.push({
        ...described,
        amount: convertToCoin(total, coin),
        rate: coin.fiat_rate,
        maintenance: coin.maintenance,
        default: coin.psys_cid === effective.defaultCurrency,
      })
    }
    return new StepResponse<CryptoCurrenciesResponse>({ ...answer, currencies, unavailable, reason: null })
  }
)
