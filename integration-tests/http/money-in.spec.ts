// Money in (issue 17): deposits whose callbacks were lost, money after an invoice ended (expiry,
// cancel, error), callbacks lost or delivered out of order, carts that changed while their invoice
// was open. One app boot over the sandbox's WHITE-LABEL shop (deposit addresses need it, spec
// §4.10), whose Status URL and Success URL both point at the plugin's callback route, so a pay_in
// callback is two deliveries as the gateway sends them (spec §6.2). The sandbox is driven only
// through its typed control client.
import { randomBytes } from "node:crypto"
import path from "node:path"
import type { ICustomerModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosInstance } from "axios"
import { Decimal } from "decimal.js"
import { defaultSeed } from "../../src/sandbox"
import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { reconcileCryptoPayments } from "../../src/subscribers/crypto-reconcile-requested"
import { prepareCryptoAttentionRefundStep, type CreateCryptoAttentionRefundInput } from "../../src/workflows/admin/steps/prepare-crypto-attention-refund"
import { reserveCryptoWithdrawalStep, type ReserveCryptoWithdrawalInput } from "../../src/workflows/admin/steps/reserve-crypto-withdrawal"
import { resolveCryptoModule } from "../../src/modules/crypto"
import {
  attentionItems,
  callbackRouteOf,
  callbacksProcessed,
  createCryptoStore,
  orderIdsForCart,
  requestFailure,
  startCryptoCheckout,
  storefrontHeaders,
  useAdminAuth,
  useTestGateway,
  type AdminAuth,
  type AttentionItem,
} from "./helpers"

jest.setTimeout(240_000)

/** Longer than any invoice lifetime (at most 10 days): an unpaid invoice expires. */
const PAST_EXPIRY_SECONDS = 11 * 24 * 3600

/**
 * How long `pending internal` lasts here, in seconds: far longer than a test may run (jest.setTimeout
 * above), so a reading of it never comes after its end; it ends when a test moves the sandbox's clock.
 */
const TRANSFER_SECONDS = 3600

// The white-label shop, with the shops' Status and Success URLs set to the app's callback route in the
// seed: deposit callbacks go there and nowhere else (spec §6.2).
const gateway = useTestGateway({
  whiteLabel: true,
  env: { MPC_TEST_WHITE_LABEL: "true" },
  internalTransferSeconds: TRANSFER_SECONDS,
  seed: (appUrl) => {
    const hook = callbackRouteOf(appUrl)
    const seed = defaultSeed()
    for (const seeded of seed.shops) {
      seeded.status_url = hook
      seeded.success_url = `${hook}&target=success`
    }
    return seed
  },
})

/**
 * The sandbox delivered what it queued and the plugin processed it. Not the shared helper, which
 * also waits for `pending internal` transfers to end: here they end only when the test moves the
 * sandbox's clock.
 */
async function settle(): Promise<void> {
  await gateway.sandbox.callbacksIdle()
  await callbacksProcessed(gateway.container())
}

/** The reconciliation job's workflow, for everything, now (the job waits a few minutes). */
async function reconcile(): Promise<void> {
  await reconcileCryptoPayments(gateway.container(), { older_than_seconds: 0 })
  await settle()
}

/** Every delivery of `ref` the sandbox lost, delivered again now. */
async function redeliverDropped(ref: string): Promise<number> {
  const dropped = (await gateway.control().callbacks({ txnId: ref })).filter((delivery) => delivery.state === "dropped")
  for (const delivery of dropped) await gateway.control().redeliver(delivery.id)
  await settle()
  return dropped.length
}

/** Every delivery of `ref`, delivered once more now (a gateway that repeats itself). */
async function redeliverAll(ref: string): Promise<void> {
  for (const delivery of await gateway.control().callbacks({ txnId: ref })) await gateway.control().redeliver(delivery.id)
  await settle()
}

/** What a checkout's invoice asks (its session data, white-label: spec §2.1 `invoice_total_sum`). */
function dueOf(session: { data: Record<string, unknown> }): string {
  return new Decimal(String(session.data.invoice_total_sum)).toFixed()
}

