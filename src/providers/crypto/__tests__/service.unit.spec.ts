import type { Logger } from "@medusajs/framework/types"
import { MedusaError, PaymentActions } from "@medusajs/framework/utils"
import { Decimal } from "decimal.js"
import { GatewayApiError, type Currency, type Invoice, type InvoiceCreateParams, type Operation } from "../../../gateway"
import type { ProviderDeps, ProviderGateway, ProviderStore } from "../deps"
import { PLAIN_REFUND_MESSAGE } from "../../../core/money-out/refund-authorization"
import { assessInvoiceChain, statusPolicy, STORED_READING_TTL_MS, storedReadingOf } from "../../../core/payment/invoice-chain"
import type { StatusPolicy } from "../../../core/payment/payment-state"
import { parseCryptoOptions } from "../../../core/config/options"
import type { ReservationRow, ReservationRows } from "../../../core/payment/invoice-reservation"
import type { CryptoTransaction } from "../../../modules/crypto/service"
import CryptoPaymentProviderService from "../service"

type Row = Record<string, unknown>

const API_KEY = "sk_test_provider_SECRET"
const PROVIDER_ID = "pp_crypto_crypto"
const options = { apiKey: API_KEY, baseUrl: "http://gateway.test", backendUrl: "https://api.shop.test", storefrontUrl: "https://shop.test" }

/**
 * Our module's tables in memory, with the calls the provider makes; the reservation runs the
 * module's own rules (src/core/payment/invoice-reservation.ts) on these rows and records the lock it takes.
 */
class MemoryStore {
  invoices: Row[] = []
  settings: Row[] = []
  callbacks: Row[] = []
  rateCaches: Row[] = []
  readonly locks: string[] = []
  private next = 1

  private rows(): ReservationRows {
    return {
      list: async (filters) => this.invoices.filter((row) => MemoryStore.matches(row, filters)) as unknown as ReservationRow[],
      create: async (data) => {
        const row = { id: `cinv_${this.next++}`, txn_id: null, superseded_by: null, ...data }
        this.invoices.push(row)
        return row
      },
      update: async (data) => Object.assign(this.invoices.find((candidate) => candidate.id === data.id) ?? {}, data),
      delete: async (id) => {
        this.invoices = this.invoices.filter((row) => row.id !== id)
      },
    }
  }

  private static matches(row: Row, filters: Row = {}): boolean {
    return Object.entries(filters).every(([key, value]) => key === "$or" || row[key] === value)
  }

  asStore(): ProviderStore {
    const store = {
      // The module's transaction: the reservation's rules (src/core/payment/invoice-reservation.ts) run on these rows.
      inCryptoTransaction: async <T>(work: (tx: CryptoTransaction) => Promise<T>) =>
        work({
          lockReservations: async (base: string) => {
            this.locks.push(base)
          },
          invoices: this.rows(),
        } as unknown as CryptoTransaction),
      listCryptoInvoices: async (filters: Row) => this.invoices.filter((row) => MemoryStore.matches(row, filters)),
      updateCryptoInvoices: async (data: Row) => {
        const row = this.invoices.find((candidate) => candidate.id === data.id)
        Object.assign(row ?? {}, data)
        return row
      },
      listCryptoCallbacks: async () => this.callbacks,
      listCryptoSettings: async (filters: Row) => this.settings.filter((row) => MemoryStore.matches(row, filters)),
      listCryptoRateCaches: async (filters: Row) => this.rateCaches.filter((row) => MemoryStore.matches(row, filters)),
      createCryptoRateCaches: async (data: Row) => {
        this.rateCaches.push({ id: `crc_${this.next++}`, ...data })
        return data
      },
      updateCryptoRateCaches: async (data: Row) => data,
    }
    // The generated MedusaService method types (overloads, shared context) are more than a fake needs.
    return store as unknown as ProviderStore
  }
}

/** The gateway's answers: invoices it creates, operations it reports, coins it lists. */
class ScriptedGateway implements ProviderGateway {
  readonly created: InvoiceCreateParams[] = []
  /** When set, the gateway answers invoice creation with this error instead. */
  refusal: Error | undefined
  readonly operationsById = new Map<string, Operation>()
  currenciesList: Currency[] = [{ cid: "BTC", currency: "BTC", fiat_rate: new Decimal("60000"), precision: "8" }]

  invoices = {
    create: async (params: InvoiceCreateParams): Promise<Invoice> => {
      if (this.refusal !== undefined) throw this.refusal
      this.created.push(params)
      return {
        txn_id: `INV-${this.created.length}`,
        invoice_url: `http://gateway.test/invoice/INV-${this.created.length}`,
        status: "new",
        psys_cid: params.currency ?? "BTC",
        currency: "BTC",
        amount: new Decimal("0.000175"),
        invoice_total_sum: new Decimal("0.000175"),
        wallet_hash: "bc1qaddress",
      }
    },
  }

