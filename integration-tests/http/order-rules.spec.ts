import path from "node:path"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosInstance } from "axios"
import { Decimal } from "decimal.js"
import { CRYPTO_MODULE } from "../../src/modules/crypto"
import type CryptoModuleService from "../../src/modules/crypto/service"
import {
  adminHeaders,
  callbacksDeliveredAndProcessed,
  createCryptoStore,
  orderIdsForCart,
  orderStatus,
  requestFailure,
  startCryptoCheckout,
  storefrontHeaders,
  useTestGateway,
  type CryptoStore,
} from "./helpers"

jest.setTimeout(180_000)

// Declared before the runner's own beforeAll, which boots the app with the environment the sandbox's start sets.
const gateway = useTestGateway({ whiteLabel: false })

/** The confirmations arrive: the invoice completes, and the sandbox delivers its callbacks. */
async function confirmAndDeliver(txnId: string): Promise<void> {
  await gateway.control().confirm(txnId)
  await gateway.delivered()
}

/** A second cart in the same store (one store per test: its region holds the country), with the same item. */
async function anotherCart(api: AxiosInstance, store: CryptoStore): Promise<CryptoStore> {
  const { data: first } = await api.get(`/store/carts/${store.cartId}`, { headers: storefrontHeaders(store) })
  const { data } = await api.post(
    "/store/carts",
    { region_id: first.cart.region_id, email: "shopper@example.com", items: [{ variant_id: store.variantId, quantity: 1 }] },
    { headers: storefrontHeaders(store) }
  )
  return { ...store, cartId: String(data.cart.id) }
}

