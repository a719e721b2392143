import { redirect } from "next/navigation"
import type { NextRequest } from "next/server"
import { finishCryptoCheckout } from "@/lib/data/crypto"

export const dynamic = "force-dynamic"

/**
 * Where every way to the order page of a crypto payment goes (docs/storefront.md, step 7): a route
 * handler may remove the cart cookie, a page may not (Next 15). With an order (or a paid cart, which
 * is completed here) `finishCryptoCheckout` removes the cookie and redirects to the order page;
 * otherwise the shopper goes back to the return page. The store's payment status decides; `cart_id`
 * only names the cart.
 */
export async function GET(request: NextRequest) {
  const cartId = request.nextUrl.searchParams.get("cart_id")
  if (cartId === null || cartId === "") {
    redirect("/cart")
  }
  await finishCryptoCheckout(cartId)
  redirect(`/checkout/crypto/return?cart_id=${encodeURIComponent(cartId)}`)
}