  operations = {
    retrieve: async (id: string): Promise<Operation> => {
      const operation = this.operationsById.get(id)
      if (operation === undefined) throw new Error(`no operation ${id}`)
      return operation
    },
  }

  currencies = {
    list: async (): Promise<Currency[]> => this.currenciesList,
  }

  report(id: string, status: string, amounts: { amount?: string; sum?: string } = {}): void {
    this.operationsById.set(id, {
      id,
      type: "invoice",
      status,
      tx_url: [],
      ...(amounts.amount !== undefined ? { amount: new Decimal(amounts.amount) } : {}),
      ...(amounts.sum !== undefined ? { sum: new Decimal(amounts.sum) } : {}),
    })
  }
}

const silentLogger = (): Logger & { warnings: string[] } => {
  const warnings: string[] = []
  const logger = { warn: (message: string) => warnings.push(message), info: () => undefined, error: () => undefined, debug: () => undefined }
  // Only warn is called by the provider; the rest of Logger is irrelevant here.
  return Object.assign(logger as unknown as Logger, { warnings })
}

/** The cart behind the session's collection, as Query answers it: one mug. */
const CART = { id: "cart_1", email: "shopper@example.com", items: [{ title: "Crypto mug", quantity: 1, raw_quantity: { value: "1", precision: 20 } }] }

/** What Query holds for the session: its collection (a cart's by default, or an order's) and the store. */
interface Graph {
  collection: Row
  stores: Row[]
}

function setup(overrides: Partial<typeof options> & Row = {}) {
  const store = new MemoryStore()
  const gateway = new ScriptedGateway()
  const graph: Graph = { collection: { id: "paycol_1", cart: CART }, stores: [{ id: "store_1", name: "Acme Store" }] }
  const reads: string[] = []
  const deps: ProviderDeps = {
    query: {
      // The session, its collection and the cart or order behind it; the store.
      graph: async ({ entity, filters }) => {
        reads.push(entity)
        if (entity === "store") return { data: graph.stores }
        if (entity !== "payment_session") return { data: [] }
        return { data: [{ id: filters.id, provider_id: PROVIDER_ID, payment_collection_id: "paycol_1", payment_collection: graph.collection }] }
      },
    },
    cryptoModule: store.asStore(),
  }
  const logger = silentLogger()
  const provider = new CryptoPaymentProviderService({ logger }, { ...options, ...overrides }, { deps: () => deps, client: gateway })
  return { provider, store, gateway, locks: store.locks, logger, graph, reads }
}

const initiate = (provider: CryptoPaymentProviderService, amount: string | number = "10.5", data: Row = {}) =>
  provider.initiatePayment({ amount, currency_code: "usd", data: { session_id: "payses_1", ...data } })

