import { createHash, randomBytes } from "node:crypto"
import type { InferTypeOf } from "@medusajs/framework/types"
import type { CryptoWithdrawal } from "../../modules/crypto/models/crypto-withdrawal"
import type { CryptoRefundClaim as StoreRefundClaimView, CryptoRefundClaimStatus as RefundClaimStatus } from "../../storefront/types"
import { networkOf } from "../coins"

/**
 * Refunds the shopper claims (docs/money-out.md#refunds-the-shopper-claims): the link's token and
 * what a claim shows. The token is 32 random bytes (base64url, 43 characters); only its SHA-256 is
 * stored, so neither the table nor a backup can be used to claim. Single use, expiry and revocation
 * are the claim row's (`crypto_refund_claim`).
 */

/** A new token for a claim link and the hash stored for it. */
export function newClaimToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url")
  return { token, hash: claimTokenHash(token) }
}

/** The stored form of a token. */
export function claimTokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex")
}

/** Whether a string can be a claim token (checked before any database read). */
export function isClaimToken(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value)
}

/** The storefront page a claim link opens, with `?token=` (the example storefront and docs/storefront.md have it). */
export const REFUND_CLAIM_PATH = "/checkout/crypto/refund"

/** How long a claim link works unless the merchant says otherwise. */
export const DEFAULT_CLAIM_HOURS = 168

/**
 * What the shopper and the merchant are told about a claim (`RefundClaimStatus`), and a claim as the
 * storefront shows it (`StoreRefundClaimView`, GET/POST /store/crypto/refund-claims): declared once, by
 * the storefront kit, which is published alone and cannot import this file.
 */
export type { RefundClaimStatus, StoreRefundClaimView }

/** The withdrawal statuses, as the model declares them. */
type WithdrawalStatus = InferTypeOf<typeof CryptoWithdrawal>["status"]

const CLAIM_STATUS_OF_WITHDRAWAL: Record<WithdrawalStatus, RefundClaimStatus> = {
  // Waiting for an admin's approval (docs/money-out.md#money-out-policy): to the shopper, on its way.
  awaiting_approval: "sending",
  requested: "sending",
  sending: "sending",
  completed: "sent",
  // The gateway holds an operation in error (spec §2.3): the shop decides; never sent twice.
  error: "failed",
  // A clear refusal puts the claim back to waiting (`releaseCryptoRefundClaim`); a row still naming it is read as failed.
  rejected: "failed",
  outcome_unknown: "unknown",
  not_found: "unknown",
  not_sent: "failed",
}

export interface ClaimRow {
  id: string
  order_id: string
  status: string
  psys_cid: string
  currency: string | null
  amount: string
  expires_at: Date | string
  address: string | null
  withdrawal_id: string | null
  error: string | null
}

export interface ClaimWithdrawal {
  status: string
  tx_urls?: string[] | null
}

/** The status a claim shows: the row's, expiry derived, and once claimed its withdrawal's. */
export function refundClaimStatus(row: Pick<ClaimRow, "status" | "expires_at" | "withdrawal_id">, withdrawal: ClaimWithdrawal | undefined, now: Date): RefundClaimStatus {
  if (row.status === "revoked") return "revoked"
  if (row.status === "waiting") return new Date(row.expires_at).getTime() <= now.getTime() ? "expired" : "waiting"
  if (withdrawal === undefined) return "sending"
  return Object.hasOwn(CLAIM_STATUS_OF_WITHDRAWAL, withdrawal.status) ? CLAIM_STATUS_OF_WITHDRAWAL[withdrawal.status as WithdrawalStatus] : "unknown"
}

/** A claim as the storefront shows it: the status derived, the refusal only while the shopper may enter another address. */
export function storeRefundClaimView(row: ClaimRow, withdrawal: ClaimWithdrawal | undefined, orderDisplayId: number | null, now: Date): StoreRefundClaimView {
  const status = refundClaimStatus(row, withdrawal, now)
  return {
    status,
    amount: row.amount,
    psys_cid: row.psys_cid,
    currency: row.currency,
    network: networkOf(row.psys_cid),
    order_display_id: orderDisplayId,
    expires_at: new Date(row.expires_at).toISOString(),
    address: row.address,
    tx_url: withdrawal?.tx_urls?.[0] ?? null,
    error: status === "waiting" ? row.error : null,
  }
}
