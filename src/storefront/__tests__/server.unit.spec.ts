import { CryptoStoreError, getCryptoPaymentStatus, initiateCryptoSession, listCryptoCurrencies, refreshCryptoInvoice, type CryptoSessionCart } from "../server"
import { statusWith } from "./fixtures"

interface Call {
  url: string
  method: string
  headers: Record<string, string>
  body: unknown
  cache: RequestCache | undefined
}

/** A fetch that records each call and answers from a queue of [status, body]. */
function fakeFetch(answers: Array<[number, unknown]>): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = []
  const queue = [...answers]
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
      cache: init?.cache,
    })
    const [status, body] = queue.shift() ?? [500, { message: "no answer queued" }]
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
  }
  return { fetch: fetchImpl as typeof fetch, calls }
}

const connection = { baseUrl: "http://localhost:9000/", publishableKey: "pk_test" }
const silent = { error: () => undefined }

describe("getCryptoPaymentStatus", () => {
  it("GETs the status of the cart with the publishable key and no cache", async () => {
    const { fetch, calls } = fakeFetch([[200, statusWith({ status: "new" })]])
    const status = await getCryptoPaymentStatus({ ...connection, fetch, cartId: "cart_1" })
    expect(status.invoice?.status).toBe("new")
    expect(calls).toEqual([
      expect.objectContaining({
        url: "http://localhost:9000/store/crypto/payment-status?cart_id=cart_1",
        method: "GET",
        cache: "no-store",
        headers: expect.objectContaining({ "x-publishable-api-key": "pk_test" }),
      }),
    ])
  })

  it("throws a CryptoStoreError with the status and the store's message on a 404", async () => {
    const { fetch } = fakeFetch([[404, { type: "not_found", message: "Cart cart_x was not found" }]])
    const failure = getCryptoPaymentStatus({ ...connection, fetch, cartId: "cart_x" })
    await expect(failure).rejects.toBeInstanceOf(CryptoStoreError)
    await expect(failure).rejects.toMatchObject({ status: 404, message: expect.stringContaining("Cart cart_x was not found") })
  })

  it("refuses an amount sent as a number, naming the field", async () => {
    const { fetch } = fakeFetch([[200, { cart_id: "cart_1", order_id: null, invoice: { status: "new", amount: 0.001 } }]])
    await expect(getCryptoPaymentStatus({ ...connection, fetch, cartId: "cart_1" })).rejects.toThrow("invoice.amount must be a decimal string or null")
  })

  it("reports a network failure with no status", async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError("fetch failed")
    }
    await expect(getCryptoPaymentStatus({ ...connection, fetch: failing, logger: silent, cartId: "cart_1" })).rejects.toMatchObject({ status: null })
  })

  it("requires a cart id", async () => {
    const { fetch } = fakeFetch([])
    await expect(getCryptoPaymentStatus({ ...connection, fetch, cartId: " " })).rejects.toThrow("cartId is required")
  })
})

describe("listCryptoCurrencies", () => {
  it("GETs the coins of the cart", async () => {
    const body = {
      cart_id: "cart_1",
      provider_id: "pp_crypto_crypto",
      currency_code: "eur",
      total: "49.9",
      currencies: [{ psys_cid: "BTC", currency: "BTC", name: "Bitcoin", icon: null, amount: "0.0012", rate: "41000", maintenance: false, default: true }],
    }
    const { fetch, calls } = fakeFetch([[200, body]])
    await expect(listCryptoCurrencies({ ...connection, fetch, cartId: "cart_1" })).resolves.toEqual(body)
    expect(calls[0]?.url).toBe("http://localhost:9000/store/crypto/currencies?cart_id=cart_1")
  })
})

const cartWith = (sessions: NonNullable<CryptoSessionCart["payment_collection"]>["payment_sessions"]): CryptoSessionCart => ({
  id: "cart_1",
  payment_collection: { id: "paycol_1", payment_sessions: sessions },
})

