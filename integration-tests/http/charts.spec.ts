// Charts on the Crypto admin page (docs/books.md): the received volume per coin and bucket with its
// value in the store's currency, the daily balance snapshot (idempotent per day, safe when two runs
// meet) and the balances chart that reads it, and the Needs-attention queue by kind and age. One app
// boot over the sandbox's white-label shop; every state is made through checkouts and the sandbox's
// control client.
import path from "node:path"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createCartWorkflow, createStoresWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosInstance } from "axios"
import { Decimal } from "decimal.js"
import { snapshotCryptoBalancesWorkflow, type SnapshotCryptoBalancesInput } from "../../src/workflows/snapshot-crypto-balances"
import {
  callbacksDeliveredAndProcessed,
  createCryptoStore,
  CRYPTO_PROVIDER_ID,
  requestFailure,
  startCryptoCheckout,
  useAdminAuth,
  useTestGateway,
  type CryptoStore,
} from "./helpers"

jest.setTimeout(240_000)

const gateway = useTestGateway({ whiteLabel: true })

/**
 * A store (one per test: the region takes country DE) whose every `next()` is a new cart of one
 * 10.50 EUR product in the same region and sales channel.
 */
async function storeWithCarts(container: MedusaContainer): Promise<{ next: () => Promise<CryptoStore> }> {
  const store = await createCryptoStore(container)
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "cart", fields: ["region_id", "sales_channel_id"], filters: { id: store.cartId } })
  let first = true
  return {
    next: async () => {
      if (first) {
        first = false
        return store
      }
      const { result: cart } = await createCartWorkflow(container).run({
        input: { region_id: data[0].region_id, sales_channel_id: data[0].sales_channel_id, email: "shopper@example.com", currency_code: "eur", items: [{ variant_id: store.variantId, quantity: 1 }] },
      })
      return { ...store, cartId: cart.id }
    },
  }
}

/** A new cart of `carts` paid in `coin` through the sandbox: all it asks, or `fraction` of it (1.1 overpays). */
async function paidCheckout(container: MedusaContainer, api: AxiosInstance, carts: { next: () => Promise<CryptoStore> }, coin: string, fraction = "1"): Promise<string> {
  const { txnId } = await startCryptoCheckout(api, await carts.next(), { psys_cid: coin })
  const invoice = await gateway.control().invoice(txnId)
  const amount = new Decimal(invoice.invoice_total_sum).times(fraction).toDecimalPlaces(invoice.precision, Decimal.ROUND_UP)
  await gateway.control().pay(txnId, { amount: amount.toFixed() })
  await callbacksDeliveredAndProcessed(gateway.sandbox, container)
  return txnId
}

interface InvoiceRow {
  psys_cid: string
  session_status: string
  source_currency: string
  source_amount: string
  expected_amount: string
  received_amount: string
  source_rate: string | null
  paid_at: string | null
  created_at: string
}

async function invoiceRows(container: MedusaContainer): Promise<InvoiceRow[]> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "crypto_invoice",
    fields: ["psys_cid", "session_status", "source_currency", "source_amount", "expected_amount", "received_amount", "source_rate", "paid_at", "created_at"],
  })
  return data as unknown as InvoiceRow[] // Query's rows of our own model, the fields asked for above.
}

/** The specification of an invoice's value (docs/books.md#received-volume), written out independently. */
function expectedValue(row: InvoiceRow): Decimal {
  const value = row.source_rate
    ? new Decimal(row.received_amount).times(row.source_rate)
    : new Decimal(row.received_amount).times(row.source_amount).dividedBy(row.expected_amount)
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
}

const dayOf = (row: InvoiceRow) => new Date(row.paid_at ?? row.created_at).toISOString().slice(0, 10)

type SnapshotRow = { id: string; provider_id: string; day: string; psys_cid: string; balance: string }

