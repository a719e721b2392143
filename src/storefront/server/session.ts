import { DEFAULT_CRYPTO_PROVIDER_ID, isCryptoProviderId } from "../lib/providers.js"
import { storeRequest, type StoreConnection } from "./store-client.js"

export { DEFAULT_CRYPTO_PROVIDER_ID, isCryptoProviderId }

/** The part of a store cart the helper reads (a js-sdk `StoreCart` fits). */
export interface CryptoSessionCart {
  id: string
  payment_collection?: {
    id: string
    payment_sessions?: Array<{ provider_id: string; status?: string; data?: Record<string, unknown> | null }> | null
  } | null
}

export interface CryptoSessionPaymentCollection {
  id: string
  payment_sessions?: Array<{ provider_id: string; status?: string; data?: Record<string, unknown> | null }> | null
}

/** The js-sdk's `sdk.store.payment` is enough (structural: no `@medusajs/js-sdk` import). */
export interface CryptoSessionSdk {
  store: {
    payment: {
      initiatePaymentSession(
        cart: CryptoSessionCart,
        body: { provider_id: string; data?: Record<string, unknown> },
        query?: Record<string, unknown>,
        headers?: Record<string, string>
      ): Promise<{ payment_collection: CryptoSessionPaymentCollection }>
    }
  }
}

export type CryptoSessionTransport = { sdk: CryptoSessionSdk; headers?: Record<string, string> } | StoreConnection

export interface InitiateCryptoSessionInput {
  /** The coin the shopper chose; omit in hosted mode to let the shopper choose on the gateway's page. */
  psys_cid?: string | null
  /** The crypto provider of the cart's region (see `listCryptoCurrencies().provider_id`); default `pp_crypto_crypto`. */
  provider_id?: string
  /** Create a new session (a new invoice) even when the active one already has this coin, e.g. after it expired. */
  force?: boolean
}

export interface InitiateCryptoSessionResult {
  /** False when the active crypto session already had the coin and nothing was sent. */
  initiated: boolean
  /** Why: "no-session", "other-provider", "coin-changed", "forced", or "same-coin" when not initiated. */
  reason: "no-session" | "other-provider" | "coin-changed" | "forced" | "same-coin"
  payment_collection: CryptoSessionPaymentCollection | null
}

const COIN_ID = /^[A-Za-z0-9_.-]{1,32}$/

/**
 * Creates the cart's crypto payment session, with the chosen coin in `data.psys_cid`, unless the
 * active session is already a crypto one for that coin. Medusa's Next.js starter skips
 * re-initiating when the provider is the same, which keeps the invoice of the first coin; here
 * a changed coin makes a new session (and so a new invoice). Without a coin (hosted mode) an
 * active crypto session is kept.
 */
export async function initiateCryptoSession(
  cart: CryptoSessionCart,
  input: InitiateCryptoSessionInput,
  transport: CryptoSessionTransport
): Promise<InitiateCryptoSessionResult> {
  if (typeof cart?.id !== "string" || cart.id === "") {
    throw new TypeError("cart.id is required: pass the store cart (with its payment_collection)")
  }
  const providerId = input.provider_id ?? DEFAULT_CRYPTO_PROVIDER_ID
  if (!isCryptoProviderId(providerId)) {
    throw new TypeError(`provider_id must be a crypto provider id such as "${DEFAULT_CRYPTO_PROVIDER_ID}", got "${providerId}"`)
  }
  const coin = input.psys_cid ?? null
  if (coin !== null && !COIN_ID.test(coin)) {
    throw new TypeError('psys_cid must be a coin id such as "BTC" or "USDT_TRX" (see listCryptoCurrencies)')
  }

  const active = cart.payment_collection?.payment_sessions?.find((session) => session.status === undefined || session.status === "pending") ?? null
  const activeCoin = typeof active?.data?.psys_cid === "string" ? active.data.psys_cid : null
  const reason: InitiateCryptoSessionResult["reason"] =
    active === null
      ? "no-session"
      : active.provider_id !== providerId
        ? "other-provider"
        : input.force
          ? "forced"
          : coin !== null && coin !== activeCoin
            ? "coin-changed"
            : "same-coin"
  if (reason === "same-coin") {
    return { initiated: false, reason, payment_collection: cart.payment_collection ?? null }
  }

  const body = { provider_id: providerId, ...(coin !== null ? { data: { psys_cid: coin } } : {}) }
  if ("sdk" in transport) {
    const { payment_collection } = await transport.sdk.store.payment.initiatePaymentSession(cart, body, {}, transport.headers)
    return { initiated: true, reason, payment_collection }
  }
  let collectionId = cart.payment_collection?.id
  if (!collectionId) {
    const created = (await storeRequest(transport, "POST", "/store/payment-collections", { cart_id: cart.id })) as {
      payment_collection?: { id?: unknown }
    } | null
    if (typeof created?.payment_collection?.id !== "string") {
      throw new TypeError("POST /store/payment-collections: payment_collection.id missing from the answer")
    }
    collectionId = created.payment_collection.id
  }
  const answer = (await storeRequest(transport, "POST", `/store/payment-collections/${encodeURIComponent(collectionId)}/payment-sessions`, body)) as {
    payment_collection?: CryptoSessionPaymentCollection
  } | null
  return { initiated: true, reason, payment_collection: answer?.payment_collection ?? null }
}
