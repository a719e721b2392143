// The accountant's export (docs/books.md#accounting-export): carts paid through the sandbox in
// every way that moves crypto (exact, over, under beyond the tolerance, refunded), the export
// downloaded as CSV and JSON over HTTP, and its per-coin totals held against the account
// (src/core/money-out/account.ts) of the same invoices. The sandbox is driven only through its control client.
import { randomBytes } from "node:crypto"
import path from "node:path"
import type { ICustomerModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStoresWorkflow, updateStoresWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosInstance } from "axios"
import { parse } from "csv-parse/sync"
import { Decimal } from "decimal.js"
import { accountOfInvoices, type InvoiceAccount } from "../../src/core/money-out/account"
import { resolveCryptoModule } from "../../src/modules/crypto"
import {
  callbacksDeliveredAndProcessed,
  createCryptoStore,
  ethAddress,
  newKey,
  orderIdsForCart,
  requestFailure,
  startCryptoCheckout,
  storefrontHeaders,
  useAdminAuth,
  useTestGateway,
  type CryptoStore,
} from "./helpers"

jest.setTimeout(300_000)

// Deposit callbacks (spec §6.2) go to the shop's Status URL: it points at the test app's callback route.
const gateway = useTestGateway({ whiteLabel: true, env: { MPC_TEST_PAY_REST_HOURS: "0" }, statusUrlToApp: true })

const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)

/**
 * A new 10.50 EUR cart of the store: the test's first makes the store (one region per test
 * database), the others are carts a storefront creates in it.
 */
async function newCart(container: MedusaContainer, api: AxiosInstance, store: CryptoStore | null): Promise<CryptoStore> {
  if (store === null) return createCryptoStore(container)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: regions } = await query.graph({ entity: "region", fields: ["id"] })
  const { data } = await api.post(
    "/store/carts",
    { region_id: regions[0].id, email: "shopper@example.com", items: [{ variant_id: store.variantId, quantity: 1 }] },
    { headers: storefrontHeaders(store) }
  )
  return { ...store, cartId: String(data.cart.id) }
}

/** A 10.50 EUR cart paid in ETH at `fraction` of what the invoice asks (rounded to the coin: up above 1, down below). */
async function cartPaid(container: MedusaContainer, api: AxiosInstance, fraction: string, from: CryptoStore | null = null): Promise<{ store: CryptoStore; cartId: string; orderId: string; paid: Decimal }> {
  const store = await newCart(container, api, from)
  const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "ETH" })
  const invoice = await gateway.control().invoice(txnId)
  const due = new Decimal(invoice.invoice_total_sum)
  const paid = due.times(fraction).toDecimalPlaces(invoice.precision, new Decimal(fraction).gt(1) ? Decimal.ROUND_UP : Decimal.ROUND_DOWN)
  await gateway.control().pay(txnId, fraction === "1" ? {} : { amount: paid.toFixed() })
  await callbacksDeliveredAndProcessed(gateway.sandbox, container)
  const orderIds = await orderIdsForCart(container, store.cartId)
  if (orderIds.length !== 1) throw new Error(`expected one order for the paid cart, found ${orderIds.length}`)
  return { store, cartId: store.cartId, orderId: orderIds[0], paid }
}

type Row = Record<string, string>
interface JsonExport {
  from: string
  to: string
  rows: Array<Record<string, string | null>>
  totals: Array<{ kind: string; psys_cid: string | null; amount: string; count: number }>
}

/** Σ of an account field per coin. */
function accountSum(accounts: readonly InvoiceAccount[], field: "received" | "refunded" | "sent_back", coin: string): string {
  return accounts
    .filter((account) => account.psys_cid === coin)
    .reduce((sum, account) => sum.plus(account[field]), new Decimal(0))
    .toFixed()
}

