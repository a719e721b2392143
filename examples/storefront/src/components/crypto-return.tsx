"use client"

import { CryptoPaymentResult } from "medusa-payment-crypto/storefront"
import { finishCryptoCheckout, getCryptoStatus, payCryptoRest } from "@/lib/data/crypto"

/** The return page's live part: polls the store until the payment settles, then shows the order; offers the rest of a payment that ended short. */
export function CryptoReturn(props: { cartId: string }) {
  return (
    <CryptoPaymentResult
      fetchStatus={() => getCryptoStatus(props.cartId)}
      orderHref={() => `/checkout/crypto/order?cart_id=${encodeURIComponent(props.cartId)}`}
      retryHref="/checkout?step=payment"
      onPayRest={async () => {
        await payCryptoRest(props.cartId)
      }}
      onDecision={(decision) => {
        if (decision.kind === "complete" || decision.kind === "order") {
          void finishCryptoCheckout(props.cartId)
        }
      }}
    />
  )
}
