"use server"

import { claimCryptoRefund, CryptoRefundClaimRefusedError, getCryptoRefundClaim, type CryptoRefundClaim } from "medusa-payment-crypto/storefront/server"
import { storeConnection } from "../config"

/**
 * The refund claim form's action: claims the refund of the link's token to the shopper's address.
 * A refusal (the link expired or was withdrawn meanwhile, was already used, or the store does not
 * accept the address) answers the claim as the store reads it now, with the store's words in
 * `error` while it still waits: a server action's thrown message does not reach the browser in
 * production, so the form could only say "try again".
 */
export async function claimRefund(token: string, address: string): Promise<CryptoRefundClaim> {
  try {
    return await claimCryptoRefund({ ...storeConnection, token, address })
  } catch (error) {
    if (!(error instanceof CryptoRefundClaimRefusedError)) throw error
    const claim = await getCryptoRefundClaim({ ...storeConnection, token })
    if (claim === null) throw error
    return claim.status === "waiting" ? { ...claim, error: error.reason } : claim
  }
}
