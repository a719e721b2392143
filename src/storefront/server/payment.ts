import type { CryptoCurrenciesResponse, CryptoPaymentStatusResponse } from "../types.js"
import { parseCurrencies, parsePaymentStatus, storeRequest, type StoreConnection } from "./store-client.js"

export interface CartQuery extends StoreConnection {
  cartId: string
}

function requireCartId(cartId: unknown): string {
  if (typeof cartId !== "string" || cartId.trim() === "") {
    throw new TypeError("cartId is required: the id of the shopper's cart, e.g. cart_01...")
  }
  return cartId.trim()
}

/** `GET /store/crypto/payment-status?cart_id=`: the active invoice of a cart, never cached. */
export async function getCryptoPaymentStatus(query: CartQuery): Promise<CryptoPaymentStatusResponse> {
  const path = `/store/crypto/payment-status?cart_id=${encodeURIComponent(requireCartId(query.cartId))}`
  return parsePaymentStatus(await storeRequest(query, "GET", path))
}

export interface RefreshInvoiceQuery extends CartQuery {
  /** Another coin for the new invoice (allowed before any payment); the current coin when omitted. */
  psysCid?: string | null
}

/**
 * `POST /store/crypto/payment-sessions/refresh`: a new invoice for a cart whose invoice expired
 * (or, before any payment, in another coin), keeping the cart. Answers the new status. The store
 * refuses (400) while the invoice can still be paid or holds money.
 */
export async function refreshCryptoInvoice(query: RefreshInvoiceQuery): Promise<CryptoPaymentStatusResponse> {
  const cartId = requireCartId(query.cartId)
  const psysCid = query.psysCid ?? null
  if (psysCid !== null && !/^[A-Za-z0-9_.-]{1,32}$/.test(psysCid)) {
    throw new TypeError('psysCid must be a coin id such as "BTC" or "USDT_TRX" (see listCryptoCurrencies)')
  }
  const path = "/store/crypto/payment-sessions/refresh"
  const body = { cart_id: cartId, ...(psysCid !== null ? { psys_cid: psysCid } : {}) }
  return parsePaymentStatus(await storeRequest(query, "POST", path, body), path)
}

/**
 * `POST /store/crypto/payment-sessions/top-up`: pay the rest of an invoice that ended short. The
 * store opens an invoice of the shortfall in the same coin (or answers the open one again) and
 * answers the status with it in `invoice.rest.top_up`; 400 with the reason when there is no rest to
 * pay (nothing short, the shop already refunded the money, the order was canceled).
 */
export async function openCryptoTopUp(query: CartQuery): Promise<CryptoPaymentStatusResponse> {
  const path = "/store/crypto/payment-sessions/top-up"
  return parsePaymentStatus(await storeRequest(query, "POST", path, { cart_id: requireCartId(query.cartId) }), path)
}

/** `GET /store/crypto/currencies?cart_id=`: the coins of the cart's region and the cart total in each. */
export async function listCryptoCurrencies(query: CartQuery): Promise<CryptoCurrenciesResponse> {
  const path = `/store/crypto/currencies?cart_id=${encodeURIComponent(requireCartId(query.cartId))}`
  return parseCurrencies(await storeRequest(query, "GET", path))
}
