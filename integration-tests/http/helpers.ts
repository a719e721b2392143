// The set-up the HTTP test files share: the gateway sandbox the test app talks to, a store that takes
// crypto, and a storefront's crypto checkout. Each file still boots one Medusa app
// (medusaIntegrationTestRunner); these helpers only create data in it and call it as a storefront would.
import { createServer } from "node:net"
import { randomBytes } from "node:crypto"
import type { IAuthModuleService, IUserModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, generateJwtToken, Modules } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createCartWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
} from "@medusajs/medusa/core-flows"
import { isAxiosError, type AxiosInstance } from "axios"
import { Decimal } from "decimal.js"
import { GatewayClient } from "../../src/gateway"
import { CRYPTO_MODULE } from "../../src/modules/crypto"
import type CryptoModuleService from "../../src/modules/crypto/service"
import { startSandbox, type PayOptions, type RunningSandbox, type SandboxControl, type SandboxShop, type Seed } from "../../src/sandbox"

/** Our provider as the test app registers it (integration-tests/app/medusa-config.ts, id "crypto"). */
export const CRYPTO_PROVIDER_ID = "pp_crypto_crypto"

/** A port nothing listens on now, for the test app: the sandbox must know it before the app boots. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "localhost", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })
}

/** How long the sandbox's `pending internal` lasts in HTTP tests (ETH, USDT_ETH, USDT_TRX), in real seconds. */
export const INTERNAL_TRANSFER_SECONDS = 2

export interface TestSandboxOptions {
  /** The seeded shop whose key the app uses: the white-label one, or one without white-label. */
  whiteLabel: boolean
  /** More variables the test app reads when it boots (timeouts of the provider and the admin routes). */
  env?: Record<string, string>
  /**
   * The gateway the sandbox plays, in its seed format (default: the bundled seed, `defaultSeed()`).
   * A function is given the test app's URL first, for a seed whose shops call the app back.
   */
  seed?: Seed | ((appUrl: string) => Seed)
  /** How long `pending internal` lasts, in real seconds (default INTERNAL_TRANSFER_SECONDS). */
  internalTransferSeconds?: number
  /** Also gives the app the seeded plain shop `shop_plain_demo`, for its second provider entry (integration-tests/app). */
  plainShop?: boolean
  /** Points the shop's Status URL at the app's callback route, as a merchant does in the shop settings: deposit callbacks (spec §6.2) go there. */
  statusUrlToApp?: boolean
}

export interface TestSandbox {
  sandbox: RunningSandbox
  shop: SandboxShop
  /** The seeded plain shop, when `plainShop` asked for it. */
  plainShop?: SandboxShop
  /** Stops the sandbox and gives the process back the environment it had before the start. */
  stop: () => Promise<void>
}

/** The plugin's callback route in the test app at `appUrl` (the URL the provider gives the gateway, JSON callbacks). */
export function callbackRouteOf(appUrl: string): string {
  return `${appUrl}/hooks/crypto/crypto?json=true`
}

/**
 * Starts the gateway sandbox on a free port and sets the environment the test app's medusa-config reads
 * when the app boots: call it in a `beforeAll` declared before `medusaIntegrationTestRunner`, whose own
 * `beforeAll` boots the app. The app listens on PORT (test-utils honours it), so the provider builds a
 * callback URL the sandbox reaches.
 */
