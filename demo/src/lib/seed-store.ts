import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules, ProductStatus } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"

export type SeededStore = {
  regionId: string
  salesChannelId: string
  publishableKey: string
  variantId: string
  shippingOptionId: string
}

export type SeedStoreOptions = {
  /** Payment providers enabled on the region, e.g. ["pp_crypto_crypto"]. */
  paymentProviders: string[]
  currencyCode?: string
  countries?: string[]
  /** Unit price of the demo product, in major units of the currency (a decimal string). */
  productPrice?: string
  /**
   * Flat shipping price in whole units of the currency: Medusa types shipping option prices as a JS
   * number, so only whole amounts are accepted here, which a number holds exactly.
   */
  shippingPrice?: number
}

/**
 * A minimal, complete store: one region with the given payment providers, a sales channel with a
 * publishable key, a stock location with a delivery fulfillment set and a shipping option, and one
 * published product: everything a storefront needs to check out. Used by the demo (`npm run demo`).
 */
export async function seedStore(
  container: MedusaContainer,
  options: SeedStoreOptions
): Promise<SeededStore> {
  const currency = options.currencyCode ?? "eur"
  const shippingPrice = options.shippingPrice ?? 5
  if (!Number.isSafeInteger(shippingPrice) || shippingPrice < 0) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `shippingPrice must be a whole, non-negative number, got ${shippingPrice}`
    )
  }
  const countries = options.countries ?? ["de", "fr", "es", "it", "nl"]
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const storeModule = container.resolve(Modules.STORE)

  const {
    result: [salesChannel],
  } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: "Webshop" }] },
  })

  const [store] = await storeModule.listStores()
  if (store) {
    await updateStoresWorkflow(container).run({
      input: {
        selector: { id: store.id },
        update: {
          supported_currencies: [{ currency_code: currency, is_default: true }],
          default_sales_channel_id: salesChannel.id,
        },
      },
    })
  }

  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: "Europe",
          currency_code: currency,
          countries,
          payment_providers: options.paymentProviders,
        },
      ],
    },
  })

  await createTaxRegionsWorkflow(container).run({
    input: countries.map((country_code) => ({ country_code, provider_id: "tp_system" })),
  })

  const {
    result: [shippingProfile],
  } = await createShippingProfilesWorkflow(container).run({
    input: { data: [{ name: "Default", type: "default" }] },
  })

  const fulfillmentSet = await fulfillment.createFulfillmentSets({
    name: "Warehouse delivery",
    type: "shipping",
    service_zones: [
      {
        name: "Europe",
        geo_zones: countries.map((country_code) => ({ country_code, type: "country" as const })),
      },
    ],
  })

  const {
    result: [stockLocation],
  } = await createStockLocationsWorkflow(container).run({
    input: {
      locations: [
        { name: "Warehouse", address: { city: "Berlin", country_code: "DE", address_1: "Main street 1" } },
      ],
    },
  })

  await link.create([
    {
      [Modules.STOCK_LOCATION]: { stock_location_id: stockLocation.id },
      [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
    },
    {
      [Modules.STOCK_LOCATION]: { stock_location_id: stockLocation.id },
      [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id },
    },
  ])

  await linkSalesChannelsToStockLocationWorkflow(container).run({
    input: { id: stockLocation.id, add: [salesChannel.id] },
  })

  const {
    result: [shippingOption],
  } = await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Standard shipping",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: fulfillmentSet.service_zones[0].id,
        shipping_profile_id: shippingProfile.id,
        type: { label: "Standard", description: "Ships in 2-3 days.", code: "standard" },
        prices: [
          { currency_code: currency, amount: shippingPrice },
          { region_id: region.id, amount: shippingPrice },
        ],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  })

  const {
    result: [publishableKey],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Webshop", type: "publishable", created_by: "" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({
    input: { id: publishableKey.id, add: [salesChannel.id] },
  })

  const {
    result: [product],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Hardware wallet",
          handle: "hardware-wallet",
          description: "A hardware wallet for the crypto you just paid with.",
          status: ProductStatus.PUBLISHED,
          shipping_profile_id: shippingProfile.id,
          options: [{ title: "Color", values: ["Black"] }],
          variants: [
            {
              title: "Black",
              sku: "WALLET-BLACK",
              options: { Color: "Black" },
              manage_inventory: false,
              prices: [{ currency_code: currency, amount: options.productPrice ?? "79.90" }],
            },
          ],
          sales_channels: [{ id: salesChannel.id }],
        },
      ],
    },
  })

  return {
    regionId: region.id,
    salesChannelId: salesChannel.id,
    publishableKey: publishableKey.token,
    variantId: product.variants[0].id,
    shippingOptionId: shippingOption.id,
  }
}