/** Σ of the totals of `kind` in `coin` (over every fiat currency), as the file gives them. */
function totalOf(totals: ReadonlyArray<{ kind: string; psys_cid: string | null; amount: string }>, kind: string, coin: string): string {
  return totals
    .filter((total) => total.kind === kind && total.psys_cid === coin)
    .reduce((sum, total) => sum.plus(total.amount), new Decimal(0))
    .toFixed()
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    const auth = useAdminAuth(getContainer)

    describe("the accounting export (docs/books.md#accounting-export)", () => {
      it("gives per-coin totals equal to the account of the same invoices, in CSV and in JSON", async () => {
        const container = getContainer()
        // The store currency every row is valued in (docs/books.md#fiat-values).
        await createStoresWorkflow(container).run({ input: { stores: [{ name: "Books shop", supported_currencies: [{ currency_code: "eur", is_default: true }] }] } })
        const refundOf = (orderId: string, kind: "overpayment" | "underpayment") => ({ idempotency_key: newKey(), order_id: orderId, kind, address: ethAddress() })

        const exact = await cartPaid(container, api, "1")
        const over = await cartPaid(container, api, "1.1", exact.store)
        await api.post("/admin/crypto/refunds", refundOf(over.orderId, "overpayment"), auth)
        const under = await cartPaid(container, api, "0.9", exact.store)
        // The invoice expires underpaid beyond the tolerance: the refund due is recorded, then sent back.
        await gateway.control().advanceClock(7200)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        const sentBack = await api.post("/admin/crypto/refunds", refundOf(under.orderId, "underpayment"), auth)
        expect(sentBack.data.withdrawal).toMatchObject({ purpose: "underpayment", status: "completed" })
        // The merchant settles the shortfall's item: it is no longer open, so it has no memo row.
        const shortfall = (await resolveCryptoModule(container).listCryptoAttentions({ kind: "underpaid", order_id: under.orderId }))[0]
        await api.post(`/admin/crypto/attention/${shortfall.id}/resolve`, { resolution: "other", note: "Sent back to the shopper" }, auth)
        const refunded = await cartPaid(container, api, "1", exact.store)
        const { data: quoted } = await api.post("/admin/crypto/refunds/quote", { order_id: refunded.orderId, amount: "4.25" }, auth)
        const refund = await api.post("/admin/crypto/refunds", { idempotency_key: newKey(), order_id: refunded.orderId, amount: "4.25", rate: quoted.quote.rate, address: ethAddress() }, auth)
        expect(refund.data.withdrawal).toMatchObject({ purpose: "refund", status: "completed" })

        // The account of every invoice of these carts, read as the order widget reads it.
        const crypto = resolveCryptoModule(container)
        const accounts: InvoiceAccount[] = []
        for (const cart of [exact, over, under, refunded]) {
          const invoices = await crypto.listCryptoInvoices({ cart_id: cart.cartId })
          accounts.push(...(await accountOfInvoices(crypto, invoices, { order_id: cart.orderId })).accounts)
        }
        const expected = {
          received: accountSum(accounts, "received", "ETH"),
          refunded: accountSum(accounts, "refunded", "ETH"),
          sent_back: accountSum(accounts, "sent_back", "ETH"),
        }
        expect(new Decimal(expected.refunded).gt(0)).toBe(true)
        expect(new Decimal(expected.sent_back).gt(0)).toBe(true)

        // The period around now, in UTC days ([from, to)): every row of this test's database.
        const from = utcDay(-1)
        const to = utcDay(2)
        const csv = await api.get(`/admin/crypto/exports/books?format=csv&from=${from}&to=${to}`, { ...auth, responseType: "text" })
        expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8")
        expect(csv.headers["content-disposition"]).toBe(`attachment; filename="crypto-books-${from}-${to}.csv"`)
        const records = parse(String(csv.data), { columns: true }) as Row[]
        const rows = records.filter((record) => !record.kind.startsWith("total:"))
        const totals = records
          .filter((record) => record.kind.startsWith("total:"))
          .map((record) => ({ kind: record.kind.slice("total:".length), psys_cid: record.psys_cid, amount: record.amount }))

        expect(totalOf(totals, "payment", "ETH")).toBe(expected.received)
        expect(totalOf(totals, "refund", "ETH")).toBe(expected.refunded)
        expect(totalOf(totals, "send_back", "ETH")).toBe(expected.sent_back)

        // One payment row per paid invoice, with the order's display id and a fiat value at the gateway's rate.
        const payments = rows.filter((row) => row.kind === "payment")
        expect(payments).toHaveLength(accounts.filter((account) => new Decimal(account.received).gt(0)).length)
        const query = container.resolve(ContainerRegistrationKeys.QUERY)
        const { data: orders } = await query.graph({ entity: "order", fields: ["id", "display_id"], filters: { id: exact.orderId } })
        expect(payments.find((row) => row.order_id === exact.orderId)).toMatchObject({
          order_display_id: String(orders[0].display_id),
          psys_cid: "ETH",
          fiat_currency: "EUR",
          // Valued at the rate of the callback that reported the money (spec §6.1 `source_rate`).
          rate_source: "callback",
          fiat_value: expect.stringMatching(/^\d+\.\d{2}$/),
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        })
        // Memo rows only for what is still open: the resolved shortfall has no row; every memo row is an open item's.
        const items = await crypto.listCryptoAttentions({ kind: ["overpaid", "underpaid", "late_payment"] })
        const open = items.filter((item) => item.status === "open")
        expect(items.find((item) => item.id === shortfall.id)?.status).toBe("resolved")
        expect(rows.filter((row) => row.direction === "memo")).toHaveLength(open.length)
        expect(rows).not.toContainEqual(expect.objectContaining({ kind: "underpayment", purpose: "beyond_tolerance" }))
        // Every counted row is in the store currency; no total splits by fiat.
        expect(new Set(rows.filter((row) => row.counted === "yes").map((row) => row.fiat_currency))).toEqual(new Set(["EUR"]))

        const json = await api.get(`/admin/crypto/exports/books?format=json&from=${from}&to=${to}`, auth)
        expect(json.headers["content-type"]).toBe("application/json; charset=utf-8")
        const document = json.data as JsonExport
        expect(document.from).toBe(`${from}T00:00:00.000Z`)
        expect(document.rows).toHaveLength(rows.length)
        expect(totalOf(document.totals, "payment", "ETH")).toBe(expected.received)
        expect(totalOf(document.totals, "refund", "ETH")).toBe(expected.refunded)
        expect(totalOf(document.totals, "send_back", "ETH")).toBe(expected.sent_back)

        // A period that ended before these payments holds none of them.
        const before = await api.get(`/admin/crypto/exports/books?format=json&from=2020-01-01&to=2020-02-01`, auth)
        expect(before.data).toMatchObject({ rows: [], totals: [] })
      })

      it("lists a customer's deposits once each (a pending report then a completed one is one row), counting the completed ones as the customer's totals do", async () => {
        const container = getContainer()
        const customer = await container.resolve<ICustomerModuleService>(Modules.CUSTOMER).createCustomers({ email: `buyer-${randomBytes(4).toString("hex")}@example.com` })
        const created = await api.post("/admin/crypto/deposits", { uid: customer.id, psys_cid: "LTC" }, auth)
        const hash = String(created.data.deposits[0].hash)
        const control = gateway.control()
        // Seen unconfirmed (a pending callback), then confirmed (a completed one): one deposit.
        const seen = await control.payDeposit(hash, { amount: "0.1", confirmations: 0 })
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        await control.payDeposit(hash, { txid: seen.txid, confirmations: 6 })
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        await control.payDeposit(hash, { amount: "0.25" })
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        // Seen only: listed, not counted.
        await control.payDeposit(hash, { amount: "0.5", confirmations: 0 })
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        const { data: customerDeposits } = await api.get(`/admin/crypto/customers/${customer.id}/deposits`, auth)
        expect(customerDeposits.totals).toEqual([expect.objectContaining({ psys_cid: "LTC", confirmed: "0.35", pending: "0.5", count: 3 })])

        const { data } = await api.get(`/admin/crypto/exports/books?format=json&from=${utcDay(-1)}&to=${utcDay(2)}`, auth)
        const document = data as JsonExport
        const deposits = document.rows.filter((row) => row.kind === "deposit")
        expect(deposits.map((row) => [row.psys_cid, row.amount, row.counted, row.address, row.order_number])).toEqual([
          ["LTC", "0.1", "yes", hash, customer.id],
          ["LTC", "0.25", "yes", hash, customer.id],
          ["LTC", "0.5", "no", hash, customer.id],
        ])
        expect(totalOf(document.totals, "deposit", "LTC")).toBe(customerDeposits.totals[0].confirmed)
      })

      it("values a deposit at its callback's rate and a payment at its own, in the store currency; the totals equal the account and the journal balances", async () => {
        const container = getContainer()
        // A USD store: the sandbox's deposit callbacks carry USD rates (spec §6.2 source_currency).
        const { data: stores } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "store", fields: ["id"] })
        const usd = { supported_currencies: [{ currency_code: "usd", is_default: true }] }
        if (stores.length === 0) await createStoresWorkflow(container).run({ input: { stores: [{ name: "Books shop", ...usd }] } })
        else await updateStoresWorkflow(container).run({ input: { selector: { id: stores.map((store) => String(store.id)) }, update: usd } })
        const store = await createCryptoStore(container, { currency: "usd" })
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "ETH" })
        await gateway.control().pay(txnId, {})
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        const customer = await container.resolve<ICustomerModuleService>(Modules.CUSTOMER).createCustomers({ email: `buyer-${randomBytes(4).toString("hex")}@example.com` })
        const created = await api.post("/admin/crypto/deposits", { uid: customer.id, psys_cid: "LTC" }, auth)
        await gateway.control().payDeposit(String(created.data.deposits[0].hash), { amount: "0.3" })
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)

        const crypto = resolveCryptoModule(container)
        const invoices = await crypto.listCryptoInvoices({ cart_id: store.cartId })
        const { accounts } = await accountOfInvoices(crypto, invoices, {})
        const { data } = await api.get(`/admin/crypto/exports/books?format=json&from=${utcDay(-1)}&to=${utcDay(2)}`, auth)
        const document = data as JsonExport
        expect(totalOf(document.totals, "payment", "ETH")).toBe(accountSum(accounts, "received", "ETH"))
        expect(totalOf(document.totals, "deposit", "LTC")).toBe("0.3")
        const callbacks = await crypto.listCryptoCallbacks({ ipn_type: "pay_in" })
        const fields = callbacks[0].fields as Record<string, string>
        const deposit = document.rows.find((row) => row.kind === "deposit")
        expect(deposit).toMatchObject({ fiat_currency: "USD", rate: fields.source_rate, rate_source: "callback", fiat_value: new Decimal("0.3").times(fields.source_rate).toFixed(2) })
        expect(document.rows.find((row) => row.kind === "payment")).toMatchObject({ fiat_currency: "USD", rate_source: "callback", fiat_value: expect.stringMatching(/^\d+\.\d{2}$/) })

        // The journal: debits equal credits per currency.
        const journal = await api.get(`/admin/crypto/exports/books?format=journal&from=${utcDay(-1)}&to=${utcDay(2)}`, { ...auth, responseType: "text" })
        expect(journal.headers["content-disposition"]).toBe(`attachment; filename="crypto-journal-${utcDay(-1)}-${utcDay(2)}.csv"`)
        const lines = parse(String(journal.data), { columns: true }) as Row[]
        expect(Object.keys(lines[0])).toEqual(["date", "account", "debit", "credit", "currency", "reference"])
        const balance = new Map<string, Decimal>()
        for (const line of lines) balance.set(line.currency, (balance.get(line.currency) ?? new Decimal(0)).plus(line.debit || "0").minus(line.credit || "0"))
        expect([...balance.values()].every((sum) => sum.isZero())).toBe(true)
        expect(lines).toContainEqual(expect.objectContaining({ account: "Crypto:LTC", currency: "USD", debit: deposit?.fiat_value }))
      })

      it("values late money at the rate of the callback that brought it (rate_source callback), its open late_payment a memo row", async () => {
        const container = getContainer()
        // A EUR store: the invoice is priced in EUR, so the gateway's rates are in the store currency.
        const { data: stores } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "store", fields: ["id"] })
        const eur = { supported_currencies: [{ currency_code: "eur", is_default: true }] }
        if (stores.length === 0) await createStoresWorkflow(container).run({ input: { stores: [{ name: "Books shop", ...eur }] } })
        else await updateStoresWorkflow(container).run({ input: { selector: { id: stores.map((store) => String(store.id)) }, update: eur } })
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "LTC" })
        const control = gateway.control()
        // The invoice's time runs out with nothing paid (cancelled), then the shopper's wallet sends: late money.
        const open = await control.invoice(txnId)
        const { now_utc } = await control.advanceClock(0)
        await control.advanceClock(open.expire_utc - now_utc + 1)
        expect((await control.invoice(txnId)).status).toBe("cancelled")
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        const late = await control.pay(txnId, {})
        expect([late.status, late.received]).toEqual(["expired", open.invoice_total_sum])
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)

        const crypto = resolveCryptoModule(container)
        const items = await crypto.listCryptoAttentions({ kind: "late_payment" })
        expect(items).toEqual([expect.objectContaining({ amount: open.invoice_total_sum, psys_cid: "LTC", status: "open" })])
        // The callback that brought the money: the first of the invoice reporting an amount (the cancelled one reported none).
        const callbacks = (await crypto.listCryptoCallbacks({ ipn_type: "invoice", txn_id: txnId })).sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime())
        const reported = callbacks.map((callback) => callback.fields as Record<string, string>)
        expect(reported.map((fields) => [fields.status, fields.amount])).toEqual([
          ["cancelled", "0"],
          ["expired", open.invoice_total_sum],
        ])
        // The sandbox's rates are fixed by its seed: this callback's source_rate equals the invoice's rate at
        // creation, so `rate_source` is what shows the row took the callback's (docs/books.md#fiat-values).
        const bringing = reported[1]

        const { data } = await api.get(`/admin/crypto/exports/books?format=json&from=${utcDay(-1)}&to=${utcDay(2)}`, auth)
        const document = data as JsonExport
        const payment = document.rows.find((row) => row.kind === "payment" && row.reference === txnId)
        expect(payment).toMatchObject({
          amount: open.invoice_total_sum,
          status: "expired",
          fiat_currency: "EUR",
          rate: bringing.source_rate,
          rate_source: "callback",
          fiat_value: new Decimal(open.invoice_total_sum).times(bringing.source_rate).toFixed(2),
        })
        // Its open late_payment item is a memo row of the same coins (part of the payment row, not added to it).
        expect(document.rows.filter((row) => row.kind === "late_payment")).toEqual([expect.objectContaining({ direction: "memo", amount: open.invoice_total_sum, psys_cid: "LTC" })])
      })

      it("refuses a date that is not a calendar date, naming the field", async () => {
        const bad = await requestFailure(api.get("/admin/crypto/exports/books?format=csv&from=2026-02-30&to=2026-03-01", auth))
        expect(bad.status).toBe(400)
        expect(bad.message).toContain("from is not a calendar date")
        const shape = await requestFailure(api.get("/admin/crypto/exports/books?from=01.11.2026&to=2026-12-01", auth))
        expect(shape.status).toBe(400)
        expect(shape.message).toContain("from must be a date such as")
      })

      it("refuses a period whose end is not after its start, naming the field", async () => {
        const same = await requestFailure(api.get("/admin/crypto/exports/books?from=2026-11-01&to=2026-11-01", auth))
        expect(same.status).toBe(400)
        expect(same.message).toContain("to must be after from")
        const long = await requestFailure(api.get("/admin/crypto/exports/books?from=2024-01-01&to=2026-01-01", auth))
        expect(long.status).toBe(400)
        expect(long.message).toContain("to is more than 366 days after from")
      })

      it("refuses an unknown format, naming the field", async () => {
        const { status, message } = await requestFailure(api.get("/admin/crypto/exports/books?format=xlsx&from=2026-11-01&to=2026-12-01", auth))
        expect(status).toBe(400)
        expect(message).toContain("format")
      })
    })
  },
})
