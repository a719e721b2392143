// The store routes the storefront kit polls and calls (src/api/store/crypto), against a white-label
// shop of the sandbox: GET /store/crypto/payment-status and POST /store/crypto/payment-sessions/refresh.
import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosInstance } from "axios"
import { CRYPTO_MODULE } from "../../src/modules/crypto"
import type CryptoModuleService from "../../src/modules/crypto/service"
import {
  createCryptoStore,
  createPaymentCollection,
  createCryptoSession,
  mirrorOf,
  orderIdsForCart,
  requestFailure,
  callbacksDeliveredAndProcessed,
  startCryptoCheckout,
  storefrontHeaders,
  useTestGateway,
  type CryptoStore,
} from "./helpers"

jest.setTimeout(180_000)

const gateway = useTestGateway({ whiteLabel: true, env: { MPC_TEST_WHITE_LABEL: "true" } })

const DECIMAL = /^\d+(\.\d+)?$/

function getStatus(api: AxiosInstance, store: CryptoStore, cartId = store.cartId) {
  return api.get(`/store/crypto/payment-status?cart_id=${encodeURIComponent(cartId)}`, { headers: storefrontHeaders(store), validateStatus: () => true })
}

function refresh(api: AxiosInstance, store: CryptoStore, body: Record<string, unknown> = { cart_id: store.cartId }) {
  return api.post("/store/crypto/payment-sessions/refresh", body, { headers: storefrontHeaders(store), validateStatus: () => true })
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    gateway.bindApp(getContainer)
    describe("GET /store/crypto/payment-status", () => {
      it("answers the active invoice's white-label fields with exact decimal strings and no-store", async () => {
        const store = await createCryptoStore(getContainer())
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const invoice = await gateway.control().invoice(txnId)

        const response = await getStatus(api, store)

        expect(response.status).toBe(200)
        expect(response.headers["cache-control"]).toBe("no-store")
        expect(response.data).toMatchObject({
          cart_id: store.cartId,
          order_id: null,
          invoice: {
            order_number: store.cartId,
            attempt: 1,
            txn_id: txnId,
            status: "new",
            session_status: "pending",
            shopper_status: "new",
            white_label: true,
            psys_cid: "LTC",
            network: "LTC",
            source_currency: "EUR",
            source_amount: "10.5",
            amount: invoice.invoice_total_sum,
            pending_amount: invoice.invoice_total_sum,
            address: invoice.wallet_hash,
            expires_at: new Date(invoice.expire_utc * 1000).toISOString(),
            confirmations: null,
          },
        })
        expect(response.data.invoice.amount).toMatch(DECIMAL)
        expect(response.data.invoice.qr_code).toMatch(/^data:image\/png;base64,/)
      })

      it("shows the confirmations so far and the amount still due while a payment confirms", async () => {
        const store = await createCryptoStore(getContainer())
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await gateway.payAndDeliver(txnId, { confirmations: 1 })

        const { data } = await getStatus(api, store)

        expect(data.invoice).toMatchObject({ status: "pending", shopper_status: "detected", confirmations: { current: 1, required: 3 }, pending_amount: "0" })
        await gateway.control().confirm(txnId)
        await callbacksDeliveredAndProcessed(gateway.sandbox, getContainer())
        const [orderId] = await orderIdsForCart(getContainer(), store.cartId)
        expect((await getStatus(api, store)).data).toMatchObject({ order_id: orderId, invoice: { status: "completed", session_status: "captured", shopper_status: "paid", confirmations: { current: 3, required: 3 } } })
      })

      it("answers 404 in the same words, naming the cart it was asked for, for an unknown cart and for a cart without a crypto invoice", async () => {
        const store = await createCryptoStore(getContainer())
        const unknown = await getStatus(api, store, "cart_01UNKNOWN")
        const withoutInvoice = await getStatus(api, store)
        const words = (cartId: string) =>
          `No crypto payment found for cart ${cartId}: the cart does not exist, belongs to a sales channel this publishable key does not cover, or has no crypto payment session yet`

        expect(unknown.status).toBe(404)
        expect(withoutInvoice.status).toBe(404)
        expect(unknown.data).toEqual({ type: "not_found", message: words("cart_01UNKNOWN") })
        expect(withoutInvoice.data).toEqual({ type: "not_found", message: words(store.cartId) })
      })

      it("refuses a request without cart_id, naming the field", async () => {
        const store = await createCryptoStore(getContainer())
        const failure = await requestFailure(api.get("/store/crypto/payment-status", { headers: storefrontHeaders(store) }))
        expect(failure.status).toBe(400)
        expect(failure.message).toContain("cart_id")
      })
    })

    describe("a new invoice for the same cart", () => {
      it("replaces an expired invoice with the next attempt, and paying it places the order", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const first = await startCryptoCheckout(api, store)
        const clock = await gateway.control().advanceClock(7200)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)

        const renewed = await refresh(api, store)

        expect(renewed.status).toBe(200)
        expect(renewed.data.invoice).toMatchObject({ order_number: `${store.cartId}-2`, attempt: 2, status: "new", session_status: "pending" })
        expect(renewed.data.invoice.txn_id).not.toBe(first.txnId)
        expect(new Date(renewed.data.invoice.expires_at).getTime()).toBeGreaterThan(clock.now_utc * 1000)
        await gateway.payAndDeliver(renewed.data.invoice.txn_id)
        const orderIds = await orderIdsForCart(container, store.cartId)
        expect(orderIds).toHaveLength(1)
        expect((await getStatus(api, store)).data).toMatchObject({ order_id: orderIds[0], invoice: { attempt: 2, status: "completed", session_status: "captured" } })
        expect((await mirrorOf(container, store.cartId)).map((row) => row.session_status)).toEqual(["canceled", "captured"])
      })

      it("gives another coin a new invoice when the storefront re-initiates the session with it", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const collectionId = await createPaymentCollection(api, store)
        const btc = await createCryptoSession(api, store, collectionId, { psys_cid: "BTC" })
        const ltc = await createCryptoSession(api, store, collectionId, { psys_cid: "LTC" })

        expect(ltc.txnId).not.toBe(btc.txnId)
        expect((await getStatus(api, store)).data.invoice).toMatchObject({ psys_cid: "LTC", attempt: 2, txn_id: ltc.txnId })
        expect((await mirrorOf(container, store.cartId)).map((row) => row.psys_cid)).toEqual(["BTC", "LTC"])
      })

      it("switches coin through the refresh route before anything is paid", async () => {
        const store = await createCryptoStore(getContainer())
        await startCryptoCheckout(api, store, { psys_cid: "BTC" })

        const renewed = await refresh(api, store, { cart_id: store.cartId, psys_cid: "USDT_TRX" })

        expect(renewed.status).toBe(200)
        expect(renewed.data.invoice).toMatchObject({ psys_cid: "USDT_TRX", network: "TRX", attempt: 2 })
      })

      it("refuses a new invoice while the invoice can still be paid in the same coin", async () => {
        const store = await createCryptoStore(getContainer())
        await startCryptoCheckout(api, store)

        const refused = await refresh(api, store)

        expect(refused.status).toBe(400)
        expect(refused.data.message).toContain("can still be paid")
        expect((await getStatus(api, store)).data.invoice.attempt).toBe(1)
      })

      it("refuses a new invoice once money arrived on the invoice", async () => {
        const store = await createCryptoStore(getContainer())
        const { txnId } = await startCryptoCheckout(api, store)
        await gateway.payAndDeliver(txnId, { confirmations: 0 })

        const refused = await refresh(api, store, { cart_id: store.cartId, psys_cid: "LTC" })

        expect(refused.status).toBe(400)
        expect((await getStatus(api, store)).data.invoice.attempt).toBe(1)
      })

      it("answers 404 naming the cart for a cart that is not ours", async () => {
        const store = await createCryptoStore(getContainer())
        const refused = await refresh(api, store)
        expect(refused.status).toBe(404)
        expect(refused.data.message).toBe(`No crypto payment found for cart ${store.cartId}: the cart does not exist, belongs to a sales channel this publishable key does not cover, or has no crypto payment session yet`)
      })
    })

    describe("a coin under maintenance at the gateway", () => {
      afterEach(() => gateway.control().currencySettings("LTC", { maintenance: false }))

      it("is refused when the white-label checkout chooses it, with a message naming the coin and data.psys_cid, and nothing is created", async () => {
        await gateway.control().currencySettings("LTC", { maintenance: true })
        // A fiat no other case of this file lists, so the 60 s currency cache holds no list made before the change.
        const store = await createCryptoStore(getContainer(), { currency: "gbp" })

        const failure = await requestFailure(startCryptoCheckout(api, store, { psys_cid: "LTC" }))

        expect(failure.status).toBe(400)
        expect(failure.message).toContain('data.psys_cid "LTC" is under maintenance at the gateway and takes no payment now; choose another coin')
        expect(await mirrorOf(getContainer(), store.cartId)).toEqual([])
      })
    })

    describe("with the sandbox's callback deliveries stopped", () => {
      beforeAll(() => gateway.control().dropCallbacks({ count: 1000 }))

      it("answers a fresh mirror without asking the gateway, and re-reads a stale one, placing the order", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store)
        await gateway.control().pay(txnId)
        const cryptoModule = container.resolve<CryptoModuleService>(CRYPTO_MODULE)
        const [row] = await mirrorOf(container, store.cartId)
        // Fresh for the whole test, not for the 10 s the route allows from now: a read that a loaded
        // machine delays must still find the mirror fresh (a sync time ahead of the clock stays fresh).
        await cryptoModule.updateCryptoInvoices({ id: row.id, last_synced_at: new Date(Date.now() + 60 * 60_000) })

        expect((await getStatus(api, store)).data).toMatchObject({ order_id: null, invoice: { status: "new" } })

        await cryptoModule.updateCryptoInvoices({ id: row.id, last_synced_at: new Date(Date.now() - 60_000) })
        const { data } = await getStatus(api, store)

        const orderIds = await orderIdsForCart(container, store.cartId)
        expect(orderIds).toHaveLength(1)
        expect(data).toMatchObject({ order_id: orderIds[0], invoice: { status: "completed", session_status: "captured" } })
      })
    })
  },
})