describe("CryptoPaymentProviderService.initiatePayment", () => {
  it("creates a gateway invoice numbered after the cart, for the session amount in the currency's minor units, asking for the same invoice on retry", async () => {
    const { provider, gateway } = setup()
    await initiate(provider, "123456789.123456789012")
    expect(gateway.created).toEqual([
      expect.objectContaining({
        order_number: "cart_1",
        source_currency: "USD",
        source_amount: "123456789.12",
        return_existing: true,
        expire_min: 60,
        email: "shopper@example.com",
        callback_url: "https://api.shop.test/hooks/crypto/crypto?json=true",
        success_invoice_url: "https://shop.test/checkout/crypto/return?cart_id=cart_1",
      }),
    ])
  })

  it("reserves the order number under a lock on the cart before calling the gateway, and mirrors the invoice", async () => {
    const { provider, store, locks } = setup()
    await initiate(provider)
    expect(locks).toEqual(["cart_1"])
    expect(store.invoices).toEqual([
      expect.objectContaining({
        order_number: "cart_1",
        attempt: 1,
        cart_id: "cart_1",
        session_id: "payses_1",
        provider_id: PROVIDER_ID,
        txn_id: "INV-1",
        active_txn_id: "INV-1",
        expected_amount: "0.000175",
        gateway_status: "new",
      }),
    ])
  })

  it("answers a pending session whose data names the invoice and never carries the key", async () => {
    const { provider } = setup()
    const result = await initiate(provider)
    expect(result).toMatchObject({ id: "INV-1", status: "pending", data: { txn_id: "INV-1", order_number: "cart_1", provider_id: PROVIDER_ID, source_amount: "10.5" } })
    expect(JSON.stringify(result)).not.toContain(API_KEY)
  })

  it("adds the address and coin amount to the session data for a white-label shop", async () => {
    const { provider } = setup({ whiteLabel: true })
    const result = await initiate(provider)
    expect(result.data).toMatchObject({ wallet_hash: "bc1qaddress", amount: "0.000175", psys_cid: "BTC", commission_amount: null })
  })

  it("keeps the commission a shopper pays on a white-label invoice (invoice_total_sum − amount) in the session data, exactly", async () => {
    const { provider, gateway } = setup({ whiteLabel: true })
    const create = gateway.invoices.create
    gateway.invoices.create = async (params) => ({ ...(await create(params)), amount: new Decimal("1.11023351"), invoice_total_sum: new Decimal("1.12133585") })
    const result = await initiate(provider)
    expect(result.data).toMatchObject({ amount: "1.11023351", invoice_total_sum: "1.12133585", commission_amount: "0.01110234" })
  })

  it("keeps the invoice's rate (spec §2.1 source_rate, fiat per coin) in the white-label session data as the exact decimal string", async () => {
    const { provider, gateway } = setup({ whiteLabel: true })
    const create = gateway.invoices.create
    gateway.invoices.create = async (params) => ({ ...(await create(params)), source_currency: "EUR", source_rate: new Decimal("76.470412345678901234567") })
    const result = await initiate(provider)
    expect(result.data?.source_rate).toBe("76.470412345678901234567")
    expect(typeof result.data?.source_rate).toBe("string")
  })

  it("has a null rate in the session data when the gateway's answer gives none (the storefront shows no rate line)", async () => {
    const { provider } = setup({ whiteLabel: true })
    const result = await initiate(provider)
    expect(result.data).toMatchObject({ source_rate: null })
  })

  it("uses the invoice lifetime the merchant saved in the admin over the medusa-config option", async () => {
    const { provider, store, gateway } = setup()
    store.settings.push({ id: "cset_1", provider_id: PROVIDER_ID, invoice_lifetime_minutes: 15 })
    await initiate(provider)
    expect(gateway.created[0].expire_min).toBe(15)
  })

  it("refuses a coin the store does not accept, naming data.psys_cid", async () => {
    const { provider, gateway } = setup({ allowedCurrencies: ["BTC"] })
    await expect(initiate(provider, "10", { psys_cid: "ETH" })).rejects.toThrow('data.psys_cid "ETH" is not accepted by this store; choose one of BTC')
    expect(gateway.created).toEqual([])
  })

  it("refuses a coin the shop disabled at the gateway when no accepted-coin list is set, creating nothing", async () => {
    const { provider, gateway, store } = setup()
    gateway.currenciesList = [
      { cid: "BTC", currency: "BTC", fiat_rate: new Decimal("60000"), precision: "8", hidden: 0 },
      { cid: "TRX", currency: "TRX", fiat_rate: new Decimal("0.12"), precision: "6", hidden: 1 },
    ]
    await expect(initiate(provider, "10", { psys_cid: "TRX" })).rejects.toThrow('data.psys_cid "TRX" is not offered by this store')
    expect(gateway.created).toEqual([])
    expect(store.invoices).toEqual([])
  })

  it("refuses a coin the shop disabled at the gateway even when the accepted-coin list names it", async () => {
    const { provider, gateway } = setup({ allowedCurrencies: ["BTC", "TRX"] })
    gateway.currenciesList = [
      { cid: "BTC", currency: "BTC", fiat_rate: new Decimal("60000"), precision: "8", hidden: 0 },
      { cid: "TRX", currency: "TRX", fiat_rate: new Decimal("0.12"), precision: "6", hidden: 1 },
    ]
    await expect(initiate(provider, "10", { psys_cid: "TRX" })).rejects.toThrow('data.psys_cid "TRX" is not offered by this store')
    expect(gateway.created).toEqual([])
  })

  it("refuses a coin whose gateway minimum is above the cart total, naming the coin and its minimum in the coin and the fiat", async () => {
    const { provider, gateway, store } = setup()
    gateway.currenciesList = [{ cid: "BTC", currency: "BTC", fiat_rate: new Decimal("60000"), precision: "8", min_sum_in: new Decimal("0.0001") }]
    await expect(initiate(provider, "5.99", { psys_cid: "BTC" })).rejects.toThrow(
      `data.psys_cid "BTC": the cart total 5.99 USD is below the gateway's minimum of 0.0001 BTC (6 USD); choose another coin (see GET /store/crypto/currencies)`
    )
    expect(gateway.created).toEqual([])
    expect(store.invoices).toEqual([])
  })

  it("takes a coin whose minimum the cart total reaches exactly", async () => {
    const { provider, gateway } = setup()
    gateway.currenciesList = [{ cid: "BTC", currency: "BTC", fiat_rate: new Decimal("60000"), precision: "8", min_sum_in: new Decimal("0.0001") }]
    await initiate(provider, "6", { psys_cid: "BTC" })
    expect(gateway.created).toHaveLength(1)
  })

  it("names the invoice after the store and what is bought, with the items as its description, reading the session and the store at once", async () => {
    const { provider, gateway, reads } = setup()
    await initiate(provider)
    expect(gateway.created[0]).toMatchObject({ order_number: "cart_1", order_name: "Acme Store: 1 item", description: "Crypto mug × 1" })
    expect(reads.sort()).toEqual(["payment_session", "store"])
  })

  it("names the invoice of an order's collection (billed after checkout) after the order's display id, with the order's items and e-mail", async () => {
    const { provider, gateway, graph } = setup()
    const item = (title: string, quantity: number) => ({ title, quantity, raw_quantity: { value: String(quantity), precision: 20 } })
    graph.collection = { id: "paycol_1", cart: null, order: { id: "order_1", display_id: 12, email: "buyer@example.com", items: [item("Blue T-shirt", 2), item("Mug", 1)] } }
    await initiate(provider)
    expect(gateway.created[0]).toMatchObject({ order_number: "paycol_1", order_name: "Order #12 at Acme Store", description: "Blue T-shirt × 2, Mug × 1", email: "buyer@example.com" })
  })

  it("reads an order item's quantity from its detail, leaves out a line an order edit emptied, and names a line without a readable quantity alone", async () => {
    const { provider, gateway, graph } = setup()
    graph.collection = {
      id: "paycol_1",
      cart: null,
      order: {
        id: "order_1",
        display_id: 7,
        items: [
          { title: "Cap", detail: { quantity: 3, raw_quantity: { value: "3", precision: 20 } } },
          { title: "Scarf", detail: { quantity: 0, raw_quantity: { value: "0", precision: 20 } } },
          { title: "Sticker" },
        ],
      },
    }
    await initiate(provider)
    expect(gateway.created[0]).toMatchObject({ order_name: "Order #7 at Acme Store", description: "Cap × 3, Sticker" })
  })

  it("falls back to our order number when neither the store's name nor an item is known, sending no description", async () => {
    const { provider, gateway, graph } = setup()
    graph.stores = []
    graph.collection = { id: "paycol_1", cart: { ...CART, items: [] } }
    await initiate(provider)
    expect(gateway.created[0].order_name).toBe("Order cart_1")
    expect(gateway.created[0]).not.toHaveProperty("description")
  })

  it("refuses a coin under maintenance at the gateway that the shopper chose, naming the coin and data.psys_cid, creating nothing", async () => {
    const { provider, gateway, store } = setup()
    gateway.currenciesList = [
      { cid: "BTC", currency: "BTC", fiat_rate: new Decimal("60000"), precision: "8", maintenance: true },
      { cid: "LTC", currency: "LTC", fiat_rate: new Decimal("80"), precision: "8" },
    ]
    await expect(initiate(provider, "10", { psys_cid: "BTC" })).rejects.toThrow('data.psys_cid "BTC" is under maintenance at the gateway and takes no payment now; choose another coin')
    expect(gateway.created).toEqual([])
    expect(store.invoices).toEqual([])
  })

  it("skips the store's default coin while it is under maintenance: the gateway picks among the coins that can take the payment", async () => {
    const { provider, gateway } = setup({ defaultCurrency: "BTC" })
    gateway.currenciesList = [
      { cid: "BTC", currency: "BTC", fiat_rate: new Decimal("60000"), precision: "8", maintenance: true },
      { cid: "LTC", currency: "LTC", fiat_rate: new Decimal("80"), precision: "8" },
    ]
    await initiate(provider, "10")
    expect(gateway.created[0]).not.toHaveProperty("currency")
    expect(gateway.created[0].allowed_psys_cids).toEqual(["LTC"])
  })

  it("sends the shop's coins without the one whose minimum the cart total does not reach when the merchant accepts every coin", async () => {
    const { provider, gateway } = setup()
    gateway.currenciesList = [
      { cid: "BTC", currency: "BTC", fiat_rate: new Decimal("60000"), precision: "8", min_sum_in: new Decimal("0.0001") },
      { cid: "LTC", currency: "LTC", fiat_rate: new Decimal("80"), precision: "8", min_sum_in: new Decimal("0.01") },
    ]
    await initiate(provider, "5")
    expect(gateway.created[0].allowed_psys_cids).toEqual(["LTC"])
  })

  it("sends no accepted-coin list when the merchant accepts every coin and each can take the total", async () => {
    const { provider, gateway } = setup()
    await initiate(provider, "10")
    expect(gateway.created[0]).not.toHaveProperty("allowed_psys_cids")
  })

  it("leaves a coin under maintenance out of the merchant's accepted coins", async () => {
    const { provider, gateway } = setup({ allowedCurrencies: ["BTC", "LTC"] })
    gateway.currenciesList = [
      { cid: "BTC", currency: "BTC", fiat_rate: new Decimal("60000"), precision: "8" },
      { cid: "LTC", currency: "LTC", fiat_rate: new Decimal("80"), precision: "8", maintenance: true },
    ]
    await initiate(provider, "10")
    expect(gateway.created[0].allowed_psys_cids).toEqual(["BTC"])
  })

  it("refuses a checkout no coin can take, saying why, before anything is reserved or created", async () => {
    const { provider, gateway, store } = setup()
    gateway.currenciesList = [
      { cid: "BTC", currency: "BTC", fiat_rate: new Decimal("60000"), precision: "8", min_sum_in: new Decimal("0.0001") },
      { cid: "LTC", currency: "LTC", fiat_rate: new Decimal("80"), precision: "8", maintenance: true },
    ]
    await expect(initiate(provider, "5")).rejects.toThrow(
      "No coin can take this payment now: LTC is under maintenance at the gateway, and the cart total 5 USD is below the other coins' minimum (the lowest: 6 USD, for BTC)"
    )
    expect(gateway.created).toEqual([])
    expect(store.invoices).toEqual([])
  })

  it("removes its reservation when the gateway refuses the invoice (HTTP 4xx), so nothing is left to look pending", async () => {
    const { provider, gateway, store } = setup()
    gateway.refusal = GatewayApiError.from(422, { code: 103, message: "email: not a valid e-mail address", fieldErrors: { email: ["not a valid e-mail address"] } })
    await expect(initiate(provider)).rejects.toThrow(/email/)
    expect(store.invoices).toEqual([])
  })

  it("keeps its reservation when the gateway's answer is unknown (5xx), so a retry asks for the same invoice", async () => {
    const { provider, gateway, store } = setup()
    gateway.refusal = GatewayApiError.from(500, { code: 108, message: "internal server error" })
    await expect(initiate(provider)).rejects.toThrow()
    expect(store.invoices.map((row) => row.order_number)).toEqual(["cart_1"])
    gateway.refusal = undefined
    await initiate(provider)
    expect(gateway.created.map((params) => params.order_number)).toEqual(["cart_1"])
  })

  it.each([
    ["jpy", "1734", "1734"],
    ["jpy", "1734.5", "1735"],
    ["kwd", "13.845", "13.845"],
    ["kwd", "13.8455", "13.846"],
    ["eur", "25.0699", "25.07"],
    ["eur", "25.065", "25.07"],
    ["eur", "25.0649", "25.06"],
  ])("sends a %s total of %s to the gateway as %s (half-up to the currency's minor units)", async (currency, amount, sent) => {
    const { provider, gateway } = setup()
    const result = await provider.initiatePayment({ amount, currency_code: currency, data: { session_id: "payses_1" } })
    expect(gateway.created[0].source_amount).toBe(sent)
    expect(result.data).toMatchObject({ source_amount: sent, source_currency: currency.toUpperCase() })
  })

  it("keeps the invoice when Medusa updates the session with the same total (compared after rounding)", async () => {
    const { provider, gateway } = setup()
    const created = await provider.initiatePayment({ amount: "25.0699", currency_code: "eur", data: { session_id: "payses_1" } })
    gateway.report("INV-1", "new")
    await provider.updatePayment({ amount: "25.0699", currency_code: "eur", data: created.data })
    expect(gateway.created).toHaveLength(1)
  })

  it("refuses a session without data.session_id", async () => {
    const { provider } = setup()
    await expect(provider.initiatePayment({ amount: "10", currency_code: "usd", data: {} })).rejects.toThrow(/data\.session_id is missing/)
  })

  it("refuses a zero amount before anything is created", async () => {
    const { provider, store } = setup()
    await expect(initiate(provider, 0)).rejects.toThrow("amount must be a positive amount, got 0")
    expect(store.invoices).toEqual([])
  })
})

