// Every documented `crypto.*` event (docs/events.md) received by a subscriber with its payload, and
// the Needs-attention kinds no other HTTP file covers (unknown outcomes of withdrawals, refunds and
// exchanges; callbacks whose processing keeps failing), paged over stored and derived items. One app
// boot, over the sandbox's white-label shop; every gateway state comes from the sandbox's control API.
import path from "node:path"
import type { IEventBusModuleService, INotificationModuleService } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createCartWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Decimal } from "decimal.js"
import { CryptoEvents, type CryptoEventName, type CryptoInvoiceCreatedEvent, type CryptoMoneyEvent } from "../../src/core/events"
import { resolveCryptoModule } from "../../src/modules/crypto"
import { reconcileCryptoPayments } from "../../src/subscribers/crypto-reconcile-requested"
import {
  CRYPTO_PROVIDER_ID,
  attentionPage,
  createCryptoStore,
  ethAddress,
  eventually,
  newKey,
  orderIdsForCart,
  requestFailure,
  startCryptoCheckout,
  useAdminAuth,
  useSavedAddresses,
  useTestGateway,
  type CryptoStore,
} from "./helpers"

jest.setTimeout(300_000)

/** Admin calls to the gateway give up after this long, so a dropped answer is seen quickly. */
const ADMIN_TIMEOUT_MS = 3000
/** Longer than any invoice lifetime (at most 10 days): an unpaid invoice expires. */
const PAST_EXPIRY_SECONDS = 11 * 24 * 3600

const gateway = useTestGateway({ whiteLabel: true, env: { MPC_TEST_GATEWAY_TIMEOUT_MS: String(ADMIN_TIMEOUT_MS) } })

/** What a store's subscriber receives: the event's name and its data. */
interface ReceivedEvent {
  name: CryptoEventName
  data: CryptoMoneyEvent
}

