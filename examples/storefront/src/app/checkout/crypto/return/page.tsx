import { resolveCryptoReturn } from "medusa-payment-crypto/storefront/server"
import { redirect } from "next/navigation"
import { CryptoReturn } from "@/components/crypto-return"
import { getCryptoStatus } from "@/lib/data/crypto"

export const dynamic = "force-dynamic"

/**
 * Where the gateway's page sends the shopper back (the plugin's default successPath and failPath:
 * /checkout/crypto/return?cart_id=…). The gateway's own query flags are ignored: the store's payment
 * status decides. An order that exists (the callback placed it, perhaps long before the shopper came
 * back) is shown at once.
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
  const decision = resolveCryptoReturn(status)
  if (decision.kind === "order") {
    redirect(`/order/${decision.orderId}/confirmed`)
  }
  return (
    <>
      <h1>Payment</h1>
      <CryptoReturn cartId={cartId} />
    </>
  )
}
