import type { Metadata } from "next"
import { CryptoStoreError, getCryptoRefundClaim, type CryptoRefundClaim } from "medusa-payment-crypto/storefront/server"
import { CryptoRefund } from "@/components/crypto-refund"
import { storeConnection } from "@/lib/config"

export const dynamic = "force-dynamic"

// The URL holds a token that can claim money: no search engine, and no Referer to another site.
export const metadata: Metadata = { title: "Your refund", robots: { index: false, follow: false }, referrer: "no-referrer" }

/**
 * Where a refund link leads (/checkout/crypto/refund?token=…): the merchant started a crypto refund
 * without an address, and the shopper enters theirs here (docs/money-out.md, "Refunds the shopper
 * claims"). A token the store does not know gets a plain page.
 */
export default async function CryptoRefundPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const token = (await searchParams).token
  const claim = typeof token === "string" && token !== "" ? await readClaim(token) : null
  if (typeof token !== "string" || claim === null) {
    return (
      <>
        <h1>Refund</h1>
        <p>This refund link is not valid. Please check that you opened the whole link from the email, or contact the shop.</p>
      </>
    )
  }
  return (
    <>
      <h1>Your refund</h1>
      <CryptoRefund token={token} claim={claim} />
    </>
  )
}

/** The claim, or null for a token the store does not know (404) or refuses as malformed (400). */
async function readClaim(token: string): Promise<CryptoRefundClaim | null> {
  try {
    return await getCryptoRefundClaim({ ...storeConnection, token })
  } catch (error) {
    if (error instanceof CryptoStoreError && error.status === 400) return null
    throw error
  }
}
