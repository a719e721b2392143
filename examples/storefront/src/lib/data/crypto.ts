"use server"

import {
  getCryptoPaymentStatus,
  initiateCryptoSession,
  listCryptoCurrencies,
  openCryptoTopUp,
  resolveCryptoReturn,
  type CryptoCurrenciesResponse,
  type CryptoPaymentStatusResponse,
} from "medusa-payment-crypto/storefront/server"
import { redirect } from "next/navigation"
import { MEDUSA_BACKEND_URL, MEDUSA_PUBLISHABLE_KEY, sdk, storeConnection } from "../config"
import { isCryptoProvider } from "../providers"
import { retrieveCart } from "./cart"
import { getCartId, removeCartId } from "./cookies"

/** The coins of the cart's region, with the cart total in each (the coin picker's list). */
export async function getCryptoCurrencies(): Promise<CryptoCurrenciesResponse | null> {
  const cartId = await getCartId()
  if (cartId === undefined) return null
  return listCryptoCurrencies({ ...storeConnection, cartId })
}

/**
 * The poll behind the payment panel and the return page (a server action, so the browser never
 * talks to the store directly and the publishable key stays on the server).
 */
export async function getCryptoStatus(cartId?: string): Promise<CryptoPaymentStatusResponse> {
  const id = cartId ?? (await getCartId())
  if (id === undefined) {
    throw new Error("No cart")
  }
  return getCryptoPaymentStatus({ ...storeConnection, cartId: id })
}

/**
 * "Continue to review": creates the payment session, or re-creates it when the shopper picked
 * another coin (the starter's own step skips re-initiating when the provider is the same, which would
 * keep the first coin's invoice).
 */
export async function choosePayment(formData: FormData): Promise<void> {
  const cart = await retrieveCart()
  if (cart === null) redirect("/cart")
  const providerId = String(formData.get("provider_id") ?? "")
  const coin = String(formData.get("psys_cid") ?? "")
  if (isCryptoProvider(providerId)) {
    await initiateCryptoSession(cart, { provider_id: providerId, psys_cid: coin === "" ? null : coin }, { sdk })
  } else {
    await sdk.store.payment.initiatePaymentSession(cart, { provider_id: providerId })
  }
  redirect("/checkout?step=review")
}

/**
 * A new invoice for an expired one, keeping the cart (POST /store/crypto/payment-sessions/refresh:
 * the store re-reads the old invoice and re-initiates the session through Medusa's own workflow).
 */
/**
 * "Pay the rest" on the payment panel or the return page: the invoice ended short, the store opens
 * an invoice of the rest in the same coin (or answers the open one), and the panel shows it (the
 * return page links its payment page).
 */
export async function payCryptoRest(cartId?: string): Promise<CryptoPaymentStatusResponse> {
  const id = cartId ?? (await getCartId())
  if (id === undefined) throw new Error("No cart")
  return openCryptoTopUp({ ...storeConnection, cartId: id })
}

export async function renewCryptoInvoice(): Promise<CryptoPaymentStatusResponse> {
  const cartId = await getCartId()
  if (cartId === undefined) throw new Error("No cart")
  const response = await fetch(`${MEDUSA_BACKEND_URL}/store/crypto/payment-sessions/refresh`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-publishable-api-key": MEDUSA_PUBLISHABLE_KEY },
    body: JSON.stringify({ cart_id: cartId }),
    cache: "no-store",
  })
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null
    throw new Error(body?.message ?? `The store answered ${response.status}`)
  }
  return (await response.json()) as CryptoPaymentStatusResponse
}

/**
 * After the payment: what the store's payment status says decides, never the URL. An order that
 * exists (the callback placed it) is shown; a paid cart without one is completed here. Every way to
 * the order page removes the cart cookie first. Runs in a server action or a route handler only
 * (a page cannot change cookies).
 */
export async function finishCryptoCheckout(cartId: string): Promise<void> {
  const status = await getCryptoStatus(cartId)
  const decision = resolveCryptoReturn(status)
  if (decision.kind === "order") {
    await clearCartIfCurrent(cartId)
    redirect(`/order/${decision.orderId}/confirmed`)
  }
  if (decision.kind === "complete") {
    const result = await sdk.store.cart.complete(cartId)
    if (result.type === "order") {
      await clearCartIfCurrent(cartId)
      redirect(`/order/${result.order.id}/confirmed`)
    }
  }
}

async function clearCartIfCurrent(cartId: string): Promise<void> {
  if ((await getCartId()) === cartId) {
    await removeCartId()
  }
}
