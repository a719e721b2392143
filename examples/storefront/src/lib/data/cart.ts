"use server"

import type { HttpTypes } from "@medusajs/types"
import { redirect } from "next/navigation"
import { sdk } from "../config"
import { getCartId, removeCartId, setCartId } from "./cookies"
import { getRegion } from "./regions"

const CART_FIELDS =
  "*items,*region,*shipping_address,*billing_address,*shipping_methods,*payment_collection,*payment_collection.payment_sessions,+total,+subtotal,+shipping_total,+tax_total,+item_total"

export async function retrieveCart(): Promise<HttpTypes.StoreCart | null> {
  const cartId = await getCartId()
  if (cartId === undefined) {
    return null
  }
  try {
    const { cart } = await sdk.store.cart.retrieve(cartId, { fields: CART_FIELDS }, { cache: "no-store" })
    // A completed cart belongs to its order: the shopper starts a new one.
    return cart.completed_at ? null : cart
  } catch {
    return null
  }
}

async function requireCart(): Promise<HttpTypes.StoreCart> {
  const cart = await retrieveCart()
  if (cart === null) {
    redirect("/cart")
  }
  return cart
}

export async function addToCart(formData: FormData): Promise<void> {
  const variantId = String(formData.get("variant_id") ?? "")
  if (variantId === "") {
    throw new Error("variant_id is required")
  }
  let cart = await retrieveCart()
  if (cart === null) {
    const region = await getRegion()
    ;({ cart } = await sdk.store.cart.create({ region_id: region.id }))
    await setCartId(cart.id)
  }
  await sdk.store.cart.createLineItem(cart.id, { variant_id: variantId, quantity: 1 })
  redirect("/cart")
}

export async function setAddresses(formData: FormData): Promise<void> {
  const cart = await requireCart()
  const field = (name: string) => String(formData.get(name) ?? "").trim()
  const address = {
    first_name: field("first_name"),
    last_name: field("last_name"),
    address_1: field("address_1"),
    city: field("city"),
    postal_code: field("postal_code"),
    country_code: field("country_code"),
  }
  await sdk.store.cart.update(cart.id, { email: field("email"), shipping_address: address, billing_address: address })
  redirect("/checkout?step=delivery")
}

export async function listShippingOptions(cartId: string): Promise<HttpTypes.StoreCartShippingOption[]> {
  const { shipping_options } = await sdk.store.fulfillment.listCartOptions({ cart_id: cartId }, { cache: "no-store" })
  return shipping_options
}

export async function setShippingMethod(formData: FormData): Promise<void> {
  const cart = await requireCart()
  await sdk.store.cart.addShippingMethod(cart.id, { option_id: String(formData.get("option_id") ?? "") })
  redirect("/checkout?step=payment")
}

export async function listPaymentProviders(regionId: string): Promise<HttpTypes.StorePaymentProvider[]> {
  // Never force-cache this list: a provider added to the region must show without a rebuild.
  const { payment_providers } = await sdk.store.payment.listPaymentProviders({ region_id: regionId }, { cache: "no-store" })
  return payment_providers
}

/**
 * Places the order once the payment is settled. The crypto callback may have placed it already
 * (the shopper paid and closed the tab): then Medusa answers the same order.
 */
export async function placeOrder(): Promise<void> {
  const cart = await requireCart()
  const result = await sdk.store.cart.complete(cart.id)
  if (result.type !== "order") {
    throw new Error(result.error?.message ?? "The order could not be placed")
  }
  await removeCartId()
  redirect(`/order/${result.order.id}/confirmed`)
}
