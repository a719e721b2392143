import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { Decimal } from "decimal.js"
import { isDecimalString } from "../../gateway"
import { belowMinimum, listCurrencies, offeredCoins, type CachedCurrency } from "../../core/payment/currency-cache"
import { coinPlaces, exact, fiatToCoin, fiatToMinorUnits, storedAmountToDecimalString } from "../../core/money"
import { isCryptoProviderId, resolveCryptoProvider } from "../../core/config/provider-entry"
import { resolveCryptoModule } from "../../modules/crypto"
import type { CryptoCurrenciesResponse, CryptoCurrencyOption, CryptoCurrencyUnavailable } from "../../storefront/types"
import { assertCartInSalesChannels } from "./find-cart-crypto-invoice"

export const listCryptoCurrenciesStepId = "list-crypto-currencies"

/** Who pays the gateway's commission on an invoice (spec §2.1): the shopper (added to the amount) or the shop (taken from it). */
export type CommissionPayer = "shopper" | "shop"

/**
 * What the coin picker needs of a coin to say what the shopper will send: its rate and places
 * (spec §2.4 `fiat_rate`, `precision`) and its invoice commission (`invoice_commission_percentage`,
 * absent from a rate cache that does not keep it: then no commission is added).
 */
export type CoinQuote = Pick<CachedCurrency, "fiat_rate" | "precision" | "invoice_commission_percentage">

/**
 * What the shopper will send in `coin` for a cart total of `total` (in `fiat`): the amount the
 * invoice will ask, computed as the gateway computes it (docs/gateway-readings.md, "Rates" and
 * "Fees and commissions"; src/sandbox/README.md, its reading of the arithmetic):
 * - the total in the fiat's minor units, as the provider sends it (`source_amount`, rounded
 *   half-up: docs/gateway-readings.md#fiat-amounts), at the coin's `fiat_rate`, rounded UP to the
 *   coin's places: never less than the invoice will ask;
 * - plus, when the shopper pays the commission, the coin's `invoice_commission_percentage` of that
 *   amount rounded half-up to the coin's places (spec §2.1 `invoice_total_sum` = amount + commission).
 *   The commission is rounded as the gateway rounds it, not up: rounded up it would read one
 *   smallest unit more than the invoice for most carts, two figures where the shopper must see one.
 * `null` when the coin has no rate. Display only: the invoice's own amount is the gateway's, at its
 * rate of the moment (the cached one may be up to a minute old).
 */
export function amountToSend(total: string, fiat: string, coin: CoinQuote, payer: CommissionPayer): string | null {
  if (coin.fiat_rate === null || !exact(coin.fiat_rate).gt(0)) {
    return null
  }
  const places = coinPlaces(coin.precision)
  const amount = fiatToCoin(fiatToMinorUnits(total, fiat), coin.fiat_rate, places, "up")
  const percentage = coin.invoice_commission_percentage
  if (payer === "shop" || typeof percentage !== "string" || !isDecimalString(percentage) || !exact(percentage).gt(0)) {
    return amount.toFixed()
  }
  const commission = amount.times(percentage).dividedBy(100).toDecimalPlaces(places, Decimal.ROUND_HALF_UP)
  return amount.plus(commission).toFixed()
}

/**
 * Who pays the commission, for the coin picker's figure. The gateway decides it from a shop setting
 * no API answer shows before an invoice exists (docs/gateway-readings.md#fees-and-commissions), and
 * the plugin has no option for it: the shopper is assumed, so the figure is never below the invoice's.
 */
const PICKER_COMMISSION_PAYER: CommissionPayer = "shopper"

/**
 * The coins a shopper may pick for a cart, each with what the shopper will send in it (`amountToSend`,
 * cached rates, spec §4.8); the coins whose minimum the total does not reach, listed apart with it;
 * none for a zero total. The answer is the storefront kit's declaration of the route's
 * (src/storefront/types.ts).
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
        amount: amountToSend(total, cart.currency_code, coin, PICKER_COMMISSION_PAYER),
        rate: coin.fiat_rate,
        maintenance: coin.maintenance,
        default: coin.psys_cid === effective.defaultCurrency,
      })
    }
    return new StepResponse<CryptoCurrenciesResponse>({ ...answer, currencies, unavailable, reason: null })
  }
)
