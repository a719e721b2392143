import type { ConfigModule } from "@medusajs/framework/types"
import { entryIdOf, findCryptoProviderEntry, listCryptoProviderEntries } from "../config"

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
    expect(findCryptoProviderEntry(configWith([{ resolve: "/app/src/providers/crypto", id: "btc", options }]), "btc")?.providerId).toBe("pp_crypto_btc")
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
