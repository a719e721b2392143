import { assertCartInSalesChannels, cartNotFound } from "../find-cart-crypto-invoice"
import { networkOf, sessionSourceRate } from "../read-crypto-payment-status"
import { isCryptoInvoiceStale, PAYMENT_STATUS_STALE_AFTER_MS } from "../refresh-stale-crypto-invoice"

const now = new Date("2026-11-24T12:00:00.000Z")
const ago = (ms: number) => new Date(now.getTime() - ms)

describe("isCryptoInvoiceStale", () => {
  it("re-reads an open invoice synced longer ago than the bound", () => {
    expect(isCryptoInvoiceStale({ gateway_status: "pending", last_synced_at: ago(PAYMENT_STATUS_STALE_AFTER_MS + 1), created_at: ago(60_000) }, now)).toBe(true)
  })

  it("answers an open invoice synced within the bound from the mirror", () => {
    expect(isCryptoInvoiceStale({ gateway_status: "new", last_synced_at: ago(PAYMENT_STATUS_STALE_AFTER_MS - 1), created_at: ago(60_000) }, now)).toBe(false)
  })

  it("counts a never-synced invoice from its creation", () => {
    expect(isCryptoInvoiceStale({ gateway_status: "new", last_synced_at: null, created_at: ago(2_000) }, now)).toBe(false)
    expect(isCryptoInvoiceStale({ gateway_status: "new", last_synced_at: null, created_at: ago(60_000) }, now)).toBe(true)
  })

  it("never re-reads a final invoice, however old", () => {
    for (const status of ["completed", "mismatch", "expired", "cancelled", "Cancelled Duplicate", "error"]) {
      expect(isCryptoInvoiceStale({ gateway_status: status, last_synced_at: ago(86_400_000), created_at: ago(86_400_000) }, now)).toBe(false)
    }
  })

  it("re-reads a status the spec does not list, as an open one", () => {
    expect(isCryptoInvoiceStale({ gateway_status: "on hold", last_synced_at: ago(60_000), created_at: ago(60_000) }, now)).toBe(true)
  })
})

describe("networkOf", () => {
  it("names a token's network by its psys_cid suffix", () => {
    expect(networkOf("USDT_TRX")).toBe("TRX")
    expect(networkOf("USDT_ETH")).toBe("ETH")
  })

  it("names a coin without a suffix by itself", () => {
    expect(networkOf("BTC")).toBe("BTC")
    expect(networkOf(null)).toBeNull()
  })
})

describe("assertCartInSalesChannels", () => {
  it("lets a cart of one of the publishable key's sales channels through", () => {
    expect(() => assertCartInSalesChannels("cart_1", { sales_channel_id: "sc_web" }, ["sc_app", "sc_web"])).not.toThrow()
  })

  const notFound = "No crypto payment found for cart cart_1: the cart does not exist, belongs to a sales channel this publishable key does not cover, or has no crypto payment session yet"

  it("names the cart it was asked for", () => {
    expect(cartNotFound("cart_1").message).toBe(notFound)
  })

  it("answers not found, naming the cart, for a cart of another sales channel, as for an unknown cart", () => {
    expect(() => assertCartInSalesChannels("cart_1", { sales_channel_id: "sc_other" }, ["sc_web"])).toThrow(notFound)
    expect(() => assertCartInSalesChannels("cart_1", undefined, ["sc_web"])).toThrow(notFound)
  })

  it("answers not found for a cart without a sales channel, and for a key without any", () => {
    expect(() => assertCartInSalesChannels("cart_1", { sales_channel_id: null }, ["sc_web"])).toThrow(notFound)
    expect(() => assertCartInSalesChannels("cart_1", { sales_channel_id: "sc_web" }, [])).toThrow(notFound)
  })
})

describe("sessionSourceRate (the status route's invoice.source_rate)", () => {
  it("passes the rate the provider kept in the session data through as the same string", () => {
    expect(sessionSourceRate({ source_rate: "76.470412345678901234567" })).toBe("76.470412345678901234567")
  })

  it("is null for a session without one (hosted, or made before the field) and for anything not a positive decimal string", () => {
    expect(sessionSourceRate({})).toBeNull()
    expect(sessionSourceRate({ source_rate: null })).toBeNull()
    expect(sessionSourceRate({ source_rate: 76.47 })).toBeNull()
    expect(sessionSourceRate({ source_rate: "76,47" })).toBeNull()
    expect(sessionSourceRate({ source_rate: "0" })).toBeNull()
  })
})
