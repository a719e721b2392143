// The set-up both HTTP test files share: the gateway sandbox the test app talks to, a store that takes
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
import { startSandbox, type RunningSandbox, type SandboxControl, type SandboxShop, type Seed } from "../../src/sandbox"

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
  /** The gateway the sandbox plays, in its seed format (default: the bundled seed, `defaultSeed()`). */
  seed?: Seed
}

export interface TestSandbox {
  sandbox: RunningSandbox
  shop: SandboxShop
  /** Stops the sandbox and gives the process back the environment it had before the start. */
  stop: () => Promise<void>
}

/**
 * Starts the gateway sandbox on a free port and sets the environment the test app's medusa-config reads
 * when the app boots: call it in a `beforeAll` declared before `medusaIntegrationTestRunner`, whose own
 * `beforeAll` boots the app. The app listens on PORT (test-utils honours it), so the provider builds a
 * callback URL the sandbox reaches.
 */
export async function startTestSandbox(options: TestSandboxOptions): Promise<TestSandbox> {
  const savedEnv = { ...process.env }
  // `pending internal` lasts a real INTERNAL_TRANSFER_SECONDS; the sandbox's ticker (every second)
  // ends it and sends the callback without any request (src/sandbox/README.md, "Life cycle").
  const sandbox = await startSandbox({ port: 0, internalTransferSeconds: INTERNAL_TRANSFER_SECONDS, seed: options.seed })
  const shop = sandbox.shops.find((candidate) => candidate.whiteLabel === options.whiteLabel)
  if (shop === undefined) {
    await sandbox.close()
    throw new Error(`the sandbox seed has no ${options.whiteLabel ? "white-label shop" : "shop without white-label"}`)
  }
  const port = await freePort()
  Object.assign(process.env, {
    PORT: String(port),
    MPC_TEST_BACKEND_URL: `http://localhost:${port}`,
    MPC_TEST_GATEWAY_URL: sandbox.url,
    MPC_TEST_GATEWAY_API_KEY: shop.secretKey,
    ...options.env,
  })
  return {
    sandbox,
    shop,
    stop: async () => {
      await sandbox.close()
      process.env = savedEnv
    },
  }
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

/**
 * A sales channel with a publishable key, a region in `currency` (country DE) that takes crypto, a
 * product at 10.50 and a cart with one of it. Every call makes a new store, so tests do not share carts.
 */
export async function createCryptoStore(container: MedusaContainer, currency = "eur"): Promise<CryptoStore> {
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
    input: { regions: [{ name: "Europe", currency_code: currency, countries: ["de"], payment_providers: [CRYPTO_PROVIDER_ID] }] },
  })
  const {
    result: [product],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Crypto mug",
          status: "published",
          options: [{ title: "Size", values: ["One"] }],
          variants: [{ title: "One", options: { Size: "One" }, manage_inventory: false, prices: [{ amount: 10.5, currency_code: currency }] }],
          sales_channels: [{ id: channel.id }],
        },
      ],
    },
  })
  const { result: cart } = await createCartWorkflow(container).run({
    input: {
      region_id: region.id,
      sales_channel_id: channel.id,
      email: "shopper@example.com",
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
