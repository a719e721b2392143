import path from "node:path"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosInstance } from "axios"
import { Decimal } from "decimal.js"
import { CRYPTO_MODULE } from "../../src/modules/crypto"
import type CryptoModuleService from "../../src/modules/crypto/service"
import { syncCryptoInvoiceWorkflow } from "../../src/workflows/sync-crypto-invoice"
import {
  adminHeaders,
  callbacksDeliveredAndProcessed,
  capturedAmounts,
  mirrorOf,
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
// Pay-the-rest off (0 hours): an order whose invoice ends short is canceled at once unless an outcome rule keeps it.
const gateway = useTestGateway({ whiteLabel: false, env: { MPC_TEST_PAY_REST_HOURS: "0" } })

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

/** `fraction` of what the invoice asks, rounded to its coin (up when more, down when less). */
async function part(txnId: string, fraction: string): Promise<string> {
  const { total, precision } = await gateway.dueAt(txnId)
  return total.times(fraction).toDecimalPlaces(precision, new Decimal(fraction).gt(1) ? Decimal.ROUND_UP : Decimal.ROUND_DOWN).toFixed()
}

/** An order placed on detection for half of what the invoice asks, then the gateway ends the invoice: expired, underpaid. */
async function underpaidOrder(api: AxiosInstance, container: MedusaContainer) {
  const store = await createCryptoStore(container)
  const checkout = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
  const paid = await part(checkout.txnId, "0.5")
  await gateway.payAndDeliver(checkout.txnId, { amount: paid, confirmations: 0 })
  const [orderId] = await orderIdsForCart(container, store.cartId)
  expect(orderId).toBeDefined()
  await gateway.control().expire(checkout.txnId)
  await gateway.delivered()
  return { store, checkout, paid, orderId }
}

/**
 * An order placed on detection, then its payment vanishes (replaced or double-spent before it
 * confirmed) and the gateway ends the invoice: expired, nothing received.
 */
async function expiredUnpaidOrder(api: AxiosInstance, container: MedusaContainer) {
  const store = await createCryptoStore(container)
  const checkout = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
  await gateway.payAndDeliver(checkout.txnId, { confirmations: 0 })
  const [orderId] = await orderIdsForCart(container, store.cartId)
  expect(orderId).toBeDefined()
  expect(await gateway.control().dropUnconfirmed(checkout.txnId)).toMatchObject({ status: "new", received: "0" })
  await gateway.delivered()
  expect(await gateway.control().expire(checkout.txnId)).toMatchObject({ status: "expired", received: "0" })
  await gateway.delivered()
  return { store, checkout, orderId }
}

/** The open Needs-attention items of one kind about invoice `txnId`. */
async function itemsOf(api: AxiosInstance, auth: { headers: Record<string, string> }, kind: string, txnId: string) {
  const { data } = await api.get("/admin/crypto/attention?limit=200", auth)
  return (data.items as Array<{ kind: string; order_id: string | null; amount: string | null; evidence: Record<string, unknown> }>).filter(
    (item) => item.kind === kind && item.evidence.txn_id === txnId
  )
}

/** The order's payment status as Medusa's admin shows it. */
async function paymentStatusOf(api: AxiosInstance, auth: { headers: Record<string, string> }, orderId: string): Promise<string> {
  const { data } = await api.get(`/admin/orders/${orderId}?fields=payment_status`, auth)
  return String(data.order.payment_status)
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

    describe("order rules per outcome (docs/books.md#order-rules)", () => {
      it("underpaid → cancel (the default): the order placed on detection is canceled, nothing captured", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        await saveSettings(api, auth, { order_on_detection: true })
        const { checkout, orderId } = await underpaidOrder(api, container)
        expect(await orderStatus(container, orderId)).toBe("canceled")
        expect(await capturedAmounts(container, checkout.sessionId)).toEqual([])
        expect(await itemsOf(api, auth, "order_waiting", checkout.txnId)).toEqual([])
      })

      it("underpaid → wait: the order stays placed, nothing is captured, and order_waiting is raised beside the underpaid item", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        await saveSettings(api, auth, { order_on_detection: true, order_outcomes: { underpaid: "wait" } })
        const { checkout, paid, orderId } = await underpaidOrder(api, container)

        expect(await orderStatus(container, orderId)).toBe("pending")
        expect(await capturedAmounts(container, checkout.sessionId)).toEqual([])
        expect(await itemsOf(api, auth, "order_waiting", checkout.txnId)).toEqual([
          expect.objectContaining({ order_id: orderId, amount: null, evidence: expect.objectContaining({ outcome: "underpaid", rule: "wait", gateway_status: "expired" }) }),
        ])
        expect(await itemsOf(api, auth, "underpaid", checkout.txnId)).toEqual([expect.objectContaining({ amount: paid, order_id: orderId })])

        // Synced again (a repeated callback, the job): still waiting, still one item.
        await gateway.control().confirm(checkout.txnId)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        expect(await orderStatus(container, orderId)).toBe("pending")
        expect(await itemsOf(api, auth, "order_waiting", checkout.txnId)).toHaveLength(1)
      })

      it("underpaid → capture_received: captures the fiat value of what arrived, and the order shows it partially captured", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        await saveSettings(api, auth, { order_on_detection: true, order_outcomes: { underpaid: "capture_received" } })
        const { store, checkout, paid, orderId } = await underpaidOrder(api, container)

        const { total } = await gateway.dueAt(checkout.txnId)
        // The cart's 10.50 EUR × received ÷ asked, rounded down to the cent.
        const value = new Decimal("10.5").times(paid).dividedBy(total).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed()
        expect(await orderStatus(container, orderId)).toBe("pending")
        expect(await capturedAmounts(container, checkout.sessionId)).toEqual([value])
        expect(await paymentStatusOf(api, auth, orderId)).toBe("partially_captured")
        const [row] = await mirrorOf(container, store.cartId)
        expect(row).toMatchObject({ session_status: "captured", gateway_status: "expired", received_amount: paid })

        // Synced again: captured once.
        await gateway.control().confirm(checkout.txnId)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        expect(await capturedAmounts(container, checkout.sessionId)).toEqual([value])
      })

      it("expired unpaid → cancel (the default): the order placed on detection, whose payment vanished, is canceled, nothing captured", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        await saveSettings(api, auth, { order_on_detection: true })
        const { store, checkout, orderId } = await expiredUnpaidOrder(api, container)

        expect(await orderStatus(container, orderId)).toBe("canceled")
        expect(await capturedAmounts(container, checkout.sessionId)).toEqual([])
        expect(await itemsOf(api, auth, "order_waiting", checkout.txnId)).toEqual([])
        const [row] = await mirrorOf(container, store.cartId)
        expect(row).toMatchObject({ gateway_status: "expired", received_amount: "0" })
      })

      it("expired unpaid → wait: the order placed on detection, whose payment vanished, stays placed, nothing captured, and order_waiting is raised once", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        await saveSettings(api, auth, { order_on_detection: true, order_outcomes: { expired_unpaid: "wait" } })
        const { store, checkout, orderId } = await expiredUnpaidOrder(api, container)

        expect(await orderStatus(container, orderId)).toBe("pending")
        expect(await capturedAmounts(container, checkout.sessionId)).toEqual([])
        expect(await itemsOf(api, auth, "order_waiting", checkout.txnId)).toEqual([
          expect.objectContaining({ order_id: orderId, amount: null, evidence: expect.objectContaining({ outcome: "expired_unpaid", rule: "wait", gateway_status: "expired" }) }),
        ])

        // Synced again (the gateway repeats its last callback, the job reads the invoice): still waiting, still one item.
        const deliveries = await gateway.control().callbacks({ txnId: checkout.txnId })
        await gateway.control().redeliver(deliveries[deliveries.length - 1].id)
        await gateway.delivered()
        const [row] = await mirrorOf(container, store.cartId)
        await syncCryptoInvoiceWorkflow(container).run({ input: { invoice_id: row.id } })
        expect(await orderStatus(container, orderId)).toBe("pending")
        expect(await capturedAmounts(container, checkout.sessionId)).toEqual([])
        expect(await itemsOf(api, auth, "order_waiting", checkout.txnId)).toHaveLength(1)
      })

      it("overpaid → wait: the order is placed with its payment awaiting, not captured, and order_waiting is raised beside the overpaid item", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        await saveSettings(api, auth, { order_on_detection: false, order_outcomes: { overpaid: "wait" } })
        const store = await createCryptoStore(container)
        const checkout = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await gateway.payAndDeliver(checkout.txnId, { amount: await part(checkout.txnId, "1.1") })

        const [orderId] = await orderIdsForCart(container, store.cartId)
        expect(orderId).toBeDefined()
        expect(await orderStatus(container, orderId)).toBe("pending")
        expect(await capturedAmounts(container, checkout.sessionId)).toEqual([])
        expect(await itemsOf(api, auth, "order_waiting", checkout.txnId)).toEqual([
          expect.objectContaining({ order_id: orderId, evidence: expect.objectContaining({ outcome: "overpaid", rule: "wait", gateway_status: "mismatch" }) }),
        ])
        expect(await itemsOf(api, auth, "overpaid", checkout.txnId)).toHaveLength(1)
        const [row] = await mirrorOf(container, store.cartId)
        expect(row).toMatchObject({ session_status: "pending_authorization", order_id: orderId })
      })

      it("error → cancel: the order placed on detection is canceled when the gateway reports the invoice in error", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        await saveSettings(api, auth, { order_on_detection: true, order_outcomes: { error: "cancel" } })
        const store = await createCryptoStore(container)
        const checkout = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await gateway.payAndDeliver(checkout.txnId, { confirmations: 0 })
        const [orderId] = await orderIdsForCart(container, store.cartId)
        expect(orderId).toBeDefined()

        await gateway.payAndDeliver(checkout.txnId, { error: true })

        expect(await orderStatus(container, orderId)).toBe("canceled")
        const [row] = await mirrorOf(container, store.cartId)
        expect(row).toMatchObject({ session_status: "canceled", gateway_status: "error" })
        expect(await itemsOf(api, auth, "invoice_error", checkout.txnId)).toHaveLength(1)
      })

      it("error → wait (the default): the order placed on detection stays open for a manual check", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        await saveSettings(api, auth, { order_on_detection: true })
        const store = await createCryptoStore(container)
        const checkout = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await gateway.payAndDeliver(checkout.txnId, { confirmations: 0 })
        const [orderId] = await orderIdsForCart(container, store.cartId)
        await gateway.payAndDeliver(checkout.txnId, { error: true })

        expect(await orderStatus(container, orderId)).toBe("pending")
        const [row] = await mirrorOf(container, store.cartId)
        expect(row).toMatchObject({ session_status: "error" })
      })

      it("names the outcome field of a wrong choice, and records the change in the audit trail", async () => {
        const container = getContainer()
        const auth = await adminHeaders(container)
        const bad = await requestFailure(api.post("/admin/crypto/settings", { order_outcomes: { overpaid: "capture_received" } }, auth))
        expect(bad.status).toBe(400)
        expect(bad.message).toContain("order_outcomes.overpaid")
        const unknown = await requestFailure(api.post("/admin/crypto/settings", { order_outcomes: { late: "wait" } }, auth))
        expect(unknown.status).toBe(400)

        const saved = await saveSettings(api, auth, { order_outcomes: { underpaid: "wait" } })
        const all = { expired_unpaid: "cancel", underpaid: "wait", overpaid: "capture", error: "wait" }
        expect(saved.effective.order_outcomes).toEqual(all)
        expect(saved.stored.order_outcomes).toEqual(all)
        expect(saved.changes[0].changes).toEqual({ order_outcomes: { from: null, to: all } })
        const same = await saveSettings(api, auth, { order_outcomes: { underpaid: "wait" } })
        expect(same.changes).toHaveLength(saved.changes.length)
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