export async function startTestSandbox(options: TestSandboxOptions): Promise<TestSandbox> {
  const savedEnv = { ...process.env }
  // A seed that calls the app back needs the app's port before the sandbox starts; otherwise the port
  // is taken once the sandbox listens, so the two cannot be given the same one.
  const earlyPort = typeof options.seed === "function" ? await freePort() : undefined
  const seed = typeof options.seed === "function" ? options.seed(`http://localhost:${earlyPort}`) : options.seed
  // `pending internal` lasts a real INTERNAL_TRANSFER_SECONDS; the sandbox's ticker (every second)
  // ends it and sends the callback without any request (src/sandbox/README.md, "Life cycle").
  const sandbox = await startSandbox({ port: 0, internalTransferSeconds: options.internalTransferSeconds ?? INTERNAL_TRANSFER_SECONDS, seed })
  const shop = sandbox.shops.find((candidate) => candidate.whiteLabel === options.whiteLabel)
  const plainShop = options.plainShop === true ? sandbox.shops.find((candidate) => !candidate.whiteLabel && candidate.id === "shop_plain_demo") : undefined
  if (shop === undefined || (options.plainShop === true && plainShop === undefined)) {
    await sandbox.close()
    throw new Error(`the sandbox seed has no ${shop === undefined ? (options.whiteLabel ? "white-label shop" : "shop without white-label") : "shop_plain_demo"}`)
  }
  const port = earlyPort ?? (await freePort())
  Object.assign(process.env, {
    PORT: String(port),
    MPC_TEST_BACKEND_URL: `http://localhost:${port}`,
    MPC_TEST_GATEWAY_URL: sandbox.url,
    MPC_TEST_GATEWAY_API_KEY: shop.secretKey,
    ...options.env,
    // Read by integration-tests/app/medusa-config.ts for the app's second provider entry.
    ...(plainShop === undefined ? {} : { MPC_TEST_PLAIN_GATEWAY_API_KEY: plainShop.secretKey }),
  })
  const stop = async () => {
    await sandbox.close()
    process.env = savedEnv
  }
  if (options.statusUrlToApp === true) {
    try {
      await controlOf(sandbox, shop).shopSettings({ statusUrl: callbackRouteOf(`http://localhost:${port}`) })
    } catch (error) {
      await stop()
      throw error
    }
  }
  return { sandbox, shop, plainShop, stop }
}

/**
 * The gateway a spec file's tests run against (the sandbox, started by `useTestGateway`) and the
 * test app once the runner hands it over. Every getter and call throws a clear error before then.
 */
export interface TestGateway {
  /** The running sandbox. */
  readonly sandbox: RunningSandbox
  /** The seeded shop whose key the app uses. */
  readonly shop: SandboxShop
  /** The seeded plain shop the app's second provider entry uses (only with `plainShop: true`). */
  readonly plainShop: SandboxShop
  /** The sandbox's control client acting as the shop. */
  control(): SandboxControl
  /** The gateway client (the plugin's own) of `shop` (default: the app's shop), one per shop for the file. */
  client(shop?: SandboxShop): GatewayClient
  /** Binds the test app: call it with the runner's `getContainer` in `testSuite`. */
  bindApp(getContainer: () => MedusaContainer): void
  /** The test app's container (after `bindApp`). */
  container(): MedusaContainer
  /** The sandbox has delivered every callback it queued and the app has processed them (callbacksDeliveredAndProcessed). */
  delivered(): Promise<void>
  /** The shopper pays the invoice (in full unless `options` say otherwise) and the sandbox delivers its callbacks. */
  payAndDeliver(txnId: string, options?: PayOptions): Promise<void>
  /** What is due on an invoice, to how many decimals its coin goes and the coin, as the sandbox's control API shows it. */
  dueAt(txnId: string): Promise<{ total: Decimal; precision: number; psysCid: string }>
}

/**
 * Starts the gateway sandbox before the file's test app boots and stops it after the file: call it
 * at the top level, before `medusaIntegrationTestRunner`, so that its `beforeAll` (which sets the
 * environment the app boots with) runs before the runner's own.
 */
export function useTestGateway(options: TestSandboxOptions): TestGateway {
  let started: TestSandbox | undefined
  let appContainer: (() => MedusaContainer) | undefined
  const clients = new Map<string, GatewayClient>()
  beforeAll(async () => {
    started = await startTestSandbox(options)
  })
  afterAll(() => started?.stop())
  const running = (): TestSandbox => {
    if (started === undefined) throw new Error("the gateway sandbox is not running (useTestGateway starts it in beforeAll)")
    return started
  }
  const gateway: TestGateway = {
    get sandbox() {
      return running().sandbox
    },
    get shop() {
      return running().shop
    },
    get plainShop() {
      const { plainShop } = running()
      if (plainShop === undefined) throw new Error("no plain shop: start the gateway with plainShop: true")
      return plainShop
    },
    control: () => controlOf(gateway.sandbox, gateway.shop),
    client: (shop = gateway.shop) => {
      const known = clients.get(shop.id)
      if (known !== undefined) return known
      const client = new GatewayClient({ baseUrl: gateway.sandbox.url, apiKey: shop.secretKey })
      clients.set(shop.id, client)
      return client
    },
    bindApp: (getContainer) => {
      appContainer = getContainer
    },
    container: () => {
      if (appContainer === undefined) throw new Error("the test app is not running (bind it with bindApp(getContainer))")
      return appContainer()
    },
    delivered: () => callbacksDeliveredAndProcessed(gateway.sandbox, gateway.container()),
    payAndDeliver: async (txnId, payOptions = {}) => {
      await gateway.control().pay(txnId, payOptions)
      await gateway.delivered()
    },
    dueAt: async (txnId) => {
      const invoice = await gateway.control().invoice(txnId)
      return { total: new Decimal(invoice.invoice_total_sum), precision: invoice.precision, psysCid: invoice.psys_cid }
    },
  }
  return gateway
}

