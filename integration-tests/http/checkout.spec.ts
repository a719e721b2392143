import path from "node:path"
import type { IStoreModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createOrderPaymentCollectionWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosInstance, AxiosResponse } from "axios"
import { Decimal } from "decimal.js"
import { signCallback, type CallbackInputFields, type SignedCallback } from "../../src/gateway"
import { CRYPTO_MODULE } from "../../src/modules/crypto"
import type CryptoModuleService from "../../src/modules/crypto/service"
import { releaseCryptoInvoiceReservation, reserveCryptoInvoice } from "../../src/core/payment/invoice-reservation"
import { defaultSeed, type Seed } from "../../src/sandbox"
import { recordCryptoCallbackFailureWorkflow, updateCryptoSettingsWorkflow } from "../../src/workflows"
import { reconcileCryptoPayments } from "../../src/subscribers/crypto-reconcile-requested"
import {
  CRYPTO_PROVIDER_ID,
  adminHeaders,
  callbacksDeliveredAndProcessed,
  callbacksProcessed,
  capturedAmounts,
  createCryptoSession,
  createCryptoStore,
  createPaymentCollection,
  eventually,
  orderIdsForCart,
  orderStatus,
  paymentStatus,
  requestFailure,
  startCryptoCheckout,
  storefrontHeaders,
  useTestGateway,
  type CryptoSession,
  type CryptoStore,
} from "./helpers"

jest.setTimeout(180_000)

/** Short enough that the "gateway hangs" case stays quick, long enough for a loaded machine. */
const GATEWAY_TIMEOUT_MS = 4_000

/**
 * The sandbox knows every currency of Medusa's list; this gateway lacks ISK, for the case of a store
 * currency the gateway does not support.
 */
function seedWithoutIsk(): Seed {
  const seed = defaultSeed()
  delete seed.fiat_currencies.ISK
  return seed
}

// Declared before the runner's own beforeAll, which boots the app with the environment set here.
const gateway = useTestGateway({ whiteLabel: false, seed: seedWithoutIsk(), env: { MPC_TEST_GATEWAY_TIMEOUT_MS: String(GATEWAY_TIMEOUT_MS), MPC_TEST_PAY_REST_HOURS: "0" } })

/** Two hours of sandbox time pass, longer than any invoice lives, and the sandbox delivers its callbacks. */
async function outliveTheInvoice(): Promise<void> {
  await gateway.control().advanceClock(7200)
  await gateway.delivered()
}

/** A new store whose cart's crypto checkout has started. */
async function startedCheckout(container: MedusaContainer, api: AxiosInstance): Promise<CryptoSession & { store: CryptoStore }> {
  const store = await createCryptoStore(container)
  return { store, ...(await startCryptoCheckout(api, store)) }
}

/** The invoices the gateway holds for an order number (spec §4.3 search). */
async function gatewayInvoiceIds(search: string): Promise<string[]> {
  const page = await gateway.client().operations.list({ search, type: "invoice" })
  return page.operations.map((operation) => operation.id)
}

async function gatewayInvoices(search: string): Promise<number> {
  return (await gatewayInvoiceIds(search)).length
}

async function paymentsForSession(container: MedusaContainer, sessionId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "captured_at", "captures.id", "captures.amount"],
    filters: { payment_session_id: sessionId },
  })
  return data
}

/** Our invoice mirror for a cart (src/modules/crypto/models/crypto-invoice.ts), the latest attempt. */
async function cryptoInvoiceOf(container: MedusaContainer, cartId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "crypto_invoice",
    fields: ["order_number", "attempt", "txn_id", "gateway_status", "session_status", "order_id", "expected_amount", "received_amount", "overpaid_amount", "refund_due_amount"],
    filters: { cart_id: cartId },
  })
  return [...data].sort((a, b) => Number(b.attempt) - Number(a.attempt))[0]
}

/** The callbacks our callback route stored (src/modules/crypto), all of them unless filtered. */
async function storedCallbacks(container: MedusaContainer, filters: { txn_id?: string; status?: string } = {}) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "crypto_callback", fields: ["id", "status", "delivery_count", "processed_at"], filters })
  return data
}

/** The merchant's admin setting that the status map reads on every sync, saved as the admin saves it (the workflow drops the cached settings). */
async function setUnderpaidTolerance(container: MedusaContainer, percent: string): Promise<void> {
  await updateCryptoSettingsWorkflow(container).run({ input: { provider_id: CRYPTO_PROVIDER_ID, underpaid_tolerance_percent: percent } })
}

