import type { CryptoCurrenciesResponse, CryptoPaymentStatusResponse } from "../types.js"
import { parseCurrencies, parsePaymentStatus, storeRequest, type StoreConnection } from "./store-client.js"

export interface CartQuery extends StoreConnection {
  cartId: string
}

function cartIdParam(cartId: unknown): string {
  if (typeof cartId !== "string" || cartId.trim() === "") {
    throw new TypeError("cartId is required: the id of the shopper's cart, e.g. cart_01...")
  }
  return encodeURIComponent(cartId.trim())
}

/** `GET /store/crypto/payment-status?cart_id=`: the active invoice of a cart, never cached. */
export async function getCryptoPaymentStatus(query: CartQuery): Promise<CryptoPaymentStatusResponse> {
  const path = `/store/crypto/payment-status?cart_id=${cartIdParam(query.cartId)}`
  return parsePaymentStatus(await storeRequest(query, "GET", path))
}

/** `GET /store/crypto/currencies?cart_id=`: the coins of the cart's region and the cart total in each. */
export async function listCryptoCurrencies(query: CartQuery): Promise<CryptoCurrenciesResponse> {
  const path = `/store/crypto/currencies?cart_id=${cartIdParam(query.cartId)}`
  return parseCurrencies(await storeRequest(query, "GET", path))
}
