/**
 * A refund the shopper claims (docs/money-out.md, "Refunds the shopper claims"): the merchant starts
 * a crypto refund without an address, the shopper opens the link (a single-use, expiring, revocable
 * token) and enters the address. `GET /store/crypto/refund-claims?token=` and
 * `POST /store/crypto/refund-claims` answer `{ claim }`.
 */

/**
 * What a claim is, declared once: the server helpers check an answer against this list and the
 * claim form says each one in words (`Record<CryptoRefundClaimStatus, …>`).
 * - `waiting`: the shopper may enter an address.
 * - `sending`: sent, not yet confirmed.
 * - `sent`: completed.
 * - `unknown`: the gateway did not confirm; the shop checks and never sends twice.
 * - `failed`: the gateway refused it; the shop will contact the shopper.
 * - `expired`: the link's time ran out before an address was entered.
 * - `revoked`: the shop withdrew the link.
 */
export const CRYPTO_REFUND_CLAIM_STATUSES = ["waiting", "sending", "sent", "unknown", "failed", "expired", "revoked"] as const

export type CryptoRefundClaimStatus = (typeof CRYPTO_REFUND_CLAIM_STATUSES)[number]

/** A claim as the store routes answer it. */
export interface CryptoRefundClaim {
  status: CryptoRefundClaimStatus
  /** What is refunded, in the coin, as a decimal string ("0.00052000"). */
  amount: string
  /** The gateway's coin id, e.g. "BTC", "USDT_TRX", "USDT_ETH", "LTC". */
  psys_cid: string
  /** Coin code, e.g. "USDT". */
  currency: string | null
  /** The network's short id: the suffix of a token's psys_cid (USDT_TRX → "TRX"), else the coin itself. `describeCoin` names it. */
  network: string | null
  /** The order the refund belongs to, when known (Medusa's `display_id`). */
  order_display_id: number | null
  /** ISO 8601 instant the link stops working. */
  expires_at: string
  /** The address the shopper entered, once claimed. */
  address: string | null
  /** The block explorer link of the refund, once sent. */
  tx_url: string | null
  /** The last refusal in words (e.g. the gateway refused the address): while `waiting`, the shopper may enter another address. */
  error: string | null
}