/** The sandbox's typed control client (src/sandbox/README.md, "Control API") acting as `shop`. */
export function controlOf(sandbox: RunningSandbox, shop: SandboxShop): SandboxControl {
  return sandbox.control.as(shop.secretKey)
}

/** A store as a storefront sees it: its publishable key, the one product's variant and a cart holding it. */
export interface CryptoStore {
  cartId: string
  publishableKey: string
  variantId: string
}

/** What createCryptoStore makes; without options, a 10.50 EUR product in a region of country DE. */
export interface CryptoStoreOptions {
  /** The region's and the cart's currency (default eur). */
  currency?: string
  /** The product's price in major units, exactly as Medusa stores it (default 10.50). */
  price?: number | string
  /** The cart's e-mail (default shopper@example.com). */
  email?: string
  /**
   * A region without a country and a product titled after its sales channel, so that any number of
   * stores share one test database: a country belongs to one region, a product's handle comes from
   * its title. Without it the region takes country DE (one such store per test).
   */
  manyPerDatabase?: boolean
}

/**
 * A sales channel with a publishable key, a region in the currency that takes crypto, a product and a
 * cart with one of it. Every call makes a new store, so tests do not share carts.
 */
export async function createCryptoStore(container: MedusaContainer, options: CryptoStoreOptions = {}): Promise<CryptoStore> {
  const currency = options.currency ?? "eur"
  const many = options.manyPerDatabase === true
  const {
    result: [channel],
  } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Web" }] } })
  const {
    result: [key],
  } = await createApiKeysWorkflow(container).run({ input: { api_keys: [{ title: "Storefront", type: "publishable", created_by: "test" }] } })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [channel.id] } })
  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: { regions: [{ name: many ? `Region ${currency}` : "Europe", currency_code: currency, countries: many ? [] : ["de"], payment_providers: [CRYPTO_PROVIDER_ID] }] },
  })
  const {
    result: [product],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: many ? `Crypto mug ${channel.id}` : "Crypto mug",
          status: "published",
          options: [{ title: "Size", values: ["One"] }],
          variants: [{ title: "One", options: { Size: "One" }, manage_inventory: false, prices: [{ amount: options.price ?? 10.5, currency_code: currency }] }],
          sales_channels: [{ id: channel.id }],
        },
      ],
    },
  })
  const { result: cart } = await createCartWorkflow(container).run({
    input: {
      region_id: region.id,
      sales_channel_id: channel.id,
      email: options.email ?? "shopper@example.com",
      currency_code: currency,
      items: [{ variant_id: product.variants[0].id, quantity: 1 }],
    },
  })
  return { cartId: cart.id, publishableKey: key.token, variantId: product.variants[0].id }
}

/** The headers of a storefront's requests to the store API. */
export function storefrontHeaders(store: CryptoStore): { "x-publishable-api-key": string } {
  return { "x-publishable-api-key": store.publishableKey }
}

/** A crypto payment session as the store API answers it; `txnId` is the gateway invoice's id from its data. */
export interface CryptoSession {
  sessionId: string
  txnId: string
  data: Record<string, unknown>
}

/** The cart's payment collection, as a storefront creates it: its id. */
export async function createPaymentCollection(api: AxiosInstance, store: CryptoStore): Promise<string> {
  const { data } = await api.post("/store/payment-collections", { cart_id: store.cartId }, { headers: storefrontHeaders(store) })
  return String(data.payment_collection.id)
}