describe("CryptoPaymentProviderService.authorizePayment", () => {
  it("captures a session whose invoice the gateway reports completed, with the received amount", async () => {
    const { provider, gateway } = setup()
    gateway.report("INV-1", "completed", { amount: "0.000175", sum: "0.000175" })
    const result = await provider.authorizePayment({ data: { txn_id: "INV-1", provider_id: PROVIDER_ID } })
    expect(result).toEqual({
      status: "captured",
      data: expect.objectContaining({ status: "completed", active_txn_id: "INV-1", received_amount: "0.000175", overpaid_amount: null, refund_due_amount: null }),
    })
  })

  it("authorizes on detection: a pending invoice gives pending_authorization", async () => {
    const { provider, gateway } = setup()
    gateway.report("INV-1", "pending")
    expect((await provider.authorizePayment({ data: { txn_id: "INV-1" } })).status).toBe("pending_authorization")
  })

  it("keeps a pending invoice pending when the merchant turned order-on-detection off in the admin", async () => {
    const { provider, gateway, store } = setup()
    store.settings.push({ id: "cset_1", provider_id: PROVIDER_ID, order_on_detection: false })
    gateway.report("INV-1", "pending")
    expect((await provider.authorizePayment({ data: { txn_id: "INV-1", provider_id: PROVIDER_ID } })).status).toBe("pending")
  })

  it("records an overpayment on a mismatch", async () => {
    const { provider, gateway } = setup()
    gateway.report("INV-1", "mismatch", { amount: "0.0002", sum: "0.000175" })
    const result = await provider.authorizePayment({ data: { txn_id: "INV-1" } })
    expect(result).toMatchObject({ status: "captured", data: { overpaid_amount: "0.000025" } })
  })

  it("answers error for a session that names no invoice", async () => {
    const { provider } = setup()
    expect(await provider.authorizePayment({ data: {} })).toEqual({ status: "error", data: {} })
  })

  it("translates a gateway failure into a MedusaError naming the action", async () => {
    const { provider } = setup()
    await expect(provider.authorizePayment({ data: { txn_id: "INV-404" } })).rejects.toThrow(/^Checking the crypto invoice/)
  })
})

