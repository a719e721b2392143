import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { CRYPTO_MODULE } from "../../../modules/crypto"
import { parseCryptoOptions } from "../options"
import { entryIdOf, gatewayClientOf, isCryptoProviderId, listCryptoProviderEntries, providerIdFor, resolveCryptoProvider } from "../provider-entry"

const configWith = (providers: unknown[]): Pick<ConfigModule, "modules"> => ({
  modules: { payment: { resolve: "@medusajs/medusa/payment", options: { providers } } },
})

const options = { apiKey: "k", baseUrl: "http://gw.test" }

describe("listCryptoProviderEntries", () => {
  it("finds the crypto provider entries of the Payment Module with their validated options", () => {
    const entries = listCryptoProviderEntries(
      configWith([
        { resolve: "@medusajs/medusa/payment-stripe", id: "stripe", options: {} },
        { resolve: "medusa-payment-crypto/providers/crypto", id: "crypto", options },
      ])
    )
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ entryId: "crypto", providerId: "pp_crypto_crypto", options: { apiKey: "k", orderOnDetection: true } })
  })

  it("finds an entry registered by path", () => {
    expect(listCryptoProviderEntries(configWith([{ resolve: "/app/src/providers/crypto", id: "btc", options }]))[0]?.providerId).toBe("pp_crypto_btc")
  })

  it("has nothing when the Payment Module is not configured", () => {
    expect(listCryptoProviderEntries({ modules: {} })).toEqual([])
  })
})

describe("entryIdOf", () => {
  it("reads the entry id from a registered provider id", () => {
    expect(entryIdOf("pp_crypto_crypto")).toBe("crypto")
  })

  it("refuses another provider's id", () => {
    expect(entryIdOf("pp_stripe_stripe")).toBeUndefined()
  })
})

describe("providerIdFor / isCryptoProviderId", () => {
  it("derives the registered id from the provider identifier", () => {
    expect(providerIdFor("btc")).toBe("pp_crypto_btc")
  })

  it("tells this plugin's provider ids from others", () => {
    expect(isCryptoProviderId("pp_crypto_btc")).toBe(true)
    expect(isCryptoProviderId("pp_stripe_stripe")).toBe(false)
  })
})

describe("resolveCryptoProvider", () => {
  /** A container holding the config module and our module's settings table (one stored row). */
  const scopeWith = (providers: unknown[], stored: Record<string, unknown>[] = []): MedusaContainer => {
    const registrations: Record<string, unknown> = {
      [ContainerRegistrationKeys.CONFIG_MODULE]: configWith(providers),
      [CRYPTO_MODULE]: {
        listCryptoSettings: async (filters: { provider_id: string }) => stored.filter((row) => row.provider_id === filters.provider_id),
      },
    }
    // Only `resolve` is used by the function under test.
    return { resolve: (key: string) => registrations[key] } as unknown as MedusaContainer
  }
  const crypto = (id: string) => ({ resolve: "medusa-payment-crypto/providers/crypto", id, options })

  it("finds a provider by its provider id or its entry id", async () => {
    const scope = scopeWith([crypto("a"), crypto("b")])
    expect((await resolveCryptoProvider(scope, "pp_crypto_b")).entry.entryId).toBe("b")
    expect((await resolveCryptoProvider(scope, "b")).entry.providerId).toBe("pp_crypto_b")
  })

  it("takes the only configured provider when none is named", async () => {
    expect((await resolveCryptoProvider(scopeWith([crypto("a")]))).entry.providerId).toBe("pp_crypto_a")
  })

  it("takes the first configured provider among a region's providers", async () => {
    const scope = scopeWith([crypto("a"), crypto("b")])
    expect((await resolveCryptoProvider(scope, ["pp_stripe_stripe", "pp_crypto_b"])).entry.entryId).toBe("b")
  })

  it("puts the stored admin settings over the medusa-config options", async () => {
    const scope = scopeWith([crypto("a")], [{ id: "cset_1", provider_id: "pp_crypto_a", order_on_detection: false }])
    const provider = await resolveCryptoProvider(scope, "pp_crypto_a")
    expect(provider.options.orderOnDetection).toBe(false)
    expect(provider.entry.options.orderOnDetection).toBe(true)
  })

  it("refuses an id that is not a configured crypto provider, naming the configured ones", async () => {
    await expect(resolveCryptoProvider(scopeWith([crypto("a")]), "pp_crypto_z")).rejects.toMatchObject({
      type: MedusaError.Types.NOT_FOUND,
      message: 'provider_id "pp_crypto_z" is not a configured crypto provider; configured: pp_crypto_a',
    })
  })

  it("says how to register the provider when none is configured", async () => {
    await expect(resolveCryptoProvider(scopeWith([]), "pp_crypto_a")).rejects.toMatchObject({
      type: MedusaError.Types.NOT_ALLOWED,
      message: expect.stringContaining('add "medusa-payment-crypto/providers/crypto" to the payment module\'s providers'),
    })
  })
})

describe("gatewayClientOf", () => {
  it("gives the provider and the registry one client per configuration", async () => {
    const providers = [{ resolve: "medusa-payment-crypto/providers/crypto", id: "a", options }]
    const scope = {
      resolve: (key: string) => (key === ContainerRegistrationKeys.CONFIG_MODULE ? configWith(providers) : { listCryptoSettings: async () => [] }),
    } as unknown as MedusaContainer
    const { client } = await resolveCryptoProvider(scope, "a")
    // Medusa builds the provider from its own copy of the entry's options.
    expect(gatewayClientOf(parseCryptoOptions({ ...options }))).toBe(client)
    expect(gatewayClientOf(parseCryptoOptions({ ...options, apiKey: "other" }))).not.toBe(client)
    expect(gatewayClientOf(parseCryptoOptions({ ...options, gatewayTimeoutMs: 5000 }))).not.toBe(client)
  })
})