/** Saves settings as the merchant does (Settings → Crypto): through the admin API. */
async function saveSettings(api: AxiosInstance, auth: { headers: Record<string, string> }, body: Record<string, unknown>) {
  const { data } = await api.post("/admin/crypto/settings", body, auth)
  return data.settings
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    gateway.bindApp(getContainer)

    describe("order rules: order on detection per amount and coin (docs/books.md#order-rules)", () => {
      it("places a cart below the rule's amount on detection, and a cart above it only once the invoice completes", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        // The carts cost 10.50 EUR: one rule below 20 EUR, then one below 10 EUR.
        await saveSettings(api, auth, { order_on_detection: false, order_rules: [{ coins: [], below: { amount: "20", currency: "EUR" }, place: "on_detection" }] })
        const below = await createCryptoStore(container)
        const belowCheckout = await startCryptoCheckout(api, below)
        await gateway.payAndDeliver(belowCheckout.txnId, { confirmations: 0 })
        expect(await orderIdsForCart(container, below.cartId)).toHaveLength(1)

        await saveSettings(api, auth, { order_rules: [{ coins: [], below: { amount: "10", currency: "EUR" }, place: "on_detection" }] })
        const above = await anotherCart(api, below)
        const aboveCheckout = await startCryptoCheckout(api, above)
        await gateway.payAndDeliver(aboveCheckout.txnId, { confirmations: 0 })
        expect(await orderIdsForCart(container, above.cartId)).toEqual([])
        const [row] = await container.resolve<CryptoModuleService>(CRYPTO_MODULE).listCryptoInvoices({ cart_id: above.cartId })
        expect(row).toMatchObject({ gateway_status: "pending", session_status: "pending" })

        await confirmAndDeliver(aboveCheckout.txnId)
        const [orderId] = await orderIdsForCart(container, above.cartId)
        expect(orderId).toBeDefined()
        expect(await orderStatus(container, orderId)).toBe("pending")
      })

      it("places the order on detection for a listed coin, and not for another coin of the same amount", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        await saveSettings(api, auth, { order_on_detection: false, order_rules: [{ coins: ["LTC", "USDT_TRX"], below: null, place: "on_detection" }] })

        const listed = await createCryptoStore(container)
        const ltc = await startCryptoCheckout(api, listed, { psys_cid: "LTC" })
        await gateway.payAndDeliver(ltc.txnId, { confirmations: 0 })
        expect(await orderIdsForCart(container, listed.cartId)).toHaveLength(1)

        const other = await anotherCart(api, listed)
        const btc = await startCryptoCheckout(api, other, { psys_cid: "BTC" })
        await gateway.payAndDeliver(btc.txnId, { confirmations: 0 })
        expect(await orderIdsForCart(container, other.cartId)).toEqual([])
      })

      it("places the order on detection for a coin the shopper chose on the gateway's hosted page, once the gateway reports it, and not for another coin", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        const service = container.resolve<CryptoModuleService>(CRYPTO_MODULE)
        await saveSettings(api, auth, { order_on_detection: false, order_rules: [{ coins: ["LTC"], below: null, place: "on_detection" }] })

        // The store names no coin: the shopper picks it on the gateway's page (a shop without
        // white-label learns it from the callback's `currency`, spec §6.1).
        const store = await createCryptoStore(container)
        const hosted = await startCryptoCheckout(api, store)
        expect((await service.listCryptoInvoices({ cart_id: store.cartId }))[0]).toMatchObject({ psys_cid: null })
        const ltc = await gateway.control().switchCurrency(hosted.txnId, "LTC")
        await gateway.payAndDeliver(ltc.txn_id, { confirmations: 0 })
        expect(await orderIdsForCart(container, store.cartId)).toHaveLength(1)
        expect((await service.listCryptoInvoices({ cart_id: store.cartId }))[0]).toMatchObject({ psys_cid: "LTC", session_status: "pending_authorization" })

        const other = await anotherCart(api, store)
        const otherHosted = await startCryptoCheckout(api, other)
        // TRX: a coin whose currency code names it alone (BTC would not: BTC_TEST's code is BTC too).
        const trx = await gateway.control().switchCurrency(otherHosted.txnId, "TRX")
        await gateway.payAndDeliver(trx.txn_id, { confirmations: 0 })
        expect(await orderIdsForCart(container, other.cartId)).toEqual([])
        expect((await service.listCryptoInvoices({ cart_id: other.cartId }))[0]).toMatchObject({ psys_cid: "TRX", session_status: "pending" })
      })
    })

    describe("protect order status (docs/books.md#protect-order-status)", () => {
      it("leaves an order canceled by hand canceled when its invoice completes late, and raises protected_order with the money", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        await saveSettings(api, auth, { order_on_detection: true })
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await gateway.payAndDeliver(txnId, { confirmations: 0 })
        const [orderId] = await orderIdsForCart(container, store.cartId)
        expect(orderId).toBeDefined()

        await api.post(`/admin/orders/${orderId}/cancel`, {}, auth)
        expect(await orderStatus(container, orderId)).toBe("canceled")

        await confirmAndDeliver(txnId)

        expect(await orderStatus(container, orderId)).toBe("canceled")
        const received = new Decimal((await gateway.control().invoice(txnId)).received)
        expect(received.gt(0)).toBe(true)
        const { data } = await api.get("/admin/crypto/attention?limit=200", auth)
        const item = data.items.find((candidate: { kind: string }) => candidate.kind === "protected_order")
        expect(item).toMatchObject({
          kind: "protected_order",
          order_id: orderId,
          psys_cid: "LTC",
          evidence: { reason: "canceled", order_status: "canceled", gateway_status: "completed", txn_id: txnId },
        })
        expect(new Decimal(item.amount).eq(received)).toBe(true)
        expect(new Decimal(item.evidence.received).eq(received)).toBe(true)

        // Synced again (the reconciliation job, a repeated callback): still one item, the order still canceled.
        await gateway.control().confirm(txnId)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        const again = await api.get("/admin/crypto/attention?limit=200", auth)
        expect(again.data.items.filter((candidate: { kind: string }) => candidate.kind === "protected_order")).toHaveLength(1)
        expect(await orderStatus(container, orderId)).toBe("canceled")
      })
    })

    describe("protect order status: an order edited by hand", () => {
      it("does not capture a late payment onto an order edited by hand (a confirmed order edit), and raises protected_order", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        await saveSettings(api, auth, { order_on_detection: true })
        const store = await createCryptoStore(container)
        const { txnId, sessionId } = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await gateway.payAndDeliver(txnId, { confirmations: 0 })
        const [orderId] = await orderIdsForCart(container, store.cartId)
        const query = container.resolve(ContainerRegistrationKeys.QUERY)
        const { data: orders } = await query.graph({ entity: "order", fields: ["id", "items.id"], filters: { id: orderId } })
        const itemId = String(orders[0].items?.[0]?.id)

        // Medusa's order edit, as the admin's "Edit order" does it: begin, change a quantity, request, confirm.
        await api.post("/admin/order-edits", { order_id: orderId }, auth)
        await api.post(`/admin/order-edits/${orderId}/items/item/${itemId}`, { quantity: 2 }, auth)
        await api.post(`/admin/order-edits/${orderId}/request`, {}, auth)
        await api.post(`/admin/order-edits/${orderId}/confirm`, {}, auth)

        await confirmAndDeliver(txnId)

        const { data: payments } = await query.graph({ entity: "payment", fields: ["id", "captured_at"], filters: { payment_session_id: sessionId } })
        expect(payments.every((payment) => payment?.captured_at === null || payment?.captured_at === undefined)).toBe(true)
        const { data } = await api.get("/admin/crypto/attention?limit=200", auth)
        expect(data.items.find((candidate: { kind: string }) => candidate.kind === "protected_order")).toMatchObject({
          order_id: orderId,
          psys_cid: "LTC",
          evidence: { reason: "edited", gateway_status: "completed", txn_id: txnId },
        })
      })
    })

    describe("settings: validation and the audit trail", () => {
      it("names the field of a wrong rule, and records who changed what in one change row", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        const bad = await requestFailure(
          api.post(
            "/admin/crypto/settings",
            {
              order_rules: [
                { coins: ["LTC"], below: null, place: "on_detection" },
                { coins: [], below: { amount: "-5", currency: "EUR" }, place: "on_detection" },
              ],
            },
            auth
          )
        )
        expect(bad.status).toBe(400)
        expect(bad.message).toContain("order_rules[1].below.amount")
        const unlisted = await requestFailure(api.post("/admin/crypto/settings", { order_rules: [{ coins: ["DOGE"], below: null, place: "on_detection" }] }, auth))
        expect(unlisted.message).toContain("order_rules[0].coins[0]")

        const rule = { coins: ["LTC", "USDT_TRX"], below: { amount: "500", currency: "EUR" }, place: "on_detection" }
        const saved = await saveSettings(api, auth, { order_rules: [rule], protect_order_status: false })
        expect(saved.effective).toMatchObject({ order_rules: [rule], protect_order_status: false })
        expect(saved.changes).toHaveLength(1)
        expect(saved.changes[0]).toMatchObject({
          changed_by: expect.stringMatching(/^user_/),
          changed_by_email: expect.stringMatching(/@example\.com$/),
          changes: { order_rules: { from: null, to: [rule] }, protect_order_status: { from: null, to: false } },
        })
        const rows = await container.resolve<CryptoModuleService>(CRYPTO_MODULE).listCryptoSettingChanges({})
        expect(rows).toHaveLength(1)
        expect(rows[0].changed_by).toBe(saved.changes[0].changed_by)

        // Saving the same again changes nothing and records nothing.
        const same = await saveSettings(api, auth, { order_rules: [rule], protect_order_status: false })
        expect(same.changes).toHaveLength(1)
      })
    })
  },
})
