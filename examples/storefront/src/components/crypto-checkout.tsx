"use client"

import { CryptoPayButton, CryptoPaymentPanel } from "medusa-payment-crypto/storefront"
import { useRouter } from "next/navigation"
import { useTransition } from "react"
import { finishCryptoCheckout, getCryptoStatus, payCryptoRest, renewCryptoInvoice } from "@/lib/data/crypto"

/**
 * The review step's pay action for a crypto session. Hosted: a button to the gateway's page (same
 * tab; the shopper comes back to /checkout/crypto/return). White-label: the payment panel, which polls
 * the store, places the order once paid, offers a new invoice when this one expired and the rest
 * when it ended short.
 */
export function CryptoCheckout(props: { cartId: string; whiteLabel: boolean; invoiceUrl: string | null }) {
  const router = useRouter()
  const [placing, startPlacing] = useTransition()

  if (!props.whiteLabel) {
    return <CryptoPayButton invoiceUrl={props.invoiceUrl} />
  }
  return (
    <>
      <CryptoPaymentPanel
        fetchStatus={() => getCryptoStatus(props.cartId)}
        onPaid={() => startPlacing(() => finishCryptoCheckout(props.cartId))}
        onNewInvoice={async () => {
          await renewCryptoInvoice()
          router.refresh()
        }}
        onPayRest={async () => {
          await payCryptoRest()
        }}
        support={{ email: "support@example.com" }}
      />
      {placing ? <p role="status">Placing your order…</p> : null}
    </>
  )
}