/** A crypto payment session in the collection; `sessionData` is what a storefront sends (e.g. `psys_cid`). */
export async function createCryptoSession(
  api: AxiosInstance,
  store: CryptoStore,
  collectionId: string,
  sessionData?: Record<string, unknown>
): Promise<CryptoSession> {
  const { data } = await api.post(
    `/store/payment-collections/${collectionId}/payment-sessions`,
    { provider_id: CRYPTO_PROVIDER_ID, ...(sessionData === undefined ? {} : { data: sessionData }) },
    { headers: storefrontHeaders(store) }
  )
  const [created] = data.payment_collection.payment_sessions
  return { sessionId: String(created.id), txnId: String(created.data.txn_id), data: created.data }
}

/** As a storefront starts a crypto checkout: the payment collection, then a crypto session (the invoice). */
export async function startCryptoCheckout(api: AxiosInstance, store: CryptoStore, sessionData?: Record<string, unknown>): Promise<CryptoSession> {
  return createCryptoSession(api, store, await createPaymentCollection(api, store), sessionData)
}

/** The orders placed from a cart (Medusa's order ↔ cart link). */
export async function orderIdsForCart(container: MedusaContainer, cartId: string): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  return data.map((row) => String(row.order_id))
}

/** The HTTP status and message of a request Medusa refused; a request that succeeds fails the test. */
export async function requestFailure(request: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await request
  } catch (error) {
    if (isAxiosError<{ message?: string }>(error) && error.response !== undefined) {
      return { status: error.response.status, message: String(error.response.data?.message ?? "") }
    }
    throw error
  }
  throw new Error("the request succeeded")
}

/**
 * Polls `check` until it stops throwing, at most `timeoutMs`; then its last failure fails the test.
 * The wait for a state or an event the app reaches on its own (a subscriber's e-mail, an event):
 * never a fixed sleep in its place.
 */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

/**
 * Waits until every stored callback delivery has been processed (or has failed and counted its
 * failure): the callback route answers once the delivery is stored and a subscriber processes it
 * after the answer (docs/architecture.md#callback-route), so a 200 no longer means "processed".
 * Bounded: fails the test after `timeoutMs`.
 */
export async function callbacksProcessed(container: MedusaContainer, timeoutMs = 30_000): Promise<void> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { data } = await query.graph({ entity: "crypto_callback", fields: ["id", "processed_at", "failure_count"], filters: { processed_at: null } })
    const waiting = data.filter((row) => Number(row.failure_count ?? 0) === 0)
    if (waiting.length === 0) return
    if (Date.now() > deadline) {
      throw new Error(`callbacks still unprocessed after ${timeoutMs} ms: ${waiting.map((row) => String(row.id)).join(", ")}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The shops' invoices still in `pending internal`, as the sandbox's control API lists them. */
async function invoicesInInternalTransfer(sandbox: RunningSandbox): Promise<string[]> {
  const lists = await Promise.all(sandbox.shops.map((shop) => controlOf(sandbox, shop).invoices({ status: "pending internal" })))
  return lists.flat().map((invoice) => invoice.txn_id)
}

/**
 * The sandbox has delivered every callback it queued and our subscriber has processed them. An
 * invoice in `pending internal` has one more callback due when its transfer ends (a real
 * INTERNAL_TRANSFER_SECONDS later): this waits for that too, bounded by `timeoutMs`.
 */
export async function callbacksDeliveredAndProcessed(sandbox: RunningSandbox, container: MedusaContainer, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    // Listed first: a transfer that ends after this reading has queued its callback before the wait below.
    const transferring = await invoicesInInternalTransfer(sandbox)
    await sandbox.callbacksIdle()
    await callbacksProcessed(container, Math.max(1, deadline - Date.now()))
    if (transferring.length === 0) return
    if (Date.now() > deadline) {
      throw new Error(`invoices still in pending internal after ${timeoutMs} ms: ${transferring.join(", ")}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The secret the test app (integration-tests/app) signs admin tokens with. */
const JWT_SECRET = "test-jwt-secret"

/** A new admin user and its bearer token, as Medusa's own integration tests make them. */
export async function adminHeaders(container: MedusaContainer): Promise<{ headers: Record<string, string> }> {
  const email = `admin-${randomBytes(4).toString("hex")}@example.com`
  const user = await container.resolve<IUserModuleService>(Modules.USER).createUsers({ email, first_name: "Ada", last_name: "Admin" })
  const identity = await container.resolve<IAuthModuleService>(Modules.AUTH).createAuthIdentities({
    provider_identities: [{ provider: "emailpass", entity_id: email }],
    app_metadata: { user_id: user.id },
  })
  const token = generateJwtToken(
    { actor_id: user.id, actor_type: "user", auth_identity_id: identity.id, app_metadata: { user_id: user.id } },
    { secret: JWT_SECRET, expiresIn: "1d" }
  )
  return { headers: { authorization: `Bearer ${token}` } }
}

/** An admin's headers, as axios takes them (`api.get(url, auth)`). */
export interface AdminAuth {
  headers: Record<string, string>
}

/**
 * A new admin user's headers before each test of the suite (a `beforeEach` it registers where it is
 * called), and the admin settings `settings` posted with them, when given. The object is the same
 * for the whole suite; its headers are the current test's.
 */
export function useAdminAuth(getContainer: () => MedusaContainer, options: { api?: AxiosInstance; settings?: Record<string, unknown> } = {}): AdminAuth {
  const auth: AdminAuth = { headers: {} }
  beforeEach(async () => {
    auth.headers = (await adminHeaders(getContainer())).headers
    if (options.settings !== undefined) {
      if (options.api === undefined) throw new Error("useAdminAuth: settings need the api to post them with")
      await options.api.post("/admin/crypto/settings", options.settings, auth)
    }
  })
  return auth
}

/** A 10.50 EUR order paid in ETH through the sandbox: the placed order's id. */
export async function orderPaidInCrypto(gateway: TestGateway, container: MedusaContainer, api: AxiosInstance): Promise<string> {
  const store = await createCryptoStore(container)
  const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "ETH" })
  await gateway.control().pay(txnId)
  await callbacksDeliveredAndProcessed(gateway.sandbox, container)
  const orderIds = await orderIdsForCart(container, store.cartId)
  if (orderIds.length !== 1) throw new Error(`expected one order for the paid cart, found ${orderIds.length}`)
  return orderIds[0]
}