describe("CryptoPaymentProviderService during a callback's sync", () => {
  // The clock stands still here: a reading stored `ageMs` ago is exactly that old when the provider
  // weighs it against STORED_READING_TTL_MS, however long a loaded machine takes in between.
  let clock: jest.SpyInstance<number, []>
  beforeEach(() => {
    const now = Date.now()
    clock = jest.spyOn(Date, "now").mockReturnValue(now)
  })
  afterEach(() => clock.mockRestore())

  /** What the sync's assess step leaves on the invoice row: its gateway reading, made `ageMs` ago under `policy`. */
  async function storeReading(setupResult: ReturnType<typeof setup>, policy: StatusPolicy, ageMs: number): Promise<void> {
    const { store, gateway } = setupResult
    const assessment = await assessInvoiceChain(gateway, undefined, { txn_id: "INV-1", order_number: undefined }, policy)
    store.invoices.push({
      id: "cinv_1",
      txn_id: "INV-1",
      order_number: "cart_1",
      gateway_reading: JSON.parse(JSON.stringify(storedReadingOf("INV-1", assessment, policy, new Date(Date.now() - ageMs)))),
    })
  }

  function countReads(gateway: ReturnType<typeof setup>["gateway"]): string[] {
    const reads: string[] = []
    const retrieve = gateway.operations.retrieve
    gateway.operations.retrieve = async (id: string) => {
      reads.push(id)
      return retrieve(id)
    }
    return reads
  }

  const policyOfOptions = (): StatusPolicy => statusPolicy(parseCryptoOptions(options), { psys_cid: null, source_amount: null, source_currency: null })
  const session = { txn_id: "INV-1", provider_id: PROVIDER_ID }

  it("authorize and capture take the reading the sync stored on the invoice row, asking the gateway nothing more", async () => {
    const context = setup()
    context.gateway.report("INV-1", "completed", { amount: "0.000175", sum: "0.000175" })
    await storeReading(context, policyOfOptions(), 1_000)
    const reads = countReads(context.gateway)

    const authorized = await context.provider.authorizePayment({ data: session })
    expect(authorized).toEqual({ status: "captured", data: expect.objectContaining({ status: "completed", received_amount: "0.000175" }) })
    await expect(context.provider.capturePayment({ data: session })).resolves.toEqual({ data: expect.objectContaining({ status: "completed" }) })
    expect(reads).toEqual([])
  })

  it("reads the gateway when the stored reading is older than STORED_READING_TTL_MS", async () => {
    const context = setup()
    context.gateway.report("INV-1", "pending")
    await storeReading(context, policyOfOptions(), STORED_READING_TTL_MS + 1_000)
    // The invoice completed since that reading: the gateway's answer, not the old one, decides.
    context.gateway.report("INV-1", "completed", { amount: "0.000175", sum: "0.000175" })
    const reads = countReads(context.gateway)
    expect((await context.provider.authorizePayment({ data: session })).status).toBe("captured")
    expect(reads).toEqual(["INV-1"])
  })

  it("reads the gateway when the merchant's settings give another status policy than the stored reading's", async () => {
    const context = setup()
    context.store.settings.push({ id: "cset_1", provider_id: PROVIDER_ID, order_on_detection: false })
    context.gateway.report("INV-1", "pending")
    await storeReading(context, policyOfOptions(), 1_000)
    const reads = countReads(context.gateway)
    expect((await context.provider.authorizePayment({ data: session })).status).toBe("pending")
    expect(reads).toEqual(["INV-1"])
  })

  it("reads the gateway when the tolerance changed since the stored reading", async () => {
    const context = setup()
    context.store.settings.push({ id: "cset_1", provider_id: PROVIDER_ID, underpaid_tolerance_percent: "5" })
    context.gateway.report("INV-1", "expired", { amount: "0.97", sum: "1" })
    await storeReading(context, policyOfOptions(), 1_000)
    const reads = countReads(context.gateway)
    expect((await context.provider.authorizePayment({ data: session })).status).toBe("captured")
    expect(reads).toEqual(["INV-1"])
  })

  describe("under the order rules (docs/books.md#order-rules): the policy of the coin the stored reading names", () => {
    const ltcOnDetection = (context: ReturnType<typeof setup>) =>
      context.store.settings.push({
        id: "cset_1",
        provider_id: PROVIDER_ID,
        order_on_detection: false,
        order_rules: { rules: [{ coins: ["LTC"], below: null, place: "on_detection" }] },
      })
    const nameCoin = (context: ReturnType<typeof setup>, psysCid: string) => {
      const row = context.store.invoices.find((invoice) => invoice.id === "cinv_1")
      Object.assign(row?.gateway_reading as Row, { psys_cid: psysCid, currency: psysCid })
    }
    const onDetection = (): StatusPolicy => ({ ...policyOfOptions(), orderOnDetection: true })

    it("takes the reading the sync mapped on detection for a coin the rules place on detection", async () => {
      const context = setup()
      ltcOnDetection(context)
      context.gateway.report("INV-1", "pending")
      await storeReading(context, onDetection(), 1_000)
      nameCoin(context, "LTC")
      const reads = countReads(context.gateway)
      expect((await context.provider.authorizePayment({ data: session })).status).toBe("pending_authorization")
      expect(reads).toEqual([])
    })

    it("reads the gateway when the reading's coin is one the rules do not place on detection", async () => {
      const context = setup()
      ltcOnDetection(context)
      context.gateway.report("INV-1", "pending")
      await storeReading(context, onDetection(), 1_000)
      nameCoin(context, "BTC")
      const reads = countReads(context.gateway)
      expect((await context.provider.authorizePayment({ data: session })).status).toBe("pending")
      expect(reads).toEqual(["INV-1"])
    })
  })

  it("the status Medusa asks for outside a sync always comes from the gateway", async () => {
    const context = setup()
    context.gateway.report("INV-1", "pending")
    await storeReading(context, policyOfOptions(), 1_000)
    context.gateway.report("INV-1", "completed", { amount: "1", sum: "1" })
    const reads = countReads(context.gateway)
    expect((await context.provider.getPaymentStatus({ data: session })).status).toBe("captured")
    expect(reads).toEqual(["INV-1"])
  })
})