/**
 * With a 5 % underpaid tolerance set, the shopper pays `fraction` of the invoice (rounded down to the
 * coin's precision) and the order is placed on detection. Returns what was paid and the order.
 */
async function underpaidCheckout(container: MedusaContainer, api: AxiosInstance, fraction: string) {
  const store = await createCryptoStore(container)
  await setUnderpaidTolerance(container, "5")
  const { sessionId, txnId } = await startCryptoCheckout(api, store)
  const { total, precision } = await gateway.dueAt(txnId)
  const paid = total.times(fraction).toDecimalPlaces(precision, Decimal.ROUND_DOWN)
  await gateway.payAndDeliver(txnId, { amount: paid.toFixed() })
  const [orderId] = await orderIdsForCart(container, store.cartId)
  return { store, sessionId, paid, orderId }
}

/** The delivery the sandbox recorded for an invoice in a status (spec §6.1 fields), from its delivery log. */
async function recordedCallback(txnId: string, status: string): Promise<CallbackInputFields> {
  const delivery = (await gateway.control().callbacks({ txnId })).find((candidate) => candidate.status === status)
  if (delivery === undefined) {
    throw new Error(`the sandbox recorded no ${status} callback for ${txnId}`)
  }
  return delivery.fields as CallbackInputFields
}

/** Posts a signed JSON callback to the plugin's callback route (the URL the provider gives the gateway). */
function postCallback(api: AxiosInstance, signed: SignedCallback): Promise<AxiosResponse> {
  return api.post("/hooks/crypto/crypto?json=true", signed.body, { headers: { "content-type": signed.contentType }, validateStatus: () => true })
}

/**
 * Posts a callback signed with the shop's key, as the gateway would (JSON, spec §6.3), and waits
 * until our subscriber has processed it (the route answers before processing).
 */
async function deliver(api: AxiosInstance, fields: CallbackInputFields): Promise<AxiosResponse> {
  const answer = await postCallback(api, signCallback(fields, { secretKey: gateway.shop.secretKey, format: "json" }))
  await callbacksProcessed(gateway.container())
  return answer
}

/** The store's name as the merchant set it in Medusa (the store module's first store, the one Medusa creates). */
async function nameTheStore(container: MedusaContainer, name: string): Promise<void> {
  const stores = container.resolve<IStoreModuleService>(Modules.STORE)
  const [first] = await stores.listStores({}, { take: 1, order: { created_at: "ASC" } })
  if (first === undefined) await stores.createStores({ name })
  else await stores.updateStores(first.id, { name })
}

/** The number the merchant knows an order by (`#12`). */
async function displayIdOf(container: MedusaContainer, orderId: string): Promise<number> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["display_id"], filters: { id: orderId } })
  return Number(data[0]?.display_id)
}