/** `fraction` of what the invoice asks, in its coin (8 places, rounded down). */
function part(session: { data: Record<string, unknown> }, fraction: string): string {
  return new Decimal(dueOf(session)).times(fraction).toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed()
}

/** The open attention items about one invoice (by its gateway txn_id) or pay_in. */
async function itemsAbout(api: AxiosInstance, auth: AdminAuth, txnId: string): Promise<AttentionItem[]> {
  return (await attentionItems(api, auth, 100)).filter((item) => item.evidence.txn_id === txnId)
}

async function invoiceRow(container: MedusaContainer, cartId: string, txnId: string): Promise<Record<string, unknown>> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "crypto_invoice",
    fields: ["id", "session_status", "gateway_status", "received_amount", "psys_cid", "currency", "txn_id", "order_id"],
    filters: { cart_id: cartId, txn_id: txnId },
  })
  if (data[0] === undefined) throw new Error(`no crypto invoice ${txnId}`)
  return data[0]
}

// The two halves of the attention refund workflow (src/workflows/admin/crypto-attention.ts), run
// apart so a test can put the shopper's top-up between them: what a merchant's refund and a
// shopper's "pay the rest" racing each other would do.
const prepareAttentionRefund = createWorkflow("test-prepare-attention-refund", (input: CreateCryptoAttentionRefundInput) =>
  new WorkflowResponse(prepareCryptoAttentionRefundStep(input))
)
const reserveWithdrawal = createWorkflow("test-reserve-withdrawal", (input: ReserveCryptoWithdrawalInput) => new WorkflowResponse(reserveCryptoWithdrawalStep(input)))

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    gateway.bindApp(getContainer)
    const auth = useAdminAuth(getContainer, { api, settings: { order_on_detection: true, underpaid_tolerance_percent: "0" } })

    async function depositAddress(uid: string): Promise<string> {
      const created = await api.post("/admin/crypto/deposits", { uid, psys_cid: "LTC" }, auth)
      return String(created.data.deposits[0].hash)
    }

    describe("deposits whose callbacks were lost", () => {
      it("reads a customer's deposit back from the operations list into the customer's deposits and totals, once however late its callback comes", async () => {
        const container = getContainer()
        const customer = await container.resolve<ICustomerModuleService>(Modules.CUSTOMER).createCustomers({ email: `payer-${randomBytes(4).toString("hex")}@example.com` })
        const hash = await depositAddress(customer.id)

        await gateway.control().dropCallbacks({ count: 2, event: "pay_in" })
        const payIn = await gateway.control().payDeposit(hash, { amount: "0.7" })
        await settle()
        const deliveries = await gateway.control().callbacks({ txnId: payIn.id })
        expect(deliveries.map((delivery) => delivery.state)).toEqual(["dropped", "dropped"])
        const before = await api.get(`/admin/crypto/customers/${customer.id}/deposits`, auth)
        expect(before.data.totals).toEqual([])

        await reconcile()
        await reconcile()

        const recovered = await api.get(`/admin/crypto/customers/${customer.id}/deposits`, auth)
        expect(recovered.data.totals).toEqual([{ psys_cid: "LTC", currency: "LTC", confirmed: "0.7", pending: "0", count: 1 }])
        expect(recovered.data.pay_ins).toEqual([expect.objectContaining({ txn_id: payIn.id, amount: "0.7", psys_cid: "LTC", wallet_hash: hash, deposit_uid: customer.id, recovered: true })])

        await gateway.control().advanceClock(3 * 3600)
        expect(await redeliverDropped(payIn.id)).toBe(2)
        await reconcile()

        const after = await api.get(`/admin/crypto/customers/${customer.id}/deposits`, auth)
        expect(after.data.totals).toEqual([{ psys_cid: "LTC", currency: "LTC", confirmed: "0.7", pending: "0", count: 1 }])
        const listed = await api.get(`/admin/crypto/deposits/callbacks?uid=${customer.id}`, auth)
        expect(listed.data.callbacks.map((row: { txn_id: string }) => row.txn_id)).toEqual([payIn.id, payIn.id])
        expect((await attentionItems(api, auth, 100)).filter((item) => item.kind === "unmatched_pay_in" && item.evidence.txn_id === payIn.id)).toEqual([])
      })

      it("reads back the completion of a deposit seen pending whose completed callbacks were lost, though the list no longer reaches it", async () => {
        const container = getContainer()
        const customer = await container.resolve<ICustomerModuleService>(Modules.CUSTOMER).createCustomers({ email: `slow-${randomBytes(4).toString("hex")}@example.com` })
        const hash = await depositAddress(customer.id)
        const seen = await gateway.control().payDeposit(hash, { amount: "0.4", confirmations: 0 })
        await settle()
        await reconcile()
        await gateway.control().advanceClock(3600)
        await gateway.control().payDeposit(hash, { amount: "0.1" })
        await settle()
        await reconcile()

        await gateway.control().dropCallbacks({ count: 2, event: "pay_in" })
        expect((await gateway.control().payDeposit(hash, { txid: seen.txid, confirmations: 6 })).status).toBe("completed")
        await settle()
        const pending = await api.get(`/admin/crypto/customers/${customer.id}/deposits`, auth)
        expect(pending.data.totals).toEqual([{ psys_cid: "LTC", currency: "LTC", confirmed: "0.1", pending: "0.4", count: 2 }])

        await reconcile()

        const after = await api.get(`/admin/crypto/customers/${customer.id}/deposits`, auth)
        expect(after.data.totals).toEqual([{ psys_cid: "LTC", currency: "LTC", confirmed: "0.5", pending: "0", count: 2 }])
      })

      it("raises a lost deposit to an address of no customer as unmatched_pay_in with its amount and coin, once", async () => {
        const hash = await depositAddress(`stranger-${randomBytes(4).toString("hex")}`)
        await gateway.control().dropCallbacks({ count: 2, event: "pay_in" })
        const payIn = await gateway.control().payDeposit(hash, { amount: "1.5" })
        await settle()
        expect(await itemsAbout(api, auth, payIn.id)).toEqual([])

        await reconcile()
        const raised = [expect.objectContaining({ kind: "unmatched_pay_in", amount: "1.5", psys_cid: "LTC", currency: "LTC", evidence: expect.objectContaining({ wallet_hash: hash }) })]
        expect(await itemsAbout(api, auth, payIn.id)).toEqual(raised)

        await gateway.control().advanceClock(3 * 3600)
        expect(await redeliverDropped(payIn.id)).toBe(2)
        await reconcile()
        expect(await itemsAbout(api, auth, payIn.id)).toEqual(raised)
      })
    })

    describe("money after an invoice ended", () => {
      it("payments after expiry of a partly paid invoice reach the queue as one late payment of only the new money, and the account keeps what was owed at expiry", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const session = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const { txnId } = session
        const first = part(session, "0.5")
        await gateway.control().pay(txnId, { amount: first })
        await settle()
        await gateway.control().advanceClock(PAST_EXPIRY_SECONDS)
        await settle()
        const rest = new Decimal(dueOf(session)).minus(first)
        const late = rest.times("0.5").toDecimalPlaces(8, Decimal.ROUND_DOWN)
        await gateway.control().pay(txnId, { amount: late.toFixed() })
        await settle()
        await gateway.control().pay(txnId, { amount: rest.minus(late).toFixed() })
        await settle()
        await reconcile()
        await redeliverAll(txnId)

        const items = await itemsAbout(api, auth, txnId)
        expect(items.filter((item) => item.kind === "late_payment")).toEqual([expect.objectContaining({ amount: rest.toFixed(), psys_cid: "LTC", currency: "LTC" })])
        expect(items.filter((item) => item.kind === "underpaid")).toEqual([expect.objectContaining({ amount: first, psys_cid: "LTC" })])
        const [orderId] = await orderIdsForCart(container, store.cartId)
        const widget = await api.get(`/admin/crypto/orders/${orderId}`, auth)
        expect(widget.data.accounts[0]).toMatchObject({ received: dueOf(session), psys_cid: "LTC", refund_due: first })
      })

      it("a payment to a cancelled invoice whose callback was lost and delivered again hours later reaches the queue once, with its amount and coin", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const session = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const { txnId } = session
        await gateway.control().advanceClock(PAST_EXPIRY_SECONDS)
        await settle()

        await gateway.control().dropCallbacks({ count: 1, txnId, event: "invoice" })
        expect((await gateway.control().pay(txnId, {})).status).toBe("expired")
        await settle()
        expect(await itemsAbout(api, auth, txnId)).toEqual([])

        await gateway.control().advanceClock(3 * 3600)
        expect(await redeliverDropped(txnId)).toBe(1)
        await redeliverAll(txnId)

        expect(await itemsAbout(api, auth, txnId)).toEqual([expect.objectContaining({ kind: "late_payment", amount: dueOf(session), psys_cid: "LTC", currency: "LTC" })])
        expect(await orderIdsForCart(container, store.cartId)).toEqual([])
        expect(await invoiceRow(container, store.cartId, txnId)).toMatchObject({ session_status: "canceled", received_amount: dueOf(session), psys_cid: "LTC" })
      })

      it("an invoice paid then reported in error, which the gateway completes later, is captured (error → captured is a forward move) and its money raised once", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const session = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const { txnId } = session
        await gateway.control().pay(txnId, { error: true })
        await settle()
        expect(await orderIdsForCart(container, store.cartId)).toEqual([])
        expect(await itemsAbout(api, auth, txnId)).toEqual([expect.objectContaining({ kind: "invoice_error", amount: dueOf(session), psys_cid: "LTC", currency: "LTC" })])

        await gateway.control().settle(txnId)
        await settle()
        await redeliverAll(txnId)

        const [orderId] = await orderIdsForCart(container, store.cartId)
        expect(orderId).toBeDefined()
        const widget = await api.get(`/admin/crypto/orders/${orderId}`, auth)
        expect(widget.data.payments[0]).toMatchObject({ captured: "10.5" })
        expect((await itemsAbout(api, auth, txnId)).map((item) => item.kind)).toEqual(["invoice_error"])
      })

      it("more money on a completed invoice (now mismatch) raises the surplus as overpaid once, however often it is delivered", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const session = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const { txnId } = session
        await gateway.control().pay(txnId, {})
        await settle()
        expect((await gateway.control().pay(txnId, { amount: "0.01" })).status).toBe("mismatch")
        await settle()
        await redeliverAll(txnId)
        await reconcile()

        expect(await orderIdsForCart(container, store.cartId)).toHaveLength(1)
        expect(await itemsAbout(api, auth, txnId)).toEqual([expect.objectContaining({ kind: "overpaid", amount: "0.01", psys_cid: "LTC", currency: "LTC" })])
      })

      it("a pending callback delivered after the completed one changes nothing (out of order)", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const session = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const { txnId } = session
        const first = part(session, "0.5")
        await gateway.control().dropCallbacks({ count: 1, txnId, event: "invoice" })
        await gateway.control().pay(txnId, { amount: first, confirmations: 0 })
        await gateway.control().pay(txnId, {})
        expect((await gateway.control().confirm(txnId)).status).toBe("completed")
        await settle()
        const [orderId] = await orderIdsForCart(container, store.cartId)

        expect(await redeliverDropped(txnId)).toBe(1)

        expect(await orderIdsForCart(container, store.cartId)).toEqual([orderId])
        expect(await invoiceRow(container, store.cartId, txnId)).toMatchObject({ session_status: "captured", received_amount: dueOf(session) })
        expect(await itemsAbout(api, auth, txnId)).toEqual([])
      })
    })

    describe("a cart that changes while its invoice is open", () => {
      it("never marks captured the invoice whose session Medusa deleted: it is abandoned, with the gateway's reading and its money raised once", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const first = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await api.post(`/store/carts/${store.cartId}/line-items`, { variant_id: store.variantId, quantity: 1 }, { headers: storefrontHeaders(store) })
        await gateway.control().pay(first.txnId, {})
        await settle()
        await reconcile()

        expect(await invoiceRow(container, store.cartId, first.txnId)).toMatchObject({ session_status: "abandoned", gateway_status: "completed", received_amount: dueOf(first), psys_cid: "LTC", order_id: null })
        expect(await orderIdsForCart(container, store.cartId)).toEqual([])
        expect(await itemsAbout(api, auth, first.txnId)).toEqual([expect.objectContaining({ kind: "abandoned_invoice_payment", amount: dueOf(first), psys_cid: "LTC", currency: "LTC" })])
      })

      it("keeps reading an abandoned invoice the gateway has not finished, so money whose callback was lost still reaches the queue", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const first = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await api.post(`/store/carts/${store.cartId}/line-items`, { variant_id: store.variantId, quantity: 1 }, { headers: storefrontHeaders(store) })
        const some = part(first, "0.25")
        await gateway.control().pay(first.txnId, { amount: some })
        await settle()
        expect(await invoiceRow(container, store.cartId, first.txnId)).toMatchObject({ session_status: "abandoned", gateway_status: "pending" })
        expect(await itemsAbout(api, auth, first.txnId)).toEqual([expect.objectContaining({ kind: "abandoned_invoice_payment", amount: some })])

        await gateway.control().dropCallbacks({ count: 1, txnId: first.txnId, event: "invoice" })
        expect((await gateway.control().pay(first.txnId, {})).status).toBe("completed")
        await settle()
        await reconcile()

        expect(await invoiceRow(container, store.cartId, first.txnId)).toMatchObject({ session_status: "abandoned", gateway_status: "completed", received_amount: dueOf(first) })
        expect(await itemsAbout(api, auth, first.txnId)).toEqual([expect.objectContaining({ kind: "abandoned_invoice_payment", amount: dueOf(first), psys_cid: "LTC", currency: "LTC" })])
        expect(await orderIdsForCart(container, store.cartId)).toEqual([])
      })
    })

    describe("paying the rest (docs/attention.md#paying-the-rest)", () => {
      it("an invoice that expired short gets a top-up for the shortfall in its coin; once it is paid the cart's order is placed and captured once, both invoices count, and the underpaid item is closed", async () => {
        const container = getContainer()
        await api.post("/admin/crypto/settings", { order_on_detection: false, underpaid_tolerance_percent: "1" }, auth)
        const store = await createCryptoStore(container)
        const session = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const headers = { headers: storefrontHeaders(store) }
        const first = part(session, "0.6")
        await gateway.control().pay(session.txnId, { amount: first })
        await settle()
        await gateway.control().advanceClock(PAST_EXPIRY_SECONDS)
        await settle()
        expect(await invoiceRow(container, store.cartId, session.txnId)).toMatchObject({ session_status: "canceled", gateway_status: "expired", received_amount: first })
        const [underpaid] = (await itemsAbout(api, auth, session.txnId)).filter((item) => item.kind === "underpaid")
        expect(underpaid).toMatchObject({ amount: first, psys_cid: "LTC" })
        const shortfall = new Decimal(dueOf(session)).minus(first).toFixed()

        const before = await api.get(`/store/crypto/payment-status?cart_id=${store.cartId}`, headers)
        expect(before.data.invoice.rest).toEqual({ received_amount: first, due_amount: shortfall, can_pay_rest: true, top_up: null })

        const opened = await api.post("/store/crypto/payment-sessions/top-up", { cart_id: store.cartId }, headers)
        const topUp = opened.data.invoice.rest.top_up
        expect(topUp).toMatchObject({ order_number: `${store.cartId}-rest`, status: "new", psys_cid: "LTC", currency: "LTC", network: "LTC", received_amount: null })
        expect(new Decimal(topUp.amount).gte(shortfall)).toBe(true)
        expect(topUp.address).toEqual(expect.any(String))
        expect(opened.data.invoice.rest).toMatchObject({ received_amount: first, can_pay_rest: false })
        // Asking again answers the same top-up.
        const again = await api.post("/store/crypto/payment-sessions/top-up", { cart_id: store.cartId }, headers)
        expect(again.data.invoice.rest.top_up).toMatchObject({ order_number: topUp.order_number, txn_id: topUp.txn_id })
        // While the shopper pays the rest, the merchant cannot refund the first payment.
        const refused = await requestFailure(api.post(`/admin/crypto/attention/${underpaid.id}/refund`, { address: "ltc1qtestrefundaddress0000000000000000000" }, auth))
        expect(refused.status).toBe(400)
        expect(refused.message).toContain("paying the rest")

        expect((await gateway.control().pay(topUp.txn_id, {})).status).toBe("completed")
        await settle()

        const orderIds = await orderIdsForCart(container, store.cartId)
        expect(orderIds).toHaveLength(1)
        const { data: payments } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
          entity: "order",
          fields: ["id", "payment_collections.payments.captured_at", "payment_collections.payments.captures.id"],
          filters: { id: orderIds[0] },
        })
        const paid = (payments[0].payment_collections ?? []).flatMap((collection: { payments?: Array<{ captures?: unknown[] }> }) => collection.payments ?? [])
        expect(paid).toHaveLength(1)
        expect(paid[0].captures).toHaveLength(1)
        expect(await invoiceRow(container, store.cartId, session.txnId)).toMatchObject({ session_status: "captured", order_id: orderIds[0] })
        expect(await invoiceRow(container, store.cartId, topUp.txn_id)).toMatchObject({ session_status: "captured", gateway_status: "completed", order_id: orderIds[0] })
        const { data: closed } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
          entity: "crypto_attention",
          fields: ["id", "status", "resolution", "resolution_note"],
          filters: { id: underpaid.id },
        })
        expect(closed[0]).toMatchObject({ status: "resolved", resolution: "paid_rest" })
        expect(await itemsAbout(api, auth, topUp.txn_id)).toEqual([])

        const widget = await api.get(`/admin/crypto/orders/${orderIds[0]}`, auth)
        const accounts = widget.data.accounts as Array<{ order_number: string; received: string; psys_cid: string }>
        expect(accounts.map((account) => [account.order_number, account.received, account.psys_cid])).toEqual([
          [store.cartId, first, "LTC"],
          [topUp.order_number, topUp.amount, "LTC"],
        ])
        const after = await api.get(`/store/crypto/payment-status?cart_id=${store.cartId}`, headers)
        expect(after.data).toMatchObject({ order_id: orderIds[0], invoice: { shopper_status: "paid", session_status: "captured", rest: { due_amount: "0", can_pay_rest: false } } })
      })
      it("a send-back of the underpayment prepared before the shopper opened a top-up is not recorded after it: the money counts toward the order", async () => {
        const container = getContainer()
        await api.post("/admin/crypto/settings", { order_on_detection: false, underpaid_tolerance_percent: "1" }, auth)
        const store = await createCryptoStore(container)
        const session = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await gateway.control().pay(session.txnId, { amount: part(session, "0.6") })
        await settle()
        await gateway.control().advanceClock(PAST_EXPIRY_SECONDS)
        await settle()
        const [underpaid] = (await itemsAbout(api, auth, session.txnId)).filter((item) => item.kind === "underpaid")
        expect(underpaid).toBeDefined()

        // The merchant's refund is prepared (nothing open yet), then the shopper opens the top-up…
        const { result: prepared } = await prepareAttentionRefund(container).run({
          input: { id: underpaid.id, address: "ltc1qtestrefundaddress0000000000000000000", fee_plan: "normal", requested_by: null },
        })
        expect(prepared.withdrawal).toMatchObject({ purpose: "underpayment", invoice_id: underpaid.subject_id })
        const opened = await api.post("/store/crypto/payment-sessions/top-up", { cart_id: store.cartId }, { headers: storefrontHeaders(store) })
        expect(opened.data.invoice.rest.top_up).toMatchObject({ status: "new" })

        // …and the refund's record comes after: refused, nothing recorded, nothing sent.
        // (A workflow rejects with its step's error as a plain object, not an Error: hence toMatchObject.)
        await expect(reserveWithdrawal(container).run({ input: prepared.withdrawal })).rejects.toMatchObject({
          type: "not_allowed",
          message: expect.stringContaining("The shopper is paying the rest of this invoice"),
        })
        expect(await resolveCryptoModule(container).listCryptoWithdrawals({ invoice_id: underpaid.subject_id })).toEqual([])
      })
    })

    describe("paying the rest of an order placed on detection (docs/attention.md#paying-the-rest)", () => {
      it("keeps the order waiting when its invoice expires short, and captures it once the shopper paid the rest", async () => {
        const container = getContainer()
        const query = container.resolve(ContainerRegistrationKeys.QUERY)
        const store = await createCryptoStore(container)
        const session = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const headers = { headers: storefrontHeaders(store) }
        const first = part(session, "0.5")
        await gateway.control().pay(session.txnId, { amount: first })
        await settle()
        const [orderId] = await orderIdsForCart(container, store.cartId)
        expect(orderId).toEqual(expect.any(String))
        await gateway.control().advanceClock(PAST_EXPIRY_SECONDS)
        await settle()

        const orderStatus = async () => (await query.graph({ entity: "order", fields: ["status"], filters: { id: orderId } })).data[0]?.status
        expect(await orderStatus()).not.toBe("canceled")
        const { data: rows } = await query.graph({ entity: "crypto_invoice", fields: ["session_status", "rest_until"], filters: { txn_id: session.txnId } })
        expect(rows[0]).toMatchObject({ session_status: "canceled", rest_until: expect.anything() })
        const status = await api.get(`/store/crypto/payment-status?cart_id=${store.cartId}`, headers)
        expect(status.data.invoice.rest).toMatchObject({ received_amount: first, can_pay_rest: true })

        const opened = await api.post("/store/crypto/payment-sessions/top-up", { cart_id: store.cartId }, headers)
        const topUp = opened.data.invoice.rest.top_up
        expect((await gateway.control().pay(topUp.txn_id, {})).status).toBe("completed")
        await settle()

        expect(await orderIdsForCart(container, store.cartId)).toEqual([orderId])
        expect(await orderStatus()).not.toBe("canceled")
        const { data: orders } = await query.graph({ entity: "order", fields: ["payment_collections.payments.captures.id"], filters: { id: orderId } })
        const payments = (orders[0].payment_collections ?? []).flatMap((collection: { payments?: Array<{ captures?: unknown[] }> }) => collection.payments ?? [])
        expect(payments.map((payment: { captures?: unknown[] }) => payment.captures?.length)).toEqual([1])
        const { data: after } = await query.graph({ entity: "crypto_invoice", fields: ["session_status", "rest_until"], filters: { cart_id: store.cartId } })
        expect(after.map((row: { session_status: string }) => row.session_status)).toEqual(["captured", "captured"])
        expect(after.every((row: { rest_until: unknown }) => row.rest_until === null)).toBe(true)
      })
    })

    describe("pending internal (spec §3)", () => {
      it("is money seen, not yet in the wallet: the order is placed on detection, not captured, until the gateway completes it", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const session = await startCryptoCheckout(api, store, { psys_cid: "ETH" })
        const { txnId } = session
        expect((await gateway.control().pay(txnId, {})).status).toBe("pending internal")
        await settle()
        expect(await invoiceRow(container, store.cartId, txnId)).toMatchObject({ session_status: "pending_authorization", gateway_status: "pending internal" })

        await gateway.control().advanceClock(TRANSFER_SECONDS)
        await settle()
        expect(await invoiceRow(container, store.cartId, txnId)).toMatchObject({ session_status: "captured", gateway_status: "completed" })
      })
    })
  },
})