async function snapshotRows(container: MedusaContainer): Promise<SnapshotRow[]> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "crypto_balance_snapshot", fields: ["id", "provider_id", "day", "psys_cid", "balance"] })
  return data as unknown as SnapshotRow[] // Query's rows of our own model, the fields asked for above.
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    const auth = useAdminAuth(getContainer)

    describe("received volume", () => {
      it("answers the exact coins received per coin and day, and their value in the store's currency at each invoice's rate", async () => {
        const container = getContainer()
        await createStoresWorkflow(container).run({ input: { stores: [{ name: "Charts shop", supported_currencies: [{ currency_code: "eur", is_default: true }] }] } })
        const carts = await storeWithCarts(container)
        await paidCheckout(container, api, carts, "BTC")
        await paidCheckout(container, api, carts, "BTC", "1.1")
        await paidCheckout(container, api, carts, "ETH")
        // Started and never paid: not the store's money, not in the chart.
        await startCryptoCheckout(api, await carts.next(), { psys_cid: "BTC" })

        const rows = (await invoiceRows(container)).filter((row) => row.session_status === "captured")
        expect(rows.map((row) => row.psys_cid).sort()).toEqual(["BTC", "BTC", "ETH"])
        const { data } = await api.get("/admin/crypto/charts/volume?interval=day", auth)
        expect(data).toMatchObject({ interval: "day", fiat_currency: "EUR", provider_id: null })
        expect(data.buckets).toHaveLength(30)
        for (const coin of ["BTC", "ETH"]) {
          const mine = rows.filter((row) => row.psys_cid === coin)
          const series = data.series.find((s: { psys_cid: string }) => s.psys_cid === coin)
          // The days come from the rows (two when the payments straddle midnight UTC); every other day of the period is zero.
          const days = [...new Set(mine.map(dayOf))].sort()
          expect(series.points.filter((p: { invoices: number }) => p.invoices > 0)).toEqual(
            days.map((day) => {
              const paid = mine.filter((row) => dayOf(row) === day)
              return {
                bucket: day,
                received: paid.reduce((sum, row) => sum.plus(row.received_amount), new Decimal(0)).toFixed(),
                fiat_value: paid.reduce((sum, row) => sum.plus(expectedValue(row)), new Decimal(0)).toFixed(2),
                invoices: paid.length,
                unvalued: 0,
              }
            })
          )
        }
        // The gateway gave each invoice its rate (spec §2.1 `source_rate`): the coins received are
        // valued at it, commission the shopper paid on top included.
        const eth = data.series.find((s: { psys_cid: string }) => s.psys_cid === "ETH")
        const ethRow = rows.find((row) => row.psys_cid === "ETH")
        expect(ethRow?.source_rate).toMatch(/^\d+(\.\d+)?$/)
        expect(eth.fiat_value).toBe(new Decimal(ethRow?.received_amount ?? "").times(ethRow?.source_rate ?? "").toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2))

        // The same money and invoices in the weeks and the months that hold the days.
        for (const interval of ["week", "month"]) {
          const other = (await api.get(`/admin/crypto/charts/volume?interval=${interval}&provider_id=${CRYPTO_PROVIDER_ID}`, auth)).data
          const btc = other.series.find((s: { psys_cid: string }) => s.psys_cid === "BTC")
          expect(btc.received).toBe(data.series.find((s: { psys_cid: string }) => s.psys_cid === "BTC").received)
          expect(btc.points.reduce((sum: number, p: { invoices: number }) => sum + p.invoices, 0)).toBe(2)
        }

        // In another currency the EUR invoices are counted in coins, never converted.
        const usd = (await api.get("/admin/crypto/charts/volume?currency=usd", auth)).data
        expect(usd.fiat_currency).toBe("USD")
        expect(usd.series.find((s: { psys_cid: string }) => s.psys_cid === "ETH")).toMatchObject({ fiat_value: "0.00", received: eth.received })
      })

      it("refuses a bad interval, a bad date and a period too long for its interval, naming the field", async () => {
        const interval = await requestFailure(api.get("/admin/crypto/charts/volume?interval=year", auth))
        expect(interval.status).toBe(400)
        expect(interval.message).toContain("interval")
        const from = await requestFailure(api.get("/admin/crypto/charts/volume?from=yesterday", auth))
        expect(from.status).toBe(400)
        expect(from.message).toContain("from")
        // Not a calendar day: refused, not read as 2 March.
        expect((await requestFailure(api.get("/admin/crypto/charts/volume?to=2026-02-30", auth))).message).toContain("to must be an ISO 8601 UTC date")
        const long = await requestFailure(api.get("/admin/crypto/charts/volume?interval=day&from=2020-01-01&to=2026-01-01", auth))
        expect(long.status).toBe(400)
        expect(long.message).toContain("from..to spans more than")
        const unknown = await requestFailure(api.get("/admin/crypto/charts/volume?provider_id=pp_crypto_nope", auth))
        expect(unknown.status).toBe(404)
      })
    })

    describe("balance snapshots", () => {
      it("two runs at once and a third the same day leave one row per coin, holding the gateway's balance; the balances chart shows it", async () => {
        const container = getContainer()
        await paidCheckout(container, api, await storeWithCarts(container), "ETH")
        // Runs at a named moment: the rows' day is its UTC day, whenever the test runs.
        const day = "2025-11-01"
        const run = (input: SnapshotCryptoBalancesInput) => snapshotCryptoBalancesWorkflow(container).run({ input: { taken_at: `${day}T00:05:00Z`, ...input } })

        const [first, second] = await Promise.all([run({ provider_id: CRYPTO_PROVIDER_ID }), run({ provider_id: CRYPTO_PROVIDER_ID })])
        const created = [...first.result[0].created, ...second.result[0].created].sort()
        const rows = await snapshotRows(container)
        expect(rows.length).toBeGreaterThan(0)
        // Each coin stored by exactly one of the two runs; the other found it.
        expect(created).toEqual(rows.map((row) => row.psys_cid).sort())
        expect(new Set(rows.map((row) => `${row.provider_id}/${row.day}/${row.psys_cid}`)).size).toBe(rows.length)
        expect(rows.every((row) => row.day === day && row.provider_id === CRYPTO_PROVIDER_ID)).toBe(true)

        // Every provider, at another moment of the same day.
        const third = await run({ taken_at: `${day}T23:59:59.999Z` })
        expect(third.result.find((p) => p.provider_id === CRYPTO_PROVIDER_ID)).toMatchObject({ created: [], day })
        expect((await snapshotRows(container)).map((row) => row.id).sort()).toEqual(rows.map((row) => row.id).sort())
        // A workflow rejects with its step's error as a plain object, not an Error: hence toMatchObject.
        await expect(run({ taken_at: "2025-11-01 00:05" })).rejects.toMatchObject({ type: "invalid_data", message: expect.stringContaining("taken_at must be an ISO 8601 UTC date") })

        const eth = rows.find((row) => row.psys_cid === "ETH")
        expect(eth?.balance).toBe((await gateway.client().balances.retrieve("ETH")).balance.toFixed())
        expect(new Decimal(eth?.balance ?? "0").gt(0)).toBe(true)
        const { data } = await api.get(`/admin/crypto/charts/balances?from=${day}&to=${day}`, auth)
        expect(data).toMatchObject({ provider_id: CRYPTO_PROVIDER_ID, from: day, to: day, days: [day] })
        expect(data.series.find((s: { psys_cid: string }) => s.psys_cid === "ETH").points).toEqual([
          expect.objectContaining({ day, balance: eth?.balance }),
        ])
        expect((await requestFailure(api.get("/admin/crypto/charts/balances?from=2026-13-01", auth))).message).toContain("from")
      })

      it("the admin's Record today's balances runs the same workflow on the server's day, once per day", async () => {
        const container = getContainer()
        const today = () => new Date().toISOString().slice(0, 10)
        const before = today()
        const { snapshots } = (await api.post("/admin/crypto/charts/balances", {}, auth)).data
        const after = today()
        expect(snapshots).toEqual([expect.objectContaining({ provider_id: CRYPTO_PROVIDER_ID, error: null })])
        const [{ day, created }] = snapshots
        // The server read its clock once, between these two readings: its day is one of theirs.
        expect([before, after]).toContain(day)
        const rows = (await snapshotRows(container)).filter((row) => row.day === day)
        expect(rows.length).toBeGreaterThan(0)
        expect([...created].sort()).toEqual(rows.map((row) => row.psys_cid).sort())
        // The workflow run later on that day finds the rows: nothing new.
        const again = await snapshotCryptoBalancesWorkflow(container).run({ input: { taken_at: `${day}T23:59:59.999Z` } })
        expect(again.result.find((p) => p.provider_id === CRYPTO_PROVIDER_ID)).toMatchObject({ created: [], day })
        expect((await snapshotRows(container)).filter((row) => row.day === day).map((row) => row.id).sort()).toEqual(rows.map((row) => row.id).sort())
        expect((await api.get("/admin/crypto/charts/balances", auth)).data.days).toContain(day)
        expect((await requestFailure(api.post("/admin/crypto/charts/balances", { provider: "x" }, auth))).status).toBe(400)
      })
    })

    describe("needs attention", () => {
      it("counts the open items per kind and age, as many as the queue lists", async () => {
        const container = getContainer()
        const carts = await storeWithCarts(container)
        await paidCheckout(container, api, carts, "ETH", "1.1")
        await paidCheckout(container, api, carts, "BTC", "1.1")
        const queue = (await api.get("/admin/crypto/attention?limit=200", auth)).data
        expect(queue.count).toBeGreaterThanOrEqual(2)
        const { data } = await api.get("/admin/crypto/charts/attention", auth)
        expect(data).toMatchObject({ total: queue.count, truncated: false, ages: ["under_1_day", "1_to_7_days", "7_to_30_days", "over_30_days"] })
        const overpaid = data.kinds.find((row: { kind: string }) => row.kind === "overpaid")
        const listed = queue.items.filter((item: { kind: string }) => item.kind === "overpaid").length
        expect(listed).toBe(2)
        expect(overpaid).toEqual({ kind: "overpaid", total: listed, ages: { under_1_day: listed, "1_to_7_days": 0, "7_to_30_days": 0, over_30_days: 0 } })
        expect((await requestFailure(api.get("/admin/crypto/charts/attention?kind=overpaid", auth))).status).toBe(400)
      })
    })
  },
})
