import { isCryptoProviderId, withCryptoPaymentInfo } from "../index"
import { isCryptoProviderId as serverIsCryptoProviderId } from "../server"

describe("crypto provider ids (any pp_crypto_ id, however the store registered the plugin)", () => {
  it("isCryptoProviderId is true for every pp_crypto_ id, from both entries", () => {
    for (const check of [isCryptoProviderId, serverIsCryptoProviderId]) {
      expect(check("pp_crypto_crypto")).toBe(true)
      expect(check("pp_crypto_crypto-hosted")).toBe(true)
      expect(check("pp_stripe_stripe")).toBe(false)
      expect(check(undefined)).toBe(false)
      expect(check(null)).toBe(false)
    }
  })

  it("withCryptoPaymentInfo answers the crypto entry for a crypto id the map does not list, e.g. the hosted one", () => {
    const crypto = { title: "Crypto (BTC, LTC, USDT…)", icon: "coin" }
    const map = withCryptoPaymentInfo<{ title: string; icon: string }>({ pp_stripe_stripe: { title: "Credit card", icon: "card" } }, crypto)
    expect(map["pp_crypto_crypto-hosted"]?.title).toBe("Crypto (BTC, LTC, USDT…)")
    expect(map["pp_crypto_crypto"]).toBe(crypto)
    expect("pp_crypto_crypto-hosted" in map).toBe(true)
    expect(map["pp_stripe_stripe"]?.title).toBe("Credit card")
    expect(map["pp_system_default"]).toBeUndefined()
  })

  it("keeps an entry the map lists for a crypto id", () => {
    const map = withCryptoPaymentInfo({ "pp_crypto_crypto-hosted": "Crypto: pay on the payment page" }, "Crypto")
    expect(map["pp_crypto_crypto-hosted"]).toBe("Crypto: pay on the payment page")
    expect(map["pp_crypto_crypto"]).toBe("Crypto")
  })
})
