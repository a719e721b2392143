"use client"

import { CryptoRefundClaimForm, type CryptoRefundClaim } from "medusa-payment-crypto/storefront"
import { claimRefund } from "@/lib/data/refund-claim"

/** The refund claim page's live part: the address form, claiming through the server action. */
export function CryptoRefund(props: { token: string; claim: CryptoRefundClaim }) {
  return <CryptoRefundClaimForm claim={props.claim} onClaim={(address) => claimRefund(props.token, address)} />
}
