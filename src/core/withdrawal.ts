import { createHash } from "crypto"
import type { Operation } from "../gateway"
import { exact, sumAmounts } from "./money"

/** One recipient of a withdrawal: an address and a positive decimal amount (a string). */
export interface WithdrawalRecipient {
  address: string
  amount: string
}

/** The largest `mass_cash_out` list we send (the sandbox's limit; spec §8 does not state one). */
export const MAX_RECIPIENTS = 100


/** After this long without a matching operation, an unsure withdrawal is declared never executed. */
export const OUTCOME_UNKNOWN_GRACE_MS = 15 * 60 * 1000

/** Amounts as written by the admin, normalised ("1.50" → "1.5") so equal amounts compare equal. */
export function normalizeRecipients(recipients: readonly WithdrawalRecipient[]): WithdrawalRecipient[] {
  return recipients.map((recipient) => ({ address: recipient.address.trim(), amount: exact(recipient.amount).toFixed() }))
}

export function totalAmount(recipients: readonly WithdrawalRecipient[]): string {
  return sumAmounts(recipients.map((recipient) => recipient.amount)).toFixed()
}

/** What makes two withdrawals the same payment: coin, type, and the recipients in order. */
export function withdrawalFingerprint(psysCid: string, type: string, recipients: readonly WithdrawalRecipient[]): string {
  const canonical = JSON.stringify([psysCid, type, normalizeRecipients(recipients).map((r) => [r.address, r.amount])])
  return createHash("sha256").update(canonical).digest("hex")
}

/** Our status for a gateway result (spec §2.3: `completed` or `error`; anything else is still open). */
export function statusOfGatewayResult(status: string): "completed" | "error" | "sending" {
  if (status === "completed") return "completed"
  if (status === "error" || status === "cancelled" || status === "expired") return "error"
  return "sending"
}

/**
 * Does `operation` (spec §2.2) carry exactly this withdrawal? Used to settle an unsure outcome.
 * cash_out: the destination and the amount; mass_cash_out: `sendmany` holds every recipient with
 * its amount and nothing else. Created no earlier than a few minutes before we asked (clock skew).
 */
export function operationMatches(
  operation: Operation,
  withdrawal: { type: string; psys_cid: string; recipients: readonly WithdrawalRecipient[]; requested_at: Date }
): boolean {
  if (operation.type !== withdrawal.type) return false
  if (operation.psys_cid !== undefined && operation.psys_cid !== null && operation.psys_cid !== withdrawal.psys_cid) return false
  const createdAt = operation.created_at_utc
  if (createdAt !== undefined && createdAt !== null && createdAt * 1000 < withdrawal.requested_at.getTime() - 5 * 60 * 1000) {
    return false
  }
  if (withdrawal.type === "cash_out") {
    const [recipient] = withdrawal.recipients
    const amount = operation.amount ?? operation.params?.amount
    return (
      recipient !== undefined &&
      operation.wallet_hash === recipient.address &&
      amount !== undefined &&
      amount !== null &&
      amount.eq(recipient.amount)
    )
  }
  const sendmany = operation.sendmany
  if (sendmany === undefined || sendmany === null) return false
  const addresses = Object.keys(sendmany)
  if (addresses.length !== withdrawal.recipients.length) return false
  return withdrawal.recipients.every((recipient) => {
    const amount = sendmany[recipient.address]
    return amount !== undefined && amount.eq(recipient.amount)
  })
}

/** The recipients stored on a withdrawal row (a JSON array; see reserve-crypto-withdrawal). */
export function recipientsOf(stored: unknown): WithdrawalRecipient[] {
  if (!Array.isArray(stored)) return []
  return stored.flatMap((item: unknown) => {
    if (typeof item !== "object" || item === null) return []
    const address = (item as Record<string, unknown>).address
    const amount = (item as Record<string, unknown>).amount
    return typeof address === "string" && typeof amount === "string" ? [{ address, amount }] : []
  })
}