/** A 10.50 EUR order the shopper overpaid by 10% in ETH through the sandbox: its store, order and the surplus in ETH. */
export async function orderOverpaidInCrypto(gateway: TestGateway, container: MedusaContainer, api: AxiosInstance): Promise<{ store: CryptoStore; orderId: string; surplus: string }> {
  const store = await createCryptoStore(container)
  const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "ETH" })
  const { total, precision } = await gateway.dueAt(txnId)
  const paid = total.times("1.1").toDecimalPlaces(precision, Decimal.ROUND_UP)
  await gateway.control().pay(txnId, { amount: paid.toFixed() })
  await callbacksDeliveredAndProcessed(gateway.sandbox, container)
  const [orderId] = await orderIdsForCart(container, store.cartId)
  return { store, orderId, surplus: paid.minus(total).toFixed() }
}

/** An order's status, as Medusa stores it. */
export async function orderStatus(container: MedusaContainer, orderId: string): Promise<string> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["id", "status"], filters: { id: orderId } })
  return String(data[0]?.status)
}

/** Each capture's amount of a session as the exact decimal Medusa stored (major units). */
export async function capturedAmounts(container: MedusaContainer, sessionId: string): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment", fields: ["captures.raw_amount"], filters: { payment_session_id: sessionId } })
  return data.flatMap((payment) => (payment.captures ?? []).map((capture: { raw_amount: { value: string } }) => new Decimal(capture.raw_amount.value).toFixed()))
}

/** Our invoice mirror's rows for a cart, oldest attempt first. */
export async function mirrorOf(container: MedusaContainer, cartId: string) {
  const rows = await container.resolve<CryptoModuleService>(CRYPTO_MODULE).listCryptoInvoices({ cart_id: cartId })
  return [...rows].sort((a, b) => a.attempt - b.attempt)
}

/** A Needs-attention item as the admin route answers it. */
export type AttentionItem = Record<string, unknown> & {
  id: string
  kind: string
  amount: string | null
  psys_cid: string | null
  currency: string | null
  evidence: Record<string, unknown>
  subject_id: string
}

/** The open Needs-attention queue's first page as the admin reads it: `limit` items at most (the route's default without). */
export async function attentionPage(api: AxiosInstance, auth: AdminAuth, limit?: number): Promise<{ items: AttentionItem[]; count: number }> {
  const { data } = await api.get(limit === undefined ? "/admin/crypto/attention" : `/admin/crypto/attention?limit=${limit}`, auth)
  return data
}

