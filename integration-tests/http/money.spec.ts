// Money received, every case (docs/attention.md): each amount kept with the coin that holds it, and
// everything no order explains raised in the "Needs attention" queue. One app boot for all of it,
// over the sandbox's shop WITHOUT white-label: its operations carry no amounts or coin (spec §2.2),
// so the plugin must learn them from the verified callbacks (spec §6.1) as a real plain shop does.
import { randomBytes } from "node:crypto"
import path from "node:path"
import type { MedusaContainer } from "@medusajs/framework/types"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Decimal } from "decimal.js"
import { signCallback } from "../../src/gateway"
import { reconcileCryptoPayments } from "../../src/subscribers/crypto-reconcile-requested"
import {
  attentionItems,
  callbacksProcessed,
  createCryptoStore,
  newKey,
  orderIdsForCart,
  requestFailure,
  startCryptoCheckout,
  storefrontHeaders,
  useAdminAuth,
  useTestGateway,
  type CryptoStore,
} from "./helpers"

jest.setTimeout(180_000)

/** Longer than any invoice lifetime (at most 10 days): an unpaid invoice expires. */
const PAST_EXPIRY_SECONDS = 11 * 24 * 3600

const gateway = useTestGateway({ whiteLabel: false })

const BECH32 = "023456789acdefghjklmnpqrstuvwxyz"
/** A well-formed (unchecked) Litecoin bech32 address, as the sandbox accepts for a withdrawal. */
const ltcAddress = () => `ltc1q${[...randomBytes(38)].map((byte) => BECH32[byte % BECH32.length]).join("")}`

/** `fraction` of what the invoice asks, rounded to its coin (up when more, down when less). */
async function part(txnId: string, fraction: string): Promise<string> {
  const { total, precision } = await gateway.dueAt(txnId)
  return total.times(fraction).toDecimalPlaces(precision, new Decimal(fraction).gt(1) ? Decimal.ROUND_UP : Decimal.ROUND_DOWN).toFixed()
}

async function pay(txnId: string, amount?: string): Promise<void> {
  await gateway.payAndDeliver(txnId, amount === undefined ? {} : { amount })
}

/** The shopper picks another coin on the gateway's hosted page: the new invoice's txn_id. */
async function switchCoin(txnId: string, psysCid: string): Promise<string> {
  const switched = await gateway.control().switchCurrency(txnId, psysCid)
  await gateway.delivered()
  return String(switched.txn_id)
}

async function expireEverything(): Promise<void> {
  await gateway.control().advanceClock(PAST_EXPIRY_SECONDS)
  await gateway.delivered()
}

/** How many cash_out operations the gateway lists for the shop (its operations list, spec §4.3). */
async function cashOutCount(): Promise<number> {
  const list = await gateway.client().operations.list({ type: "cash_out", limit: 1 })
  return list._meta?.totalCount ?? 0
}