describe("CryptoPaymentProviderService.capturePayment", () => {
  it("refuses to capture an invoice the gateway does not report paid", async () => {
    const { provider, gateway } = setup()
    gateway.report("INV-1", "pending")
    const capture = provider.capturePayment({ data: { txn_id: "INV-1" } })
    await expect(capture).rejects.toMatchObject({
      type: MedusaError.Types.NOT_ALLOWED,
      message: "The crypto invoice INV-1 is not paid (gateway status: pending); it cannot be captured",
    })
  })

  it("refuses to capture a session without an invoice", async () => {
    const { provider } = setup()
    await expect(provider.capturePayment({ data: {} })).rejects.toThrow("The crypto invoice (unknown) is not paid (gateway status: unknown); it cannot be captured")
  })

  it("captures a completed invoice", async () => {
    const { provider, gateway } = setup()
    gateway.report("INV-1", "completed", { amount: "1", sum: "1" })
    expect(await provider.capturePayment({ data: { txn_id: "INV-1" } })).toEqual({ data: expect.objectContaining({ status: "completed", received_amount: "1" }) })
  })
})

describe("CryptoPaymentProviderService.refundPayment", () => {
  const authorization = { withdrawal_id: "cwdr_1", amount: "4.25", psys_cid: "BTC", coin_amount: "0.0001", rate: "42500", address: "bc1q", tx_urls: [] }

  it("records a refund the admin's crypto refund authorized for exactly that amount", async () => {
    const { provider } = setup()
    const result = await provider.refundPayment({ amount: "4.250", data: { txn_id: "INV-1", crypto_refund_authorization: authorization }, context: { idempotency_key: "ref_1" } })
    expect(result).toEqual({ data: { txn_id: "INV-1", crypto_refunds: [{ ...authorization, refund_id: "ref_1" }] } })
  })

  it("refuses Medusa's plain refund button with the way to refund in crypto", async () => {
    const { provider } = setup()
    await expect(provider.refundPayment({ amount: "4.25", data: { txn_id: "INV-1" } })).rejects.toMatchObject({ type: MedusaError.Types.NOT_ALLOWED, message: PLAIN_REFUND_MESSAGE })
  })

  it("refuses a refund of another amount than the authorized one", async () => {
    const { provider } = setup()
    await expect(provider.refundPayment({ amount: "5", data: { crypto_refund_authorization: authorization } })).rejects.toThrow(PLAIN_REFUND_MESSAGE)
  })
})