describe("initiateCryptoSession", () => {
  const answer: [number, unknown] = [200, { payment_collection: { id: "paycol_1", payment_sessions: [] } }]

  it("initiates with the coin when the cart has no session", async () => {
    const { fetch, calls } = fakeFetch([answer])
    const result = await initiateCryptoSession(cartWith([]), { psys_cid: "BTC" }, { ...connection, fetch })
    expect(result).toMatchObject({ initiated: true, reason: "no-session" })
    expect(calls).toEqual([
      expect.objectContaining({
        method: "POST",
        url: "http://localhost:9000/store/payment-collections/paycol_1/payment-sessions",
        body: { provider_id: "pp_crypto_crypto", data: { psys_cid: "BTC" } },
      }),
    ])
  })

  it("re-initiates when the active crypto session has another coin", async () => {
    const { fetch, calls } = fakeFetch([answer])
    const cart = cartWith([{ provider_id: "pp_crypto_crypto", status: "pending", data: { psys_cid: "BTC" } }])
    const result = await initiateCryptoSession(cart, { psys_cid: "USDT_TRX" }, { ...connection, fetch })
    expect(result).toMatchObject({ initiated: true, reason: "coin-changed" })
    expect(calls[0]?.body).toEqual({ provider_id: "pp_crypto_crypto", data: { psys_cid: "USDT_TRX" } })
  })

  it("does nothing when the active crypto session already has that coin", async () => {
    const { fetch, calls } = fakeFetch([])
    const cart = cartWith([{ provider_id: "pp_crypto_crypto", status: "pending", data: { psys_cid: "BTC" } }])
    await expect(initiateCryptoSession(cart, { psys_cid: "BTC" }, { ...connection, fetch })).resolves.toMatchObject({ initiated: false, reason: "same-coin" })
    expect(calls).toHaveLength(0)
  })

  it("keeps the active crypto session when no coin is given (hosted mode)", async () => {
    const { fetch, calls } = fakeFetch([])
    const cart = cartWith([{ provider_id: "pp_crypto_crypto", status: "pending", data: {} }])
    await expect(initiateCryptoSession(cart, {}, { ...connection, fetch })).resolves.toMatchObject({ initiated: false })
    expect(calls).toHaveLength(0)
  })

  it("initiates when the active session is another provider's", async () => {
    const { fetch, calls } = fakeFetch([answer])
    const cart = cartWith([{ provider_id: "pp_system_default", status: "pending", data: {} }])
    await expect(initiateCryptoSession(cart, { psys_cid: "BTC" }, { ...connection, fetch })).resolves.toMatchObject({ reason: "other-provider" })
    expect(calls).toHaveLength(1)
  })

  it("initiates again for the same coin when forced (a new invoice after expiry)", async () => {
    const { fetch, calls } = fakeFetch([answer])
    const cart = cartWith([{ provider_id: "pp_crypto_crypto", status: "pending", data: { psys_cid: "BTC" } }])
    await expect(initiateCryptoSession(cart, { psys_cid: "BTC", force: true }, { ...connection, fetch })).resolves.toMatchObject({ reason: "forced" })
    expect(calls).toHaveLength(1)
  })

  it("creates the payment collection first when the cart has none", async () => {
    const { fetch, calls } = fakeFetch([[200, { payment_collection: { id: "paycol_new" } }], answer])
    await initiateCryptoSession({ id: "cart_1" }, { psys_cid: "BTC" }, { ...connection, fetch })
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "POST http://localhost:9000/store/payment-collections",
      "POST http://localhost:9000/store/payment-collections/paycol_new/payment-sessions",
    ])
    expect(calls[0]?.body).toEqual({ cart_id: "cart_1" })
  })

  it("goes through the js-sdk when one is given, with its headers", async () => {
    const initiatePaymentSession = jest.fn(async () => ({ payment_collection: { id: "paycol_1" } }))
    const sdk = { store: { payment: { initiatePaymentSession } } }
    const cart = cartWith([{ provider_id: "pp_crypto_crypto", status: "pending", data: { psys_cid: "BTC" } }])
    await initiateCryptoSession(cart, { psys_cid: "LTC", provider_id: "pp_crypto_eu" }, { sdk, headers: { authorization: "Bearer t" } })
    expect(initiatePaymentSession).toHaveBeenCalledWith(cart, { provider_id: "pp_crypto_eu", data: { psys_cid: "LTC" } }, {}, { authorization: "Bearer t" })
  })

  it("refuses a provider id that is not the plugin's", async () => {
    const { fetch } = fakeFetch([])
    await expect(initiateCryptoSession(cartWith([]), { provider_id: "pp_stripe_stripe" }, { ...connection, fetch })).rejects.toThrow(
      'provider_id must be a crypto provider id such as "pp_crypto_crypto"'
    )
  })

  it("refuses a malformed coin id", async () => {
    const { fetch } = fakeFetch([])
    await expect(initiateCryptoSession(cartWith([]), { psys_cid: "BTC; drop" }, { ...connection, fetch })).rejects.toThrow("psys_cid must be a coin id")
  })
})

describe("refreshCryptoInvoice", () => {
  it("POSTs the cart (and the new coin) for a new invoice and answers the new status", async () => {
    const { fetch, calls } = fakeFetch([[200, statusWith({ status: "new", txn_id: "txn_2", attempt: 2 })]])
    const status = await refreshCryptoInvoice({ ...connection, fetch, cartId: "cart_1", psysCid: "LTC" })
    expect(status.invoice?.txn_id).toBe("txn_2")
    expect(calls).toEqual([
      expect.objectContaining({
        method: "POST",
        url: "http://localhost:9000/store/crypto/payment-sessions/refresh",
        body: { cart_id: "cart_1", psys_cid: "LTC" },
        cache: "no-store",
      }),
    ])
  })

  it("sends no coin when none is given (the same coin again)", async () => {
    const { fetch, calls } = fakeFetch([[200, statusWith({ status: "new" })]])
    await refreshCryptoInvoice({ ...connection, fetch, cartId: "cart_1" })
    expect(calls[0]?.body).toEqual({ cart_id: "cart_1" })
  })

  it("passes on the store's refusal while the invoice can still be paid", async () => {
    const { fetch } = fakeFetch([[400, { type: "not_allowed", message: "The invoice can still be paid" }]])
    await expect(refreshCryptoInvoice({ ...connection, fetch, cartId: "cart_1" })).rejects.toMatchObject({ status: 400 })
  })
})