async function onlyOrder(container: MedusaContainer, store: CryptoStore): Promise<string> {
  const orders = await orderIdsForCart(container, store.cartId)
  if (orders.length !== 1) throw new Error(`expected one order, found ${orders.length}`)
  return orders[0]
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    gateway.bindApp(getContainer)
    const auth = useAdminAuth(getContainer, { api, settings: { order_on_detection: true, underpaid_tolerance_percent: "0" } })

    describe("every amount carries the coin of the invoice that holds it", () => {
      it("refunds an overpayment after a currency switch in the coin the shopper paid, not the one the invoice was created in", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "BTC" })
        const ltc = await switchCoin(txnId, "LTC")
        const paid = await part(ltc, "1.1")
        await pay(ltc, paid)
        const orderId = await onlyOrder(container, store)
        const overpaid = new Decimal(paid).minus((await gateway.dueAt(ltc)).total).toFixed()

        const widget = await api.get(`/admin/crypto/orders/${orderId}`, auth)
        const holding = widget.data.accounts.find((account: { holds_order_money: boolean }) => account.holds_order_money)
        expect(holding).toMatchObject({ psys_cid: "LTC", currency: "LTC", received: paid, overpaid, txn_id: ltc })
        const address = ltcAddress()
        const refund = await api.post("/admin/crypto/refunds", { idempotency_key: newKey(), order_id: orderId, kind: "overpayment", address }, auth)

        expect(refund.data.withdrawal).toMatchObject({ status: "completed", psys_cid: "LTC", total_amount: overpaid, recipients: [{ address, amount: overpaid }] })
        const status = await api.get(`/store/crypto/payment-status?cart_id=${store.cartId}`, { headers: storefrontHeaders(store) })
        expect(status.data.invoice).toMatchObject({ psys_cid: "LTC", overpaid_amount: overpaid, account: { psys_cid: "LTC", sent_back: overpaid } })
      })

      it("learns the coin the shopper picked on the hosted page from the verified callback, so a crypto refund can be sent", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store)
        const ltc = await switchCoin(txnId, "LTC")
        await pay(ltc)
        const orderId = await onlyOrder(container, store)

        const quote = await api.post("/admin/crypto/refunds/quote", { order_id: orderId, amount: "5" }, auth)
        expect(quote.data.quote ?? quote.data).toMatchObject({ psys_cid: "LTC" })
        const rate = String((quote.data.quote ?? quote.data).rate)
        const address = ltcAddress()
        const refund = await api.post("/admin/crypto/refunds", { idempotency_key: newKey(), order_id: orderId, kind: "refund", amount: "5", rate, address }, auth)

        expect(refund.data.withdrawal).toMatchObject({ status: "completed", psys_cid: "LTC", purpose: "refund", source_amount: "5" })
      })
    })

    describe("money the gateway reports after the plugin gave up on an invoice", () => {
      it("captures an invoice the gateway reported in error once it reports it completed, by the reconciliation job's polling", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await gateway.control().pay(txnId, { error: true })
        await gateway.delivered()
        expect(await orderIdsForCart(container, store.cartId)).toEqual([])
        expect(await attentionItems(api, auth)).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "invoice_error", evidence: expect.objectContaining({ txn_id: txnId }) })]))

        // The gateway finishes the invoice (settle) and its callbacks are lost: only the polling learns it.
        await gateway.control().dropCallbacks({ txnId })
        await gateway.control().settle(txnId)
        await reconcileCryptoPayments(container, { older_than_seconds: 0 })

        const orderId = await onlyOrder(container, store)
        const widget = await api.get(`/admin/crypto/orders/${orderId}`, auth)
        expect(widget.data.payments[0]).toMatchObject({ captured: "10.5" })
      })

      it("records a payment to an expired invoice as a late payment with its amount and coin, and places no order", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await expireEverything()
        expect((await gateway.control().invoice(txnId)).status).toBe("cancelled")
        const amount = (await gateway.dueAt(txnId)).total.toFixed()

        // The shopper's wallet sends after the end: the gateway records it (cancelled → expired, spec §3).
        await pay(txnId, amount)
        expect((await gateway.control().invoice(txnId)).status).toBe("expired")

        expect(await orderIdsForCart(container, store.cartId)).toEqual([])
        const late = (await attentionItems(api, auth)).find((item) => item.kind === "late_payment" && (item.evidence as { txn_id?: string }).txn_id === txnId)
        expect(late).toMatchObject({ amount, psys_cid: "LTC", currency: "LTC", status: "open", cart_id: store.cartId })
      })
    })

    describe("under- and overpayments", () => {
      it("stores the shortfall of an underpayment accepted within the tolerance, shows it, and resolves it with a note, who and when", async () => {
        const container = getContainer()
        await api.post("/admin/crypto/settings", { underpaid_tolerance_percent: "5" }, auth)
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const paid = await part(txnId, "0.97")
        await pay(txnId, paid)
        await expireEverything()
        const orderId = await onlyOrder(container, store)
        const shortfall = (await gateway.dueAt(txnId)).total.minus(paid).toFixed()

        const widget = await api.get(`/admin/crypto/orders/${orderId}`, auth)
        expect(widget.data.accounts[0]).toMatchObject({ underpaid: shortfall, psys_cid: "LTC", received: paid })
        const item = widget.data.attention.find((candidate: { kind: string }) => candidate.kind === "underpaid")
        expect(item).toMatchObject({ amount: shortfall, psys_cid: "LTC", evidence: expect.objectContaining({ within_tolerance: true }) })

        const refused = await requestFailure(api.post(`/admin/crypto/attention/${item.id}/refund`, { address: ltcAddress() }, auth))
        expect(refused.message).toContain("within the tolerance")
        const unexplained = await requestFailure(api.post(`/admin/crypto/attention/${item.id}/resolve`, { resolution: "kept" }, auth))
        expect(unexplained).toMatchObject({ status: 400, message: expect.stringContaining("note") })
        const { data } = await api.post(`/admin/crypto/attention/${item.id}/resolve`, { resolution: "kept", note: "Shopper paid the rest by bank transfer" }, auth)
        expect(data.attention).toMatchObject({ status: "resolved", resolution: "kept", resolution_note: "Shopper paid the rest by bank transfer", resolved_by: expect.stringMatching(/^user_/) })
        const items = await attentionItems(api, auth)
        expect(items.map((candidate) => candidate.id)).not.toContain(item.id)
      })

      it("refunds an underpayment beyond the tolerance that placed no order (order on detection off) from the attention queue, once", async () => {
        const container = getContainer()
        await api.post("/admin/crypto/settings", { order_on_detection: false }, auth)
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const paid = await part(txnId, "0.5")
        await pay(txnId, paid)
        await expireEverything()
        expect(await orderIdsForCart(container, store.cartId)).toEqual([])
        const item = (await attentionItems(api, auth)).find((candidate) => candidate.kind === "underpaid" && (candidate.evidence as { txn_id?: string }).txn_id === txnId)
        expect(item).toMatchObject({ amount: paid, psys_cid: "LTC", order_id: null, evidence: expect.objectContaining({ within_tolerance: false }) })

        const address = ltcAddress()
        const body = { address, idempotency_key: newKey() }
        const cashOutsBefore = await cashOutCount()
        const first = await api.post(`/admin/crypto/attention/${String(item?.id)}/refund`, body, auth)
        const again = await api.post(`/admin/crypto/attention/${String(item?.id)}/refund`, body, auth)

        expect(first.data.withdrawal).toMatchObject({ status: "completed", purpose: "underpayment", psys_cid: "LTC", total_amount: paid, recipients: [{ address, amount: paid }] })
        expect(first.data.attention).toMatchObject({ status: "resolved", resolution: "refunded", withdrawal_id: first.data.withdrawal.id })
        expect(again.data).toMatchObject({ replayed: true, withdrawal: { id: first.data.withdrawal.id } })
        expect(await cashOutCount()).toBe(cashOutsBefore + 1)
      })

      it("raises an overpayment for the merchant with its amount in the paid coin", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const paid = await part(txnId, "1.2")
        await pay(txnId, paid)
        const orderId = await onlyOrder(container, store)
        const { data } = await api.get(`/admin/crypto/orders/${orderId}`, auth)
        expect(data.attention).toEqual([expect.objectContaining({ kind: "overpaid", amount: new Decimal(paid).minus((await gateway.dueAt(txnId)).total).toFixed(), psys_cid: "LTC" })])
      })
    })

    describe("money on invoices no order uses", () => {
      it("raises money on a cancelled-duplicate invoice (paid in two coins) with the coin of that invoice", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "BTC" })
        const ltc = await switchCoin(txnId, "LTC")
        const btcPaid = await part(txnId, "0.3")
        await pay(txnId, btcPaid)
        await pay(ltc)
        expect((await gateway.control().invoice(txnId)).status).toBe("cancelled duplicate")
        const orderId = await onlyOrder(container, store)

        const { data } = await api.get(`/admin/crypto/orders/${orderId}`, auth)
        expect(data.attention).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "duplicate_invoice_payment", amount: btcPaid, psys_cid: "BTC" })]))
        expect(data.current_invoice_id).toBe(data.accounts.find((account: { holds_order_money: boolean }) => account.holds_order_money).invoice_id)
      })

      it("raises money paid to the invoice a cart abandoned when its contents changed, and shows the order's own invoice as current", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const first = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await api.post(`/store/carts/${store.cartId}/line-items`, { variant_id: store.variantId, quantity: 1 }, { headers: storefrontHeaders(store) })
        const second = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        await pay(first.txnId)
        await pay(second.txnId)
        const orderId = await onlyOrder(container, store)

        const { data } = await api.get(`/admin/crypto/orders/${orderId}`, auth)
        const current = data.invoices.find((invoice: { id: string }) => invoice.id === data.current_invoice_id)
        expect(current.txn_id).toBe(second.txnId)
        const items = await attentionItems(api, auth)
        expect(items).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "abandoned_invoice_payment", amount: (await gateway.dueAt(first.txnId)).total.toFixed(), psys_cid: "LTC" })]))
      })

      it("raises a deposit pay_in whose uid is no customer, with its amount and coin, once however often it is delivered", async () => {
        const txnId = `PAYIN-${randomBytes(6).toString("hex")}`
        const fields = {
          amount: "1.25",
          confirmations: "3",
          currency: "LTC",
          psys_cid: "LTC",
          deposit_uid: `stranger-${randomBytes(4).toString("hex")}`,
          ipn_type: "pay_in",
          status: "completed",
          txn_id: txnId,
          wallet_hash: ltcAddress(),
        }
        for (const confirmations of ["1", "3"]) {
          const signed = signCallback({ ...fields, confirmations }, { secretKey: gateway.shop.secretKey, format: "json" })
          await api.post("/hooks/crypto/crypto?json=true", signed.body, { headers: { "content-type": signed.contentType } })
        }
        await callbacksProcessed(getContainer())

        const items = await attentionItems(api, auth)
        expect(items.filter((item) => item.kind === "unmatched_pay_in" && (item.evidence as { txn_id?: string }).txn_id === txnId)).toEqual([
          expect.objectContaining({ amount: "1.25", psys_cid: "LTC", currency: "LTC" }),
        ])
        const count = await api.get("/admin/crypto/attention/count", auth)
        expect(count.data.count).toBe(items.length)
      })
    })
  },
})