const DECIMAL = /^\d+(\.\d+)?$/

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    const received: ReceivedEvent[] = []
    gateway.bindApp(getContainer)

    beforeAll(() => {
      // A store's subscriber, as docs/events.md shows one: registered on Medusa's event bus for every event.
      const bus = getContainer().resolve<IEventBusModuleService>(Modules.EVENT_BUS)
      for (const name of Object.values(CryptoEvents)) {
        bus.subscribe(name, async (event) => {
          received.push({ name, data: event.data as CryptoMoneyEvent })
        })
      }
    })

    const auth = useAdminAuth(getContainer)

    useSavedAddresses(api)

    /** The events received about one subject (an invoice mirror, a withdrawal, an exchange). */
    const eventsAbout = (name: CryptoEventName, match: (data: CryptoMoneyEvent) => boolean) => received.filter((event) => event.name === name && match(event.data))

    /** A cart paying an invoice in `psysCid`: the invoice as the sandbox shows it, and the cart. */
    async function openInvoice(psysCid: string) {
      const container = getContainer()
      const store = await createCryptoStore(container)
      const { txnId } = await startCryptoCheckout(api, store, { psys_cid: psysCid })
      return { store, txnId, invoice: await gateway.control().invoice(txnId) }
    }

    /** One more cart of the same store (region, sales channel, the one product). */
    async function anotherCart(store: CryptoStore): Promise<string> {
      const container = getContainer()
      const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "cart", fields: ["region_id", "sales_channel_id", "currency_code"], filters: { id: store.cartId } })
      const { result } = await createCartWorkflow(container).run({
        input: {
          region_id: String(data[0].region_id),
          sales_channel_id: String(data[0].sales_channel_id),
          currency_code: String(data[0].currency_code),
          email: "shopper@example.com",
          items: [{ variant_id: store.variantId, quantity: 1 }],
        },
      })
      return result.id
    }

    /** The open Needs-attention queue as the admin reads it (one page large enough for this file's items). */
    const openAttention = () => attentionPage(api, auth, 200)

    describe("money received", () => {
      it("tells a subscriber about an overpayment: crypto.attention.raised and crypto.payment.overpaid, the surplus in the paid coin", async () => {
        const { store, txnId, invoice } = await openInvoice("LTC")
        const surplus = "0.01"
        await gateway.payAndDeliver(txnId, { amount: new Decimal(invoice.invoice_total_sum).plus(surplus).toFixed() })
        const [orderId] = await orderIdsForCart(getContainer(), store.cartId)

        const [overpaid] = await eventually(() => {
          const found = eventsAbout(CryptoEvents.PAYMENT_OVERPAID, (data) => data.order_id === orderId)
          expect(found).toHaveLength(1)
          return found
        })
        expect(overpaid.data).toEqual({
          id: expect.stringMatching(/^catt_/),
          provider_id: CRYPTO_PROVIDER_ID,
          order_id: orderId,
          psys_cid: "LTC",
          currency: "LTC",
          amount: surplus,
          kind: "overpaid",
          subject_id: expect.stringMatching(/^cinv_/),
        })
        expect(eventsAbout(CryptoEvents.ATTENTION_RAISED, (data) => data.id === overpaid.data.id).map((event) => event.data)).toEqual([overpaid.data])
      })

      it("tells a subscriber about an underpayment beyond the tolerance with what was received, once however often the callback comes", async () => {
        const { txnId, invoice } = await openInvoice("LTC")
        const paid = new Decimal(invoice.invoice_total_sum).div(2).toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed()
        await gateway.payAndDeliver(txnId, { amount: paid })
        await gateway.control().advanceClock(PAST_EXPIRY_SECONDS)
        await gateway.delivered()
        const [last] = (await gateway.control().callbacks({ txnId })).slice(-1)
        await gateway.control().redeliver(last.id)
        await gateway.delivered()

        const underpaid = await eventually(() => {
          const found = eventsAbout(CryptoEvents.PAYMENT_UNDERPAID, (data) => data.psys_cid === "LTC" && data.amount === paid)
          expect(found).toHaveLength(1)
          return found[0]
        })
        expect(underpaid.data).toMatchObject({ kind: "underpaid", currency: "LTC", provider_id: CRYPTO_PROVIDER_ID })
        expect(eventsAbout(CryptoEvents.ATTENTION_RAISED, (data) => data.id === underpaid.data.id)).toHaveLength(1)
      })

      it("tells a subscriber about money that reached an invoice after it expired: crypto.payment.late with its amount and coin", async () => {
        const { txnId, invoice } = await openInvoice("LTC")
        await gateway.control().advanceClock(PAST_EXPIRY_SECONDS)
        await gateway.delivered()
        await gateway.payAndDeliver(txnId, { amount: invoice.invoice_total_sum })

        const late = await eventually(() => {
          const found = eventsAbout(CryptoEvents.PAYMENT_LATE, (data) => data.amount === invoice.invoice_total_sum && data.psys_cid === "LTC")
          expect(found).toHaveLength(1)
          return found[0]
        })
        expect(late.data).toMatchObject({ kind: "late_payment", currency: "LTC", provider_id: CRYPTO_PROVIDER_ID })
        const queue = await openAttention()
        expect(queue.items.filter((item) => item.id === late.data.id)).toEqual([expect.objectContaining({ kind: "late_payment", amount: invoice.invoice_total_sum, psys_cid: "LTC" })])
      })
    })

    describe("what the merchant reads on an item (docs/attention.md#reading-an-item)", () => {
      it("an underpayment beyond the tolerance carries its order and its amounts in the coin and in the store's currency at the invoice's rate", async () => {
        const { store, txnId, invoice } = await openInvoice("LTC")
        const paid = new Decimal(invoice.invoice_total_sum).div(2).toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed()
        await gateway.payAndDeliver(txnId, { amount: paid })
        await gateway.control().advanceClock(PAST_EXPIRY_SECONDS)
        await gateway.delivered()
        const [orderId] = await orderIdsForCart(getContainer(), store.cartId)
        const { data: orders } = await getContainer().resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ["display_id"], filters: { id: orderId } })

        const item = await eventually(async () => {
          const found = (await openAttention()).items.filter((entry) => entry.kind === "underpaid" && entry.order_id === orderId)
          expect(found).toHaveLength(1)
          return found[0]
        })
        // The invoice asks 10.50 EUR; every amount is valued at the invoice's own gateway rate
        // (source_rate, fiat per coin: docs/books.md#fiat-values), so what it expects
        // (invoice_total_sum: the gateway's commission the shopper pays included) is worth a little more.
        expect(invoice).toMatchObject({ source_amount: "10.5", source_currency: "EUR", invoice_total_sum: "0.13868112" })
        expect(paid).toBe("0.06934056")
        // The rate the gateway gave when it created the invoice, as our invoice row keeps it.
        const [row] = await resolveCryptoModule(getContainer()).listCryptoInvoices({ txn_id: txnId })
        expect(row.source_rate).toMatch(/^\d+(\.\d+)?$/)
        const eur = (amount: string) => new Decimal(amount).times(String(row.source_rate)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2)
        expect(eur("0.13868112")).toBe("10.61")
        expect(item.facts).toEqual({
          order: { id: orderId, display_id: orders[0].display_id, status: expect.any(String), email: "shopper@example.com", customer_name: null },
          invoice: {
            expected: { amount: "0.13868112", coin: "LTC", fiat: { amount: eur("0.13868112"), currency: "EUR" } },
            received: { amount: "0.06934056", coin: "LTC", fiat: { amount: eur("0.06934056"), currency: "EUR" } },
            due: { amount: "0.06934056", coin: "LTC", fiat: { amount: eur("0.06934056"), currency: "EUR" } },
            shortfall: null,
          },
          refundable: true,
          gateway_status: "expired after a partial payment",
          when: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          // The order placed on detection waits for the rest (payRestHours, 24 by default): until then.
          rest_due_until: new Date(row.rest_until as Date).toISOString(),
        })
        expect(new Date(row.rest_until as Date).getTime()).toBeGreaterThan(Date.now())
        expect(typeof orders[0].display_id).toBe("number")
      })
    })

    describe("the shopper's messages (docs/notifications.md)", () => {
      it("e-mails the shopper the payment instructions of a new invoice once: the amount to send with its coin, the expiry, the links", async () => {
        const { store, invoice } = await openInvoice("LTC")
        const created = await eventually(() => {
          const found = received.filter((event) => event.name === CryptoEvents.INVOICE_CREATED && (event.data as Partial<CryptoInvoiceCreatedEvent>).cart_id === store.cartId)
          expect(found).toHaveLength(1)
          return found[0].data as Partial<CryptoInvoiceCreatedEvent>
        })
        const amount = new Decimal(invoice.invoice_total_sum).toFixed()
        expect(created).toEqual({
          id: expect.stringMatching(/^cinv_/),
          provider_id: CRYPTO_PROVIDER_ID,
          cart_id: store.cartId,
          psys_cid: "LTC",
          currency: "LTC",
          amount,
          invoice_url: invoice.invoice_url,
          // This file's provider entry is not white-label (MPC_TEST_WHITE_LABEL): the shopper pays on the page.
          address: null,
          expires_at: new Date(invoice.expire_utc * 1000).toISOString(),
        })

        const notifications = getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION)
        const sent = await eventually(async () => {
          const found = await notifications.listNotifications({ resource_id: store.cartId, trigger_type: CryptoEvents.INVOICE_CREATED })
          expect(found).toHaveLength(1)
          // Created first, then sent: the provider's answer marks it `success`.
          expect(found[0].status).toBe("success")
          return found[0]
        })
        expect(sent).toMatchObject({
          to: "shopper@example.com",
          channel: "email",
          template: "crypto-payment-instructions",
          resource_type: "cart",
          status: "success",
          data: {
            amount_with_coin: `${amount} LTC`,
            address: null,
            invoice_url: invoice.invoice_url,
            expires_at: created.expires_at,
            return_url: `http://localhost:8000/checkout/crypto/return?cart_id=${store.cartId}`,
          },
        })
      })

      it("e-mails the shopper one payment received for a paid checkout, however often its callback comes, and tells a subscriber crypto.payment.received", async () => {
        const { store, txnId, invoice } = await openInvoice("LTC")
        await gateway.payAndDeliver(txnId)
        const [last] = (await gateway.control().callbacks({ txnId })).slice(-1)
        await gateway.control().redeliver(last.id)
        await gateway.delivered()
        const [orderId] = await orderIdsForCart(getContainer(), store.cartId)

        const [paid] = await eventually(() => {
          const found = eventsAbout(CryptoEvents.PAYMENT_RECEIVED, (data) => data.order_id === orderId)
          expect(found).toHaveLength(1)
          return found
        })
        expect(paid.data).toEqual({
          id: expect.stringMatching(/^cinv_/),
          provider_id: CRYPTO_PROVIDER_ID,
          order_id: orderId,
          psys_cid: "LTC",
          currency: "LTC",
          amount: expect.stringMatching(DECIMAL),
          subject_id: paid.data.id,
        })
        expect(new Decimal(String(paid.data.amount)).eq(invoice.invoice_total_sum)).toBe(true)

        const notifications = getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION)
        const sent = await eventually(async () => {
          const found = await notifications.listNotifications({ resource_id: orderId, trigger_type: CryptoEvents.PAYMENT_RECEIVED })
          expect(found).toHaveLength(1)
          // Created first, then sent: the provider's answer marks it `success`.
          expect(found[0].status).toBe("success")
          return found[0]
        })
        expect(sent).toMatchObject({
          to: "shopper@example.com",
          channel: "email",
          template: "crypto-payment-received",
          resource_type: "order",
          status: "success",
          data: { amount: new Decimal(invoice.invoice_total_sum).toFixed(), amount_with_coin: `${new Decimal(invoice.invoice_total_sum).toFixed()} LTC`, order_id: orderId },
        })
        // A later run of the reconciliation re-reads the captured invoice and sends nothing more: it
        // emits no second crypto.payment.received (docs/events.md: once, on the move to captured), the
        // only thing that starts this e-mail. The sync emits it before its step returns, so whatever
        // the run emitted has reached the subscriber when run() resolves: nothing left to wait for.
        await reconcileCryptoPayments(getContainer(), { older_than_seconds: 0 })
        expect(eventsAbout(CryptoEvents.PAYMENT_RECEIVED, (data) => data.order_id === orderId)).toHaveLength(1)
        expect(await notifications.listNotifications({ resource_id: orderId, trigger_type: CryptoEvents.PAYMENT_RECEIVED })).toHaveLength(1)
      })

      it("e-mails the shopper once to pay the rest of an invoice that ended short: received X of Y, the rest, the return page", async () => {
        const { store, txnId, invoice } = await openInvoice("LTC")
        const paid = new Decimal(invoice.invoice_total_sum).div(4).toDecimalPlaces(8, Decimal.ROUND_DOWN)
        await gateway.payAndDeliver(txnId, { amount: paid.toFixed() })
        await gateway.control().advanceClock(PAST_EXPIRY_SECONDS)
        await gateway.delivered()
        const [last] = (await gateway.control().callbacks({ txnId })).slice(-1)
        await gateway.control().redeliver(last.id)
        await gateway.delivered()
        const [orderId] = await orderIdsForCart(getContainer(), store.cartId)

        const notifications = getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION)
        const sent = await eventually(async () => {
          const found = await notifications.listNotifications({ resource_id: orderId ?? store.cartId, trigger_type: CryptoEvents.PAYMENT_UNDERPAID })
          expect(found).toHaveLength(1)
          // Created first, then sent: the provider's answer marks it `success`.
          expect(found[0].status).toBe("success")
          return found[0]
        })
        const due = new Decimal(invoice.invoice_total_sum).minus(paid).toFixed()
        expect(sent).toMatchObject({
          to: "shopper@example.com",
          channel: "email",
          template: "crypto-payment-underpaid",
          status: "success",
          data: {
            received_with_coin: `${paid.toFixed()} LTC`,
            expected_with_coin: `${new Decimal(invoice.invoice_total_sum).toFixed()} LTC`,
            due_with_coin: `${due} LTC`,
            return_url: `http://localhost:8000/checkout/crypto/return?cart_id=${store.cartId}`,
          },
        })
      })
    })

    describe("money out whose outcome is unknown", () => {
      it("a withdrawal the gateway did not confirm: crypto.withdrawal.outcome_unknown, and withdrawal_unknown in Needs attention", async () => {
        await gateway.control().fault({ path: "/api/v1/operations/withdraw", mode: "5xx" })
        const { data } = await api.post(
          "/admin/crypto/withdrawals",
          { idempotency_key: newKey(), psys_cid: "ETH", recipients: [{ address: ethAddress(), amount: "0.0123" }], fee_plan: "normal" },
          auth
        )
        expect(data.withdrawal.status).toBe("outcome_unknown")

        const event = await eventually(() => {
          const found = eventsAbout(CryptoEvents.WITHDRAWAL_OUTCOME_UNKNOWN, (payload) => payload.id === data.withdrawal.id)
          expect(found).toHaveLength(1)
          return found[0]
        })
        expect(event.data).toEqual({ id: data.withdrawal.id, provider_id: CRYPTO_PROVIDER_ID, order_id: null, psys_cid: "ETH", currency: "ETH", amount: "0.0123" })
        const queue = await openAttention()
        expect(queue.items.filter((item) => item.id === data.withdrawal.id)).toEqual([expect.objectContaining({ kind: "withdrawal_unknown", amount: "0.0123", psys_cid: "ETH", source: "withdrawal" })])
      })

      it("a withdrawal the gateway answered with status error waits in Needs attention as withdrawal_failed until the merchant decides", async () => {
        await gateway.control().failNextWithdrawals({ count: 1 })
        const { data } = await api.post(
          "/admin/crypto/withdrawals",
          { idempotency_key: newKey(), psys_cid: "ETH", recipients: [{ address: ethAddress(), amount: "0.0321" }], fee_plan: "normal" },
          auth
        )
        expect(data.withdrawal.status).toBe("error")
        const queue = await openAttention()
        const [item] = queue.items.filter((candidate) => candidate.id === data.withdrawal.id)
        expect(item).toMatchObject({ kind: "withdrawal_failed", amount: "0.0321", psys_cid: "ETH", source: "withdrawal" })
        expect(item.evidence).toMatchObject({ operation_id: data.withdrawal.operation_id, gateway_status: "error" })
        expect((await api.get("/admin/crypto/attention/count", auth)).data.count).toBe(queue.count)

        await api.post(`/admin/crypto/withdrawals/${data.withdrawal.id}/resolve`, { resolution: "failed", note: "checked the operation: status error, nothing left the wallet" }, auth)
        const after = await openAttention()
        expect(after.items.filter((candidate) => candidate.id === data.withdrawal.id)).toEqual([])
        expect(after.count).toBe(queue.count - 1)
      })

      it("a crypto refund the gateway did not confirm: crypto.refund.outcome_unknown, and refund_unknown in Needs attention", async () => {
        const { store, txnId } = await openInvoice("ETH")
        await gateway.payAndDeliver(txnId)
        const [orderId] = await orderIdsForCart(getContainer(), store.cartId)
        const { data: quoted } = await api.post("/admin/crypto/refunds/quote", { order_id: orderId }, auth)
        await gateway.control().fault({ path: "/api/v1/operations/withdraw", mode: "5xx" })
        const { data } = await api.post("/admin/crypto/refunds", { idempotency_key: newKey(), order_id: orderId, amount: "10.5", rate: quoted.quote.rate, address: ethAddress() }, auth)
        expect(data.withdrawal.status).toBe("outcome_unknown")

        const event = await eventually(() => {
          const found = eventsAbout(CryptoEvents.REFUND_OUTCOME_UNKNOWN, (payload) => payload.id === data.withdrawal.id)
          expect(found).toHaveLength(1)
          return found[0]
        })
        expect(event.data).toEqual({ id: data.withdrawal.id, provider_id: CRYPTO_PROVIDER_ID, order_id: orderId, psys_cid: "ETH", currency: "ETH", amount: quoted.quote.coin_amount })
        const queue = await openAttention()
        expect(queue.items.filter((item) => item.id === data.withdrawal.id)).toEqual([expect.objectContaining({ kind: "refund_unknown", order_id: orderId, amount: quoted.quote.coin_amount, psys_cid: "ETH" })])
      })

      it("an exchange the gateway did not confirm: crypto.exchange.outcome_unknown, and exchange_unknown in Needs attention with its amount and coin", async () => {
        await gateway.control().fault({ path: "/api/v1/exchanges/new", mode: "5xx" })
        const { data } = await api.post(
          "/admin/crypto/exchanges",
          { idempotency_key: newKey(), from_currency: "ETH", to_currency: "BTC", from_amount: "0.5", to_address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", confirmed: true },
          auth
        )
        expect(data.exchange.status).toBe("outcome_unknown")

        const event = await eventually(() => {
          const found = eventsAbout(CryptoEvents.EXCHANGE_OUTCOME_UNKNOWN, (payload) => payload.id === data.exchange.id)
          expect(found).toHaveLength(1)
          return found[0]
        })
        expect(event.data).toMatchObject({ id: data.exchange.id, provider_id: CRYPTO_PROVIDER_ID, psys_cid: "ETH", amount: "0.5" })
        const queue = await openAttention()
        expect(queue.items.filter((item) => item.id === data.exchange.id)).toEqual([expect.objectContaining({ kind: "exchange_unknown", amount: "0.5", psys_cid: "ETH", source: "exchange" })])
      })
    })

    describe("the queue's pages", () => {
      it("pages over stored and derived items: every item once, the count the same on every page", async () => {
        // Derived items: two withdrawals and one exchange of unknown outcome. Stored items: three overpayments.
        await gateway.control().fault({ path: "/api/v1/operations/withdraw", mode: "5xx", count: 2 })
        for (const amount of ["0.011", "0.012"]) {
          const { data } = await api.post("/admin/crypto/withdrawals", { idempotency_key: newKey(), psys_cid: "ETH", recipients: [{ address: ethAddress(), amount }], fee_plan: "normal" }, auth)
          expect(data.withdrawal.status).toBe("outcome_unknown")
        }
        await gateway.control().fault({ path: "/api/v1/exchanges/new", mode: "5xx" })
        const exchange = await api.post(
          "/admin/crypto/exchanges",
          { idempotency_key: newKey(), from_currency: "ETH", to_currency: "BTC", from_amount: "0.5", to_address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", confirmed: true },
          auth
        )
        expect(exchange.data.exchange.status).toBe("outcome_unknown")
        const store = await createCryptoStore(getContainer())
        for (const cartId of [store.cartId, await anotherCart(store), await anotherCart(store)]) {
          const { txnId } = await startCryptoCheckout(api, { ...store, cartId }, { psys_cid: "LTC" })
          const invoice = await gateway.control().invoice(txnId)
          await gateway.control().pay(txnId, { amount: new Decimal(invoice.invoice_total_sum).plus("0.001").toFixed() })
        }
        await gateway.delivered()

        const first = await eventually(async () => {
          const current = await openAttention()
          expect(current.count).toBe(6)
          return current
        })
        expect(first.items.map((item) => item.kind).sort()).toEqual(["exchange_unknown", "overpaid", "overpaid", "overpaid", "withdrawal_unknown", "withdrawal_unknown"])
        const pages: string[][] = []
        for (let offset = 0; offset < 8; offset += 2) {
          const { data } = await api.get(`/admin/crypto/attention?limit=2&offset=${offset}`, auth)
          expect(data.count).toBe(6)
          pages.push(data.items.map((item: { id: string }) => item.id))
        }
        expect(pages.map((page) => page.length)).toEqual([2, 2, 2, 0])
        expect(new Set(pages.flat())).toEqual(new Set(first.items.map((item) => item.id)))
        const badge = await api.get("/admin/crypto/attention/count", auth)
        expect(badge.data.count).toBe(6)
      })

      it("answers 400 naming the field for a limit that is not a whole number", async () => {
        const { status, message } = await requestFailure(api.get("/admin/crypto/attention?limit=two", auth))
        expect(status).toBe(400)
        expect(message).toContain("limit")
      })
    })

    describe("a callback whose processing keeps failing", () => {
      it("is raised as callback_failed with the announced amount and coin and a readable reason, and tells a subscriber", async () => {
        const { txnId, invoice } = await openInvoice("LTC")
        // The gateway fails every read while the callback is processed (the processing reads the invoice back).
        await gateway.control().fault({ path: "/api/v1/operations", mode: "5xx", count: 1000 })
        await gateway.control().pay(txnId)
        await gateway.sandbox.callbacksIdle()
        for (let run = 0; run < 3; run += 1) {
          await reconcileCryptoPayments(getContainer(), { older_than_seconds: 0 })
        }

        const queue = await eventually(async () => {
          const current = await openAttention()
          expect(current.items.filter((item) => item.kind === "callback_failed" && (item.evidence as { txn_id?: string }).txn_id === txnId)).toHaveLength(1)
          return current
        })
        const item = queue.items.find((candidate) => candidate.kind === "callback_failed" && (candidate.evidence as { txn_id?: string }).txn_id === txnId)
        expect(item).toMatchObject({ psys_cid: "LTC", amount: invoice.invoice_total_sum })
        expect(item?.amount).toMatch(DECIMAL)
        const reason = String((item?.evidence as { last_error?: string }).last_error)
        expect(reason).not.toContain("[object Object]")
        expect(reason).not.toContain(gateway.shop.secretKey)
        expect(reason.length).toBeGreaterThan(10)
        const raised = await eventually(() => {
          const found = eventsAbout(CryptoEvents.ATTENTION_RAISED, (data) => data.id === item?.id)
          expect(found).toHaveLength(1)
          return found[0]
        })
        expect(raised.data).toMatchObject({ kind: "callback_failed", psys_cid: "LTC", amount: invoice.invoice_total_sum, provider_id: CRYPTO_PROVIDER_ID })
        // Back to a gateway that answers (and fresh state) for whatever runs after.
        await gateway.control().reset()
      })
    })
  },
})
