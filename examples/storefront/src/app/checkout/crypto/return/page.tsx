import { resolveCryptoReturn } from "medusa-payment-crypto/storefront/server"
import { redirect } from "next/navigation"
import { CryptoReturn } from "@/components/crypto-return"
import { getCryptoStatus } from "@/lib/data/crypto"

export const dynamic = "force-dynamic"

/**
 * Where the gateway's page sends the shopper back (the plugin's default successPath and failPath:
 * /checkout/crypto/return?cart_id=…). The gateway's own query flags are ignored: the store's payment
 * status decides. An order that exists (the callback placed it, perhaps long before the shopper came
 * back) is shown at once, through /checkout/crypto/order, which removes the cart cookie first.
 */
export default async function CryptoReturnPage({ searchParams }: { searchParams: Promise<{ cart_id?: string }> }) {
  const cartId = (await searchParams).cart_id
  if (typeof cartId !== "string" || cartId === "") {
    redirect("/cart")
  }
  const status = await getCryptoStatus(cartId).catch(() => null)
  if (status === null) {
    return (
      <>
        <h1>Payment</h1>
        <p>We could not find this payment. If you paid, your order confirmation arrives by email.</p>
      </>
    )
  }
  if (resolveCryptoReturn(status).kind === "order") {
    // This page cannot remove the cart cookie (Next 15): the route does, then shows the order.
    redirect(`/checkout/crypto/order?cart_id=${encodeURIComponent(cartId)}`)
  }
  return (
    <>
      <h1>Payment</h1>
      <CryptoReturn cartId={cartId} />
    </>
  )
}