/** The open Needs-attention items of the queue's first page (see attentionPage). */
export async function attentionItems(api: AxiosInstance, auth: AdminAuth, limit?: number): Promise<AttentionItem[]> {
  return (await attentionPage(api, auth, limit)).items
}

/** A new, well-formed (unchecked) Ethereum address, as the sandbox accepts for a withdrawal. */
export const ethAddress = (): string => `0x${randomBytes(20).toString("hex")}`

/** A new idempotency key. */
export const newKey = (): string => `key-${randomBytes(8).toString("hex")}`

/** GET /store/crypto/payment-status for the store's cart, as the storefront kit polls it: the answer's body. */
export async function paymentStatus(api: AxiosInstance, store: CryptoStore): Promise<Record<string, unknown>> {
  const { data } = await api.get(`/store/crypto/payment-status?cart_id=${encodeURIComponent(store.cartId)}`, { headers: storefrontHeaders(store) })
  return data
}

/** A withdrawal of `amount` ETH to `address`, as the admin API takes it (POST /admin/crypto/withdrawals). */
export const withdrawal = (address: string, amount = "0.01", key = newKey()) => ({ idempotency_key: key, psys_cid: "ETH", recipients: [{ address, amount }], fee_plan: "normal" })

/** The addresses a money-out request pays, each with its coin: a withdrawal's recipients, an exchange's `to_address` in `to_currency`. */
function paidAddresses(url: string | undefined, body: unknown): Array<{ psys_cid: string; address: string; provider_id?: string }> {
  if (typeof body !== "object" || body === null) return []
  const request = body as { psys_cid?: unknown; recipients?: unknown; to_currency?: unknown; to_address?: unknown; provider_id?: unknown }
  const provider = typeof request.provider_id === "string" ? { provider_id: request.provider_id } : {}
  if (url === "/admin/crypto/withdrawals" && typeof request.psys_cid === "string" && Array.isArray(request.recipients)) {
    const psysCid = request.psys_cid
    return request.recipients.flatMap((recipient: { address?: unknown }) => (typeof recipient?.address === "string" ? [{ psys_cid: psysCid, address: recipient.address, ...provider }] : []))
  }
  if (url === "/admin/crypto/exchanges" && typeof request.to_currency === "string" && typeof request.to_address === "string") {
    return [{ psys_cid: request.to_currency, address: request.to_address, ...provider }]
  }
  return []
}

/**
 * The suite's merchant saves every address it pays in the address book before paying it, as the
 * money-out policy requires (docs/money-out.md#money-out-policy): each admin POST of a withdrawal or
 * an exchange first saves its addresses through the admin API (POST /admin/crypto/money-out/addresses),
 * with the request's own admin headers. The test app's cooling-off is 0 minutes unless a file sets
 * MPC_TEST_COOLING_OFF_MINUTES (integration-tests/app), so a saved address is usable at once. A save
 * the route refuses (400: an address the withdrawal route refuses too) is left to the withdrawal's own
 * answer; a request without admin headers saves nothing. The policy's own tests
 * (money-out-policy.spec.ts) do not use it.
 */
export function useSavedAddresses(api: AxiosInstance): void {
  beforeAll(() => {
    api.interceptors.request.use(async (config) => {
      const authorization = config.headers?.authorization
      if (config.method !== "post" || typeof authorization !== "string") return config
      for (const body of paidAddresses(config.url, config.data)) {
        try {
          await api.post("/admin/crypto/money-out/addresses", body, { headers: { authorization } })
        } catch (error) {
          if (!(isAxiosError(error) && error.response?.status === 400)) throw error
        }
      }
      return config
    })
  })
}

/**
 * Runs `action` while Medusa's clock (and the sandbox's, which reads the same Date.now) reads
 * `minutes` later: a cooling-off or an expiry passes without waiting for it. Test admins' tokens live
 * a day, so keep `minutes` below that.
 */
export async function minutesLater<T>(minutes: number, action: () => Promise<T>): Promise<T> {
  const realNow = Date.now.bind(Date)
  const spy = jest.spyOn(Date, "now").mockImplementation(() => realNow() + minutes * 60_000)
  try {
    return await action()
  } finally {
    spy.mockRestore()
  }
}
