// What the shopper is shown for the gateway's states (issue 17, store part), over real HTTP against
// a white-label shop of the sandbox: the coins a cart is offered (the gateway's minimum, coins the
// shop disabled, a zero total), carts outside the publishable key's sales channels, an invoice the
// gateway refused, a cart that changed while its invoice was open, and fiat totals sent to the
// gateway in the currency's minor units (docs/storefront.md).
import path from "node:path"
import type { MedusaContainer } from "@medusajs/framework/types"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosInstance } from "axios"
import { Decimal } from "decimal.js"
import { defaultSeed, type Seed } from "../../src/sandbox"
import {
  callbacksDeliveredAndProcessed,
  capturedAmounts,
  createCryptoSession,
  createCryptoStore,
  mirrorOf,
  orderIdsForCart,
  requestFailure,
  storefrontHeaders,
  useTestGateway,
  type CryptoStore,
  type CryptoStoreOptions,
} from "./helpers"

jest.setTimeout(180_000)

/** The coin the white-label shop of this file's sandbox disabled in its gateway settings (spec §2.4 `hidden`). */
const DISABLED_COIN = "TRX"

/** The bundled seed, whose white-label shop has disabled DISABLED_COIN: a shop's settings are the seed's to say, not a test's to write into the running sandbox. */
function seedWithDisabledCoin(): Seed {
  const seed = defaultSeed()
  const seedShop = seed.shops.find((candidate) => candidate.white_label)
  if (seedShop === undefined) throw new Error("the bundled seed has no white-label shop")
  seedShop.enabled_psys_cids = seedShop.enabled_psys_cids.filter((coin) => coin !== DISABLED_COIN)
  return seed
}

const gateway = useTestGateway({ whiteLabel: true, env: { MPC_TEST_WHITE_LABEL: "true" }, internalTransferSeconds: 0, seed: seedWithDisabledCoin() })

/** A store of its own (sales channel, key, region without a country, product, cart): this file's tests make several in one database. */
function createStore(container: MedusaContainer, options: Omit<CryptoStoreOptions, "manyPerDatabase"> = {}): Promise<CryptoStore> {
  return createCryptoStore(container, { ...options, manyPerDatabase: true })
}

async function collectionOf(api: AxiosInstance, store: CryptoStore): Promise<string> {
  const { data } = await api.post("/store/payment-collections", { cart_id: store.cartId }, { headers: storefrontHeaders(store) })
  return String(data.payment_collection.id)
}

function currencies(api: AxiosInstance, store: CryptoStore, key: CryptoStore = store) {
  return api.get(`/store/crypto/currencies?cart_id=${encodeURIComponent(store.cartId)}`, { headers: storefrontHeaders(key), validateStatus: () => true })
}

function paymentStatus(api: AxiosInstance, store: CryptoStore, key: CryptoStore = store) {
  return api.get(`/store/crypto/payment-status?cart_id=${encodeURIComponent(store.cartId)}`, { headers: storefrontHeaders(key), validateStatus: () => true })
}

function refresh(api: AxiosInstance, store: CryptoStore, key: CryptoStore = store) {
  return api.post("/store/crypto/payment-sessions/refresh", { cart_id: store.cartId }, { headers: storefrontHeaders(key), validateStatus: () => true })
}

interface CoinView {
  psys_cid: string
  reason?: string
  minimum?: string
  minimum_fiat?: string
}