function completeCart(api: AxiosInstance, store: CryptoStore): Promise<AxiosResponse> {
  return api.post(`/store/carts/${store.cartId}/complete`, {}, { headers: storefrontHeaders(store), validateStatus: () => true })
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    gateway.bindApp(getContainer)
    describe("crypto checkout over the sandbox", () => {
      it("places the order and captures the payment when the shopper pays the invoice in full", async () => {
        const container = getContainer()
        const { store, sessionId, txnId, data } = await startedCheckout(container, api)
        expect(data).toMatchObject({ order_number: store.cartId, source_currency: "EUR", source_amount: "10.5" })
        expect(JSON.stringify(data)).not.toContain(gateway.shop.secretKey)

        await gateway.payAndDeliver(txnId)

        const orderIds = await orderIdsForCart(container, store.cartId)
        expect(orderIds).toHaveLength(1)
        expect(await orderStatus(container, orderIds[0])).toBe("pending")
        const payments = await paymentsForSession(container, sessionId)
        expect(payments).toHaveLength(1)
        expect(payments[0].captured_at).not.toBeNull()
        expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])
        expect(await paymentStatus(api, store)).toMatchObject({
          order_id: orderIds[0],
          payment_collection_status: "completed",
          invoice: { status: "completed", session_status: "captured", overpaid_amount: null, refund_due_amount: null },
        })
      })

      it("reserves distinct order numbers for sessions of one cart created at the same moment, in the module's transaction and lock", async () => {
        const crypto = getContainer().resolve<CryptoModuleService>(CRYPTO_MODULE)
        const cartId = `cart_reserve_${Date.now()}`
        const reserve = (sessionId: string, amount: string) =>
          reserveCryptoInvoice(crypto, {
            base: cartId,
            cart_id: cartId,
            payment_collection_id: `paycol_${cartId}`,
            session_id: sessionId,
            provider_id: "pp_crypto_crypto",
            source_amount: amount,
            source_currency: "EUR",
          })
        const reservations = await Promise.all([reserve("payses_a", "10"), reserve("payses_b", "11"), reserve("payses_c", "12")])
        expect(new Set(reservations.map((reservation) => reservation.order_number)).size).toBe(3)
        expect(reservations.every((reservation) => reservation.created)).toBe(true)

        // The same session and amount again (a retry after an unknown outcome) takes its reservation back.
        const again = await reserve("payses_a", "10")
        expect(again).toMatchObject({ id: reservations[0].id, created: false })

        // A clearly refused reservation goes, and nothing of it stays to look pending.
        await releaseCryptoInvoiceReservation(crypto, { id: reservations[2].id, base: cartId })
        const rows = await crypto.listCryptoInvoices({ cart_id: cartId })
        expect(rows.map((row) => row.id).sort()).toEqual([reservations[0].id, reservations[1].id].sort())
      })

      it("counts every failed processing of a delivery, also when several fail at the same moment", async () => {
        const container = getContainer()
        const crypto = container.resolve<CryptoModuleService>(CRYPTO_MODULE)
        const stored = await crypto.storeCryptoCallback({
          provider_id: "pp_crypto_crypto",
          content_hash: `failing-${Date.now()}`,
          format: "json",
          fields: { ipn_type: "invoice", txn_id: "INV-FAILING", status: "pending" },
          ipn_type: "invoice",
          txn_id: "INV-FAILING",
          order_number: null,
          switch_id: null,
          status: "pending",
        })
        await Promise.all(
          Array.from({ length: 6 }, (_, i) => recordCryptoCallbackFailureWorkflow(container).run({ input: { callback_id: stored.id, error: `gateway down (${i})` } }))
        )
        const [row] = await crypto.listCryptoCallbacks({ id: stored.id })
        expect(row).toMatchObject({ failure_count: 6, outcome: "failed" })
        const raised = await crypto.listCryptoAttentions({ kind: "callback_failed", subject_id: stored.id })
        expect(raised).toHaveLength(1)
      })

      it("returns the order the callback placed when the storefront completes the cart afterwards", async () => {
        const container = getContainer()
        const { store, txnId } = await startedCheckout(container, api)
        await gateway.payAndDeliver(txnId)
        const [orderId] = await orderIdsForCart(container, store.cartId)

        const completed = await api.post(`/store/carts/${store.cartId}/complete`, {}, { headers: storefrontHeaders(store) })

        expect(completed.data).toMatchObject({ type: "order", order: { id: orderId } })
        expect(await orderIdsForCart(container, store.cartId)).toEqual([orderId])
        expect(await paymentStatus(api, store)).toMatchObject({ order_id: orderId, payment_collection_status: "completed" })
      })

      it("refuses a forged callback with 401 and changes nothing", async () => {
        const container = getContainer()
        const { store, sessionId, txnId } = await startedCheckout(container, api)
        const forged = signCallback(
          { txn_id: txnId, ipn_type: "invoice", order_number: store.cartId, status: "completed", amount: "1" },
          { secretKey: "not-the-shop-key", format: "json" }
        )

        const response = await postCallback(api, forged)

        expect(response.status).toBe(401)
        expect(await orderIdsForCart(container, store.cartId)).toEqual([])
        expect(await paymentsForSession(container, sessionId)).toEqual([])
        expect(await storedCallbacks(container)).toEqual([])
        expect(await cryptoInvoiceOf(container, store.cartId)).toMatchObject({ gateway_status: "new", session_status: "pending", order_id: null })
      })

      it("places one order with one capture when the same callback arrives ten times at once", async () => {
        const container = getContainer()
        const { store, sessionId, txnId } = await startedCheckout(container, api)

        await gateway.control().pay(txnId)
        // The sandbox has queued its own delivery; the same signed content goes ten more times.
        const signed = signCallback(await recordedCallback(txnId, "completed"), { secretKey: gateway.shop.secretKey, format: "json" })
        const answers = await Promise.all(Array.from({ length: 10 }, () => postCallback(api, signed)))
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)

        expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200))
        expect(await orderIdsForCart(container, store.cartId)).toHaveLength(1)
        const payments = await paymentsForSession(container, sessionId)
        expect(payments).toHaveLength(1)
        expect(payments[0].captures).toHaveLength(1)
        const stored = await storedCallbacks(container, { txn_id: txnId, status: "completed" })
        expect(stored).toHaveLength(1)
        expect(stored[0].delivery_count).toBe(11)
        expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])
        expect(await paymentStatus(api, store)).toMatchObject({ payment_collection_status: "completed", invoice: { session_status: "captured" } })
      })

      it("recognises the same callback redelivered as multipart form data", async () => {
        const container = getContainer()
        const { store, sessionId, txnId } = await startedCheckout(container, api)
        await gateway.payAndDeliver(txnId)
        const form = signCallback(await recordedCallback(txnId, "completed"), { secretKey: gateway.shop.secretKey, format: "multipart" })

        const answer = await api.post("/hooks/crypto/crypto", form.body, { headers: { "content-type": form.contentType } })

        expect(answer.data).toEqual({ received: true, duplicate: true })
        expect(await orderIdsForCart(container, store.cartId)).toHaveLength(1)
        expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])
      })

      it("refuses a callback body over 1 MiB with 413", async () => {
        const answer = await api.post("/hooks/crypto/crypto?json=true", Buffer.alloc(1024 * 1024 + 1, 0x20), {
          headers: { "content-type": "application/json" },
          validateStatus: () => true,
          maxBodyLength: Infinity,
        })

        expect(answer.status).toBe(413)
        expect(await storedCallbacks(getContainer())).toEqual([])
      })

      it("places the order on detection and captures the payment once it confirms", async () => {
        const container = getContainer()
        const { store, sessionId, txnId } = await startedCheckout(container, api)

        await gateway.payAndDeliver(txnId, { confirmations: 0 })

        const [orderId] = await orderIdsForCart(container, store.cartId)
        expect(orderId).toBeDefined()
        expect(await paymentsForSession(container, sessionId)).toEqual([])
        expect(await paymentStatus(api, store)).toMatchObject({
          payment_collection_status: "awaiting",
          invoice: { status: "pending", session_status: "pending_authorization" },
        })

        await gateway.control().confirm(txnId)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)

        expect(await orderIdsForCart(container, store.cartId)).toEqual([orderId])
        expect(await orderStatus(container, orderId)).toBe("pending")
        expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])
        expect(await paymentStatus(api, store)).toMatchObject({
          payment_collection_status: "completed",
          invoice: { status: "completed", session_status: "captured" },
        })
      })

      it("captures the session amount and records the overpayment when the shopper pays too much", async () => {
        const container = getContainer()
        const { store, sessionId, txnId } = await startedCheckout(container, api)
        const { total, precision } = await gateway.dueAt(txnId)
        const paid = total.times("1.1").toDecimalPlaces(precision, Decimal.ROUND_UP)

        await gateway.payAndDeliver(txnId, { amount: paid.toFixed() })

        const orderIds = await orderIdsForCart(container, store.cartId)
        expect(orderIds).toHaveLength(1)
        expect(await orderStatus(container, orderIds[0])).toBe("pending")
        expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])
        expect(await paymentStatus(api, store)).toMatchObject({ order_id: orderIds[0], payment_collection_status: "completed" })
        expect(await cryptoInvoiceOf(container, store.cartId)).toMatchObject({
          gateway_status: "mismatch",
          session_status: "captured",
          order_id: orderIds[0],
          received_amount: paid.toFixed(),
          overpaid_amount: paid.minus(total).toFixed(),
          refund_due_amount: null,
        })
      })

      it("captures an invoice that expires underpaid within the merchant's tolerance", async () => {
        const container = getContainer()
        const { store, sessionId, paid, orderId } = await underpaidCheckout(container, api, "0.97")
        expect(orderId).toBeDefined()
        expect(await capturedAmounts(container, sessionId)).toEqual([])

        await outliveTheInvoice()

        expect(await orderIdsForCart(container, store.cartId)).toEqual([orderId])
        expect(await orderStatus(container, orderId)).toBe("pending")
        expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])
        expect(await paymentStatus(api, store)).toMatchObject({ payment_collection_status: "completed" })
        expect(await cryptoInvoiceOf(container, store.cartId)).toMatchObject({
          gateway_status: "expired",
          session_status: "captured",
          received_amount: paid.toFixed(),
          overpaid_amount: null,
          refund_due_amount: null,
        })
      })

      it("cancels the order placed on detection when the invoice expires underpaid beyond the tolerance, recording the refund due", async () => {
        const container = getContainer()
        const { store, sessionId, paid, orderId } = await underpaidCheckout(container, api, "0.9")
        expect(orderId).toBeDefined()

        await outliveTheInvoice()

        expect(await orderIdsForCart(container, store.cartId)).toEqual([orderId])
        expect(await orderStatus(container, orderId)).toBe("canceled")
        expect(await capturedAmounts(container, sessionId)).toEqual([])
        expect(await paymentStatus(api, store)).toMatchObject({ payment_collection_status: "canceled" })
        expect(await cryptoInvoiceOf(container, store.cartId)).toMatchObject({
          gateway_status: "expired",
          session_status: "canceled",
          received_amount: paid.toFixed(),
          overpaid_amount: null,
          refund_due_amount: paid.toFixed(),
        })
      })

      it("cancels the session and places no order when the invoice is cancelled unpaid", async () => {
        const container = getContainer()
        const { store, sessionId, txnId } = await startedCheckout(container, api)

        await outliveTheInvoice()

        expect((await gateway.control().invoice(txnId)).status).toBe("cancelled")
        expect(await cryptoInvoiceOf(container, store.cartId)).toMatchObject({
          gateway_status: "cancelled",
          session_status: "canceled",
          order_id: null,
          received_amount: "0",
          refund_due_amount: null,
        })
        const completion = await completeCart(api, store)
        expect(completion.status).toBe(400)
        expect(completion.data.type).toBe("not_allowed")
        expect(await orderIdsForCart(container, store.cartId)).toEqual([])
        expect(await paymentsForSession(container, sessionId)).toEqual([])
        expect(await paymentStatus(api, store)).toMatchObject({ order_id: null, payment_collection_status: "not_paid" })
      })

      it("cancels the session and places no order when the gateway says expired with nothing received", async () => {
        const container = getContainer()
        const { store, sessionId, txnId } = await startedCheckout(container, api)
        // The sandbox's clock ends an unpaid invoice as `cancelled` (NOTES.md); the real gateway documents
        // `expired` as "may not have been paid" (spec §3), so the gateway is told to end it there now.
        const expired = await gateway.control().expire(txnId)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)

        expect([expired.status, expired.received]).toEqual(["expired", "0"])
        expect(await cryptoInvoiceOf(container, store.cartId)).toMatchObject({
          gateway_status: "expired",
          session_status: "canceled",
          order_id: null,
          received_amount: "0",
          refund_due_amount: null,
        })
        expect(await orderIdsForCart(container, store.cartId)).toEqual([])
        expect(await paymentsForSession(container, sessionId)).toEqual([])
        expect(await paymentStatus(api, store)).toMatchObject({ order_id: null, payment_collection_status: "not_paid" })
      })

      it("places one order with one capture when the storefront completes the cart while the callback is processed", async () => {
        const container = getContainer()
        const { store, sessionId, txnId } = await startedCheckout(container, api)
        await gateway.control().pay(txnId)

        // The sandbox is delivering its callback now; a copy and the storefront's complete go at once.
        const recorded = await recordedCallback(txnId, "completed")
        const [first, callback] = await Promise.all([completeCart(api, store), deliver(api, recorded)])
        // Medusa answers 409 when its own completion of the cart is still running: a storefront retries.
        const completion = first.status === 409 ? await completeCart(api, store) : first
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)

        expect(callback.status).toBe(200)
        const orderIds = await orderIdsForCart(container, store.cartId)
        expect(orderIds).toHaveLength(1)
        expect(completion.data).toMatchObject({ type: "order", order: { id: orderIds[0] } })
        expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])
        expect(await paymentsForSession(container, sessionId)).toHaveLength(1)
        expect(await paymentStatus(api, store)).toMatchObject({ order_id: orderIds[0], payment_collection_status: "completed" })
        expect(await cryptoInvoiceOf(container, store.cartId)).toMatchObject({ gateway_status: "completed", session_status: "captured", order_id: orderIds[0] })
      })

      it("warns about a verified callback whose amount disagrees with the invoice and lets the gateway's re-read decide", async () => {
        const container = getContainer()
        const { store, sessionId, txnId } = await startedCheckout(container, api)
        const { total } = await gateway.dueAt(txnId)
        const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        const warn = jest.spyOn(logger, "warn")
        const claimed = total.times(2).toFixed()

        try {
          const answer = await deliver(api, {
            txn_id: txnId,
            ipn_type: "invoice",
            order_number: store.cartId,
            status: "completed",
            amount: claimed,
            invoice_total_sum: claimed,
            source_currency: "EUR",
            source_amount: "10.5",
          })

          expect(answer.status).toBe(200)
          const warnings = warn.mock.calls.map(([message]) => String(message)).filter((message) => message.includes("does not match crypto invoice"))
          expect(warnings).toHaveLength(1)
          expect(warnings[0]).toContain(`invoice_total_sum "${claimed}" (invoice: "${total.toFixed()}")`)
          expect(warnings[0]).not.toContain(gateway.shop.secretKey)
        } finally {
          warn.mockRestore()
        }
        expect(await orderIdsForCart(container, store.cartId)).toEqual([])
        expect(await paymentsForSession(container, sessionId)).toEqual([])
        expect(await cryptoInvoiceOf(container, store.cartId)).toMatchObject({ gateway_status: "new", session_status: "pending", order_id: null })
      })

      it("follows the switched invoice when the shopper changes coin and pays", async () => {
        const container = getContainer()
        const { store, sessionId, txnId } = await startedCheckout(container, api)
        const child = await gateway.control().switchCurrency(txnId, "LTC")

        await gateway.payAndDeliver(child.txn_id)

        expect(await orderIdsForCart(container, store.cartId)).toHaveLength(1)
        const payments = await paymentsForSession(container, sessionId)
        expect(payments).toHaveLength(1)
        expect(payments[0].captured_at).not.toBeNull()
        expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])
        expect(await paymentStatus(api, store)).toMatchObject({
          payment_collection_status: "completed",
          invoice: { txn_id: child.txn_id, status: "completed", session_status: "captured" },
        })
      })

      it("lists the coins with the cart total converted at the gateway's rates", async () => {
        const store = await createCryptoStore(getContainer())

        const response = await api.get(`/store/crypto/currencies?cart_id=${store.cartId}`, { headers: storefrontHeaders(store) })

        expect(response.data).toMatchObject({ cart_id: store.cartId, provider_id: CRYPTO_PROVIDER_ID, currency_code: "eur", total: "10.5" })
        const btc = response.data.currencies.find((coin: { psys_cid: string }) => coin.psys_cid === "BTC")
        expect(btc.amount).toMatch(/^0\.\d{1,8}$/)
      })

      it("never offers a coin the shop disabled at the gateway (its hidden flag)", async () => {
        // A fiat no other case lists, so the 60 s currency cache holds no list made before the change.
        const store = await createCryptoStore(getContainer(), { currency: "chf" })
        const { enabled_psys_cids: enabled } = await gateway.control().shopSettings({})
        await gateway.control().shopSettings({ enabledPsysCids: enabled.filter((coin) => coin !== "ETH") })
        try {
          const response = await api.get(`/store/crypto/currencies?cart_id=${store.cartId}`, { headers: storefrontHeaders(store) })
          const offered = response.data.currencies.map((coin: { psys_cid: string }) => coin.psys_cid)
          expect(offered).toContain("BTC")
          expect(offered).not.toContain("ETH")
        } finally {
          await gateway.control().shopSettings({ enabledPsysCids: enabled })
        }
      })

      it("refuses the store's currency with a clear error when the gateway does not support it, creating nothing", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container, { currency: "isk" })

        const failure = await requestFailure(startCryptoCheckout(api, store))

        expect(failure.status).toBe(400)
        expect(failure.message).toMatch(/does not accept payments in ISK/)
        expect(await gatewayInvoices(store.cartId)).toBe(0)
        expect(await cryptoInvoiceOf(container, store.cartId)).toBeUndefined()
      })

      it("gives a new invoice with the next order number when the cart total changes", async () => {
        const container = getContainer()
        const { store, ...first } = await startedCheckout(container, api)
        const headers = storefrontHeaders(store)

        await api.post(`/store/carts/${store.cartId}/line-items`, { variant_id: store.variantId, quantity: 1 }, { headers })
        const { data: cart } = await api.get(`/store/carts/${store.cartId}?fields=payment_collection.id`, { headers })
        const second = await createCryptoSession(api, store, String(cart.cart.payment_collection.id))

        expect(first.data.order_number).toBe(store.cartId)
        expect(second.data).toMatchObject({ order_number: `${store.cartId}-2`, source_amount: "21" })
        expect(second.data.txn_id).not.toBe(first.data.txn_id)
      })

      it("answers a clear error while the gateway fails, and a retry gets one invoice", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const collectionId = await createPaymentCollection(api, store)
        await gateway.control().fault({ path: "/api/v1/invoices/new", mode: "5xx", count: 3 })

        const failure = await requestFailure(createCryptoSession(api, store, collectionId))
        const retried = await createCryptoSession(api, store, collectionId)

        expect(failure.status).toBe(500)
        expect(failure.message).toMatch(/Creating the crypto invoice: the crypto gateway failed/)
        expect(retried.data.order_number).toBe(store.cartId)
        expect(await gatewayInvoiceIds(store.cartId)).toEqual([retried.data.txn_id])
        expect(await cryptoInvoiceOf(container, store.cartId)).toMatchObject({ order_number: store.cartId, txn_id: retried.data.txn_id, session_status: "pending" })
      })

      it("answers a clear error when the gateway does not answer in time, and the retry gets the same single invoice", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const collectionId = await createPaymentCollection(api, store)
        // Every attempt of the client (3 with its retries) is taken by the gateway and never
        // answered within the client's timeout: the worst case, an invoice that exists unseen.
        await gateway.control().fault({ path: "/api/v1/invoices/new", mode: "timeout", count: 3, ms: GATEWAY_TIMEOUT_MS * 3 })

        const failure = await requestFailure(createCryptoSession(api, store, collectionId))
        const retried = await createCryptoSession(api, store, collectionId)

        expect(failure.status).toBe(500)
        expect(failure.message).toMatch(/Creating the crypto invoice: the crypto gateway did not answer in time; try again/)
        expect(failure.message).not.toContain(gateway.shop.secretKey)
        expect(retried.data.order_number).toBe(store.cartId)
        expect(await gatewayInvoiceIds(store.cartId)).toEqual([retried.data.txn_id])
        expect(await cryptoInvoiceOf(container, store.cartId)).toMatchObject({ order_number: store.cartId, txn_id: retried.data.txn_id, session_status: "pending" })
      })

      describe("the gateway shows the store's words", () => {
        // Each test starts from the runner's database snapshot: the name is set again before each.
        beforeEach(() => nameTheStore(getContainer(), "Acme Store"))

        it("names the invoice after the store and the cart's items, and the admin finds it by the order's #display_id once placed", async () => {
          const container = getContainer()
          const { store, txnId } = await startedCheckout(container, api)

          expect(await gateway.control().invoice(txnId)).toMatchObject({ order_number: store.cartId, order_name: "Acme Store: 1 item", description: "Crypto mug × 1" })

          await gateway.payAndDeliver(txnId)
          const [orderId] = await orderIdsForCart(container, store.cartId)
          const displayId = await displayIdOf(container, orderId)
          const auth = await adminHeaders(container)
          const order = { order_id: orderId, display_id: displayId }
          const byHash = await api.get(`/admin/crypto/operations?search=${encodeURIComponent(`#${displayId}`)}`, auth)
          const byNumber = await api.get(`/admin/crypto/operations?search=${displayId}`, auth)
          const listed = await api.get(`/admin/crypto/operations?type=invoice&search=${store.cartId}`, auth)
          expect(byHash.data).toMatchObject({ operations: [{ id: txnId, type: "invoice", status: "completed" }], orders: { [txnId]: order }, meta: { totalCount: 1 } })
          expect(byNumber.data.operations.map((operation: { id: string }) => operation.id)).toEqual([txnId])
          expect(listed.data.orders).toEqual({ [txnId]: order })
        })

        it("finds nothing for the #display_id of an order without a crypto invoice", async () => {
          const { data } = await api.get(`/admin/crypto/operations?search=${encodeURIComponent("#999999")}`, await adminHeaders(getContainer()))
          expect(data).toMatchObject({ operations: [], orders: {}, meta: { totalCount: 0 }, has_next: false })
        })

        it("names the invoice of a payment collection billed after checkout after the order's #display_id, with the order's items", async () => {
          const container = getContainer()
          const { store, txnId } = await startedCheckout(container, api)
          await gateway.payAndDeliver(txnId)
          const [orderId] = await orderIdsForCart(container, store.cartId)
          const {
            result: [collection],
          } = await createOrderPaymentCollectionWorkflow(container).run({ input: { order_id: orderId, amount: 5 } })

          const billed = await createCryptoSession(api, store, collection.id)

          expect(await gateway.control().invoice(billed.txnId)).toMatchObject({
            order_number: collection.id,
            order_name: `Order #${await displayIdOf(container, orderId)} at Acme Store`,
            description: "Crypto mug × 1",
            source_amount: "5",
          })
        })
      })

      describe("only coins that can take the payment", () => {
        it("offers on the gateway's page the shop's coins without one whose minimum the cart total does not reach", async () => {
          // 4 EUR is below BTC's minimum (0.0001 BTC, about 5.91 EUR) and above every other coin's.
          const store = await createCryptoStore(getContainer(), { price: 4 })
          const { txnId } = await startCryptoCheckout(api, store)

          const invoice = await gateway.control().invoice(txnId)
          expect(invoice.allowed_psys_cids.length).toBeGreaterThan(0)
          expect(invoice.allowed_psys_cids).not.toContain("BTC")
          expect(invoice.allowed_psys_cids).toContain(invoice.psys_cid)
        })

        it("refuses a checkout whose total is below every coin's minimum, saying so, and creates nothing", async () => {
          const container = getContainer()
          const store = await createCryptoStore(container, { price: "0.5" })

          const failure = await requestFailure(startCryptoCheckout(api, store))

          expect(failure.status).toBe(400)
          expect(failure.message).toContain("No coin can take this payment: the cart total 0.5 EUR is below every coin's minimum at the gateway")
          expect(await gatewayInvoices(store.cartId)).toBe(0)
          expect(await cryptoInvoiceOf(container, store.cartId)).toBeUndefined()
        })
      })

      describe("with the sandbox's callback deliveries stopped", () => {
        // From here on the sandbox records callbacks but sends none: the tests deliver them.
        beforeAll(() => gateway.control().dropCallbacks({ count: 1000 }))

        it("recovers a payment whose callback was lost when the reconciliation runs", async () => {
          const container = getContainer()
          const { store, sessionId, txnId } = await startedCheckout(container, api)
          await gateway.control().pay(txnId)
          expect(await orderIdsForCart(container, store.cartId)).toEqual([])

          const result = await reconcileCryptoPayments(container, { older_than_seconds: 0 })

          expect(result).toMatchObject({ synced: 1, failed: 0 })
          expect(await orderIdsForCart(container, store.cartId)).toHaveLength(1)
          const payments = await paymentsForSession(container, sessionId)
          expect(payments[0].captured_at).not.toBeNull()
          expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])
          expect(await paymentStatus(api, store)).toMatchObject({ payment_collection_status: "completed", invoice: { status: "completed", session_status: "captured" } })
        })

        it("recovers a payment whose callback was lost when an admin presses Reconcile now, however recent it is", async () => {
          const container = getContainer()
          const { store, sessionId, txnId } = await startedCheckout(container, api)
          await gateway.control().pay(txnId)
          expect(await orderIdsForCart(container, store.cartId)).toEqual([])

          const asked = await api.post("/admin/crypto/reconcile", {}, await adminHeaders(container))

          expect(asked.status).toBe(202)
          expect(Number.isNaN(Date.parse(asked.data.requested_at))).toBe(false)
          // A worker runs it (here the same process, through the event bus): wait for the order.
          await eventually(async () => expect(await orderIdsForCart(container, store.cartId)).toHaveLength(1))
          expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])
        })

        it("applies a completed callback that arrives first, and the stale pending and new ones after it change nothing", async () => {
          const container = getContainer()
          const { store, sessionId, txnId } = await startedCheckout(container, api)
          await gateway.control().pay(txnId, { confirmations: 0 })
          await gateway.control().confirm(txnId)
          const pending = await recordedCallback(txnId, "pending")
          const completed = await recordedCallback(txnId, "completed")
          // The gateway sends no callback for a new invoice (spec §6): this one is what a very late
          // first delivery would carry, signed with the shop's key like the others.
          const stale: CallbackInputFields = { ...pending, status: "new", amount: "0", confirmations: "0", comment: "Waiting for payment" }

          expect((await deliver(api, completed)).status).toBe(200)
          const [orderId] = await orderIdsForCart(container, store.cartId)
          expect(orderId).toBeDefined()
          expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])

          expect((await deliver(api, pending)).status).toBe(200)
          expect((await deliver(api, stale)).status).toBe(200)

          expect(await orderIdsForCart(container, store.cartId)).toEqual([orderId])
          expect(await orderStatus(container, orderId)).toBe("pending")
          expect(await capturedAmounts(container, sessionId)).toEqual(["10.5"])
          expect(await paymentStatus(api, store)).toMatchObject({ order_id: orderId, payment_collection_status: "completed" })
          expect(await cryptoInvoiceOf(container, store.cartId)).toMatchObject({ gateway_status: "completed", session_status: "captured", order_id: orderId })
          const stored = await storedCallbacks(container, { txn_id: txnId })
          expect(stored.map((callback) => callback.status).sort()).toEqual(["completed", "new", "pending"])
          expect(stored.every((callback) => callback.processed_at !== null)).toBe(true)
        })
      })
    })
  },
})