describe("CryptoPaymentProviderService.updatePayment", () => {
  it("refreshes the status from the gateway when the amount is unchanged, creating nothing", async () => {
    const { provider, gateway } = setup()
    const created = await initiate(provider, "10.5")
    gateway.report("INV-1", "pending")
    const updated = await provider.updatePayment({ amount: "10.50", currency_code: "usd", data: created.data })
    expect(updated.status).toBe("pending_authorization")
    expect(gateway.created).toHaveLength(1)
  })

  it("creates a new invoice with the next order number when the amount changed", async () => {
    const { provider, gateway } = setup()
    const created = await initiate(provider, "10.5")
    const updated = await provider.updatePayment({ amount: "12", currency_code: "usd", data: created.data })
    expect(gateway.created.map((params) => [params.order_number, params.source_amount])).toEqual([
      ["cart_1", "10.5"],
      ["cart_1-2", "12"],
    ])
    expect(updated).toMatchObject({ status: "pending", data: { txn_id: "INV-2", order_number: "cart_1-2" } })
  })

  it("leaves the session on one invoice row when the amount changed: the old invoice is superseded by the new one", async () => {
    const { provider, store } = setup()
    const created = await initiate(provider, "10.5")
    await provider.updatePayment({ amount: "12", currency_code: "usd", data: created.data })
    const paying = store.invoices.filter((row) => row.session_id === "payses_1" && (row.superseded_by ?? null) === null)
    expect(paying.map((row) => row.order_number)).toEqual(["cart_1-2"])
    const old = store.invoices.find((row) => row.order_number === "cart_1")
    expect(old?.superseded_by).toBe(paying[0].id)
  })

  it("takes an invoice back when the amount returns to its amount, superseding the other", async () => {
    const { provider, store } = setup()
    const first = await initiate(provider, "10.5")
    const second = await provider.updatePayment({ amount: "12", currency_code: "usd", data: first.data })
    await provider.updatePayment({ amount: "10.5", currency_code: "usd", data: second.data })
    const paying = store.invoices.filter((row) => row.session_id === "payses_1" && (row.superseded_by ?? null) === null)
    expect(paying.map((row) => row.order_number)).toEqual(["cart_1"])
  })
})