const ids = (coins: readonly CoinView[]) => coins.map((coin) => coin.psys_cid).sort()

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    describe("the coins a cart is offered", () => {
      it("lists a coin whose gateway minimum is above the cart total as unavailable, with its minimum in the coin and in the cart's currency", async () => {
        // 1.00 EUR: BTC's minimum (0.0001 BTC) is about 5.91 EUR, ETH's (0.001 ETH) about 2.87 EUR.
        const store = await createStore(getContainer(), { price: 1 })

        const response = await currencies(api, store)

        expect(response.status).toBe(200)
        expect(ids(response.data.currencies)).toEqual(["BTC_TEST", "LTC", "USDT_ETH", "USDT_TRX"])
        expect(ids(response.data.unavailable)).toEqual(["BTC", "ETH"])
        const btc: CoinView = response.data.unavailable.find((coin: CoinView) => coin.psys_cid === "BTC")
        expect(btc).toMatchObject({ reason: "below_minimum", minimum: "0.0001" })
        expect(new Decimal(String(btc.minimum_fiat)).gt("1")).toBe(true)
        expect(btc.minimum_fiat).toMatch(/^\d+\.\d{2}$/)
        expect(response.data.reason).toBeNull()
      })

      it("refuses a payment session in a coin whose minimum is above the cart total, naming the coin and its minimum, creating nothing", async () => {
        const container = getContainer()
        const store = await createStore(container, { price: 1 })
        const collectionId = await collectionOf(api, store)

        const failure = await requestFailure(createCryptoSession(api, store, collectionId, { psys_cid: "BTC" }))

        expect(failure.status).toBe(400)
        expect(failure.message).toContain("BTC")
        expect(failure.message).toContain("minimum of 0.0001 BTC")
        expect(await mirrorOf(container, store.cartId)).toHaveLength(0)
      })

      it("never takes a coin the shop disabled at the gateway, even with no accepted-coin list set", async () => {
        const container = getContainer()
        const store = await createStore(container)
        const collectionId = await collectionOf(api, store)

        const failure = await requestFailure(createCryptoSession(api, store, collectionId, { psys_cid: DISABLED_COIN }))

        expect(failure.status).toBe(400)
        expect(failure.message).toContain(`data.psys_cid "${DISABLED_COIN}" is not offered`)
        expect(await mirrorOf(container, store.cartId)).toHaveLength(0)
        expect(ids((await currencies(api, store)).data.currencies)).not.toContain(DISABLED_COIN)
      })

      it("offers no coin for a zero total and says why", async () => {
        const store = await createStore(getContainer(), { price: 0 })

        const response = await currencies(api, store)

        expect(response.status).toBe(200)
        expect(response.data).toMatchObject({ total: "0", currencies: [], unavailable: [], reason: "zero_total" })
      })
    })

    describe("a publishable key of another sales channel", () => {
      it("gets 404 naming the cart from the payment status, the coin list and the refresh of a cart outside its channels", async () => {
        const container = getContainer()
        const store = await createStore(container)
        const other = await createStore(container)
        await createCryptoSession(api, store, await collectionOf(api, store), { psys_cid: "LTC" })

        const status = await paymentStatus(api, store, other)
        const coins = await currencies(api, store, other)
        const renewed = await refresh(api, store, other)

        expect([status.status, coins.status, renewed.status]).toEqual([404, 404, 404])
        for (const answer of [status, coins, renewed]) expect(answer.data.message).toBe(`No crypto payment found for cart ${store.cartId}: the cart does not exist, belongs to a sales channel this publishable key does not cover, or has no crypto payment session yet`)
        expect((await paymentStatus(api, store)).status).toBe(200)
      })
    })

    describe("an invoice the gateway refused", () => {
      it("leaves nothing the payment status shows as pending: the shopper sees the refusal", async () => {
        const container = getContainer()
        // Medusa keeps this e-mail; the gateway refuses it, longer than it takes (spec §7: a validation error naming the field).
        const store = await createStore(container, { email: `${"s".repeat(250)}@example.com` })
        const collectionId = await collectionOf(api, store)

        const failure = await requestFailure(createCryptoSession(api, store, collectionId, { psys_cid: "LTC" }))
        const status = await paymentStatus(api, store)

        expect(failure.status).toBe(400)
        expect(failure.message).toContain("email")
        expect(status.status).toBe(404)
        expect(await mirrorOf(container, store.cartId)).toHaveLength(0)
      })
    })

    describe("a cart that changes while its invoice is open", () => {
      async function changedCart(container: MedusaContainer) {
        const store = await createStore(container, { price: 84.9 })
        const collectionId = await collectionOf(api, store)
        const first = await createCryptoSession(api, store, collectionId, { psys_cid: "LTC" })
        // The shopper adds something: Medusa deletes the cart's payment sessions (84.90 → 169.80).
        await api.post(`/store/carts/${store.cartId}/line-items`, { variant_id: store.variantId, quantity: 1 }, { headers: storefrontHeaders(store) })
        return { store, collectionId, first }
      }

      it("no longer presents the invoice of the deleted session as the cart's invoice", async () => {
        const { store, first } = await changedCart(getContainer())

        const { status, data } = await paymentStatus(api, store)

        expect(status).toBe(200)
        expect(data).toMatchObject({ cart_id: store.cartId, order_id: null, invoice: null, cart_changed: true, abandoned_payments: [] })
        expect(JSON.stringify(data)).not.toContain(first.txnId)
      })

      it("shows money paid into it as an earlier invoice's payment to be returned, never as paid for the cart", async () => {
        const container = getContainer()
        const { store, collectionId, first } = await changedCart(container)
        await gateway.control().pay(first.txnId)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)

        const { data } = await paymentStatus(api, store)

        expect(data.order_id).toBeNull()
        expect(data.invoice).toBeNull()
        expect(data.cart_changed).toBe(true)
        expect(data.abandoned_payments).toHaveLength(1)
        expect(data.abandoned_payments[0]).toMatchObject({
          txn_id: first.txnId,
          order_number: store.cartId,
          psys_cid: "LTC",
          source_amount: "84.9",
          source_currency: "EUR",
          reason: "cart_changed",
          next_step: "refund",
          account: { psys_cid: "LTC", holds_order_money: false },
        })
        expect(new Decimal(String(data.abandoned_payments[0].received_amount)).gt(0)).toBe(true)
        expect(await orderIdsForCart(container, store.cartId)).toHaveLength(0)

        // The shopper pays the new total with a new invoice; the earlier money is still shown for what it is.
        const second = await createCryptoSession(api, store, collectionId, { psys_cid: "LTC" })
        const after = (await paymentStatus(api, store)).data
        expect(after.invoice).toMatchObject({ txn_id: second.txnId, attempt: 2, source_amount: "169.8", status: "new", session_status: "pending" })
        expect(after.cart_changed).toBe(false)
        expect(after.abandoned_payments).toHaveLength(1)
        expect(after.abandoned_payments[0]).toMatchObject({ txn_id: first.txnId })
      })
    })

    describe("a new invoice for a changed cart", () => {
      it("refresh gives a cart whose session Medusa deleted a new invoice for its new total", async () => {
        const container = getContainer()
        const store = await createStore(container, { price: 84.9 })
        const first = await createCryptoSession(api, store, await collectionOf(api, store), { psys_cid: "LTC" })
        await api.post(`/store/carts/${store.cartId}/line-items`, { variant_id: store.variantId, quantity: 1 }, { headers: storefrontHeaders(store) })

        const renewed = await refresh(api, store)

        expect(renewed.status).toBe(200)
        expect(renewed.data).toMatchObject({ cart_changed: false, invoice: { attempt: 2, source_amount: "169.8", psys_cid: "LTC", status: "new" } })
        expect(renewed.data.invoice.txn_id).not.toBe(first.txnId)
      })
    })

    describe("fiat totals sent to the gateway", () => {
      it("sends a four-decimal EUR total rounded half-up to cents and captures exactly the cart total", async () => {
        const container = getContainer()
        const store = await createStore(container, { price: "25.0699" })
        const session = await createCryptoSession(api, store, await collectionOf(api, store), { psys_cid: "LTC" })

        expect((await gateway.control().invoice(session.txnId)).source_amount).toBe("25.07")
        await gateway.control().pay(session.txnId)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)

        expect(await orderIdsForCart(container, store.cartId)).toHaveLength(1)
        expect(await capturedAmounts(container, session.sessionId)).toEqual(["25.0699"])
      })

      it("sends a KWD total with its three decimals", async () => {
        const store = await createStore(getContainer(), { currency: "kwd", price: "13.845" })
        const session = await createCryptoSession(api, store, await collectionOf(api, store), { psys_cid: "LTC" })

        expect((await gateway.control().invoice(session.txnId)).source_amount).toBe("13.845")
        expect(session.data.source_amount).toBe("13.845")
      })

      it("sends a JPY total without decimals", async () => {
        const store = await createStore(getContainer(), { currency: "jpy", price: 1734 })
        const session = await createCryptoSession(api, store, await collectionOf(api, store), { psys_cid: "LTC" })

        expect((await gateway.control().invoice(session.txnId)).source_amount).toBe("1734")
        expect(session.data.source_amount).toBe("1734")
      })
    })
  },
})
