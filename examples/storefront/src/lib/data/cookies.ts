import "server-only"
import { cookies } from "next/headers"

const CART_COOKIE = "_medusa_cart_id"

export async function getCartId(): Promise<string | undefined> {
  return (await cookies()).get(CART_COOKIE)?.value
}

export async function setCartId(cartId: string): Promise<void> {
  ;(await cookies()).set(CART_COOKIE, cartId, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 60 * 60 * 24 * 7,
    // The demo serves plain http on localhost; a real deployment is https.
    secure: process.env.NODE_ENV === "production" && !/^http:\/\/localhost[:/]/.test(process.env.STOREFRONT_URL ?? "http://localhost"),
  })
}

export async function removeCartId(): Promise<void> {
  ;(await cookies()).delete(CART_COOKIE)
}