describe("CryptoPaymentProviderService, the rest", () => {
  it("releases a canceled session (the gateway has no cancel call)", async () => {
    const { provider } = setup()
    expect(await provider.cancelPayment({ data: { txn_id: "INV-1" } })).toEqual({ data: { txn_id: "INV-1", released: true } })
  })

  it("answers not_supported to Medusa's built-in webhook route and logs the right URL", async () => {
    const { provider, logger } = setup()
    expect(await provider.getWebhookActionAndData({ data: {}, rawData: "", headers: {} })).toEqual({ action: PaymentActions.NOT_SUPPORTED })
    expect(logger.warnings.at(-1)).toContain("/hooks/crypto/<provider id>?json=true")
  })

  it("warns once at construction when backendUrl is missing", () => {
    const { logger } = setup({ backendUrl: undefined })
    expect(logger.warnings).toEqual([expect.stringContaining("backendUrl is not set")])
  })

  it("every provider built in a server instance without a shared locking provider warns, whatever was built before in the process", () => {
    const configModule = { projectConfig: { workerMode: "server" }, modules: {} }
    const first = silentLogger()
    const second = silentLogger()
    const seam = { client: new ScriptedGateway() }
    new CryptoPaymentProviderService({ logger: first, configModule }, options, { client: seam.client })
    new CryptoPaymentProviderService({ logger: second, configModule }, options, { client: seam.client })
    expect(first.warnings).toEqual([expect.stringContaining("locking")])
    expect(second.warnings).toEqual([expect.stringContaining("locking")])
  })
})
