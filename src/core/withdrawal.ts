import { createHash } from "crypto"
import { GatewayApiError, GatewayParameterError, type Operation } from "../gateway"
import { exact, sumAmounts } from "./money"

/** One recipient of a withdrawal: an address and a positive decimal amount (a string). */
export interface WithdrawalRecipient {
  address: string
  amount: string
}

/** The largest `mass_cash_out` list we send (the sandbox's limit; spec §8 does not state one). */
export const MAX_RECIPIENTS = 100

/**
 * How long after the request an operation may still be this withdrawal's (the gateway's clock and
 * ours differ; a queued withdrawal may be created late). Operations created later are not offered.
 */
export const CANDIDATE_WINDOW_MS = 24 * 60 * 60 * 1000

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

/** What we know of a withdrawal when we look for its operation. */
export interface WithdrawalToMatch {
  id: string
  type: string
  psys_cid: string
  recipients: readonly WithdrawalRecipient[]
  requested_at: Date
}

/**
 * How an operation (spec §2.2) relates to a withdrawal:
 * - `match`: same type and coin, created at or after the request (whole seconds: `created_at_utc`
 *   has no milliseconds), and it carries exactly this withdrawal's recipients and amounts;
 * - `candidate`: same type and coin, but the gateway does not show enough to prove it (a shop
 *   without white-label gets no address, amount, coin or time, spec §2.2) — the merchant decides;
 * - `other`: provably not this withdrawal (another type, coin, recipient or amount, or created
 *   before the request or long after it).
 */
export interface OperationFit {
  fit: "match" | "candidate" | "other"
  /** Why, in the merchant's words (shown next to a candidate). */
  reasons: string[]
}

export function assessOperation(operation: Operation, withdrawal: WithdrawalToMatch): OperationFit {
  const other = (reason: string): OperationFit => ({ fit: "other", reasons: [reason] })
  if (operation.type !== withdrawal.type) return other(`another type (${operation.type})`)
  const reasons: string[] = [`same type (${operation.type})`]
  let provable = true
  if (operation.psys_cid !== undefined && operation.psys_cid !== null) {
    if (operation.psys_cid !== withdrawal.psys_cid) return other(`another coin (${operation.psys_cid})`)
    reasons.push(`same coin (${operation.psys_cid})`)
  } else {
    reasons.push("coin not shown by the gateway (listed under this coin)")
  }
  const createdAt = operation.created_at_utc
  if (createdAt !== undefined && createdAt !== null) {
    const requestedSecond = Math.floor(withdrawal.requested_at.getTime() / 1000)
    if (createdAt < requestedSecond) return other("created before the request")
    if (createdAt * 1000 > withdrawal.requested_at.getTime() + CANDIDATE_WINDOW_MS) return other("created more than a day after the request")
    reasons.push(`created ${createdAt - requestedSecond} s after the request`)
  } else {
    provable = false
    reasons.push("creation time not shown by the gateway")
  }

  if (withdrawal.type === "cash_out") {
    const [recipient] = withdrawal.recipients
    const amount = operation.amount ?? operation.params?.amount ?? null
    const address = operation.wallet_hash ?? null
    if (recipient === undefined) return other("the withdrawal has no recipient")
    if (address !== null && address !== recipient.address) return other("another destination address")
    if (amount !== null && !amount.eq(recipient.amount)) return other(`another amount (${amount.toFixed()})`)
    if (address === null || amount === null) {
      provable = false
      reasons.push("destination or amount not shown by the gateway")
    } else {
      reasons.push("same address and amount")
    }
  } else {
    const sendmany = operation.sendmany ?? null
    if (sendmany === null) {
      provable = false
      reasons.push("recipients not shown by the gateway")
    } else {
      const addresses = Object.keys(sendmany)
      const same =
        addresses.length === withdrawal.recipients.length &&
        withdrawal.recipients.every((recipient) => {
          const amount = sendmany[recipient.address]
          return amount !== undefined && amount.eq(recipient.amount)
        })
      if (!same) return other("other recipients or amounts")
      reasons.push("same recipients and amounts")
    }
  }
  return { fit: provable ? "match" : "candidate", reasons }
}

/** Does `operation` provably carry exactly this withdrawal (see {@link assessOperation})? */
export function operationMatches(operation: Operation, withdrawal: WithdrawalToMatch): boolean {
  return assessOperation(operation, withdrawal).fit === "match"
}

/** An operation shown to the merchant as possibly this withdrawal, with why. */
export interface WithdrawalCandidate {
  operation_id: string
  type: string
  status: string
  psys_cid: string | null
  /** ISO time, when the gateway shows it. */
  created_at: string | null
  address: string | null
  amount: string | null
  /** True when the operation carries exactly this withdrawal (several such: ambiguous). */
  exact: boolean
  reasons: string[]
}

/** The operations searched, each with the withdrawal that owns it already (ours or another), if any. */
export interface SearchedOperation {
  operation: Operation
  owner_id: string | null
}

/** `candidates`: every operation that could be it (the one to settle with included). */
export type ReconcileDecision =
  | { decision: "settle"; operation: Operation; candidates: WithdrawalCandidate[] }
  | { decision: "unknown"; candidates: WithdrawalCandidate[] }

/**
 * What a search of the operations proves (docs/money-out.md#operations-matching):
 * settled only by the ONE operation that matches exactly and no other withdrawal owns; several
 * exact matches, or operations that cannot be told apart (no details), stay unknown and are shown
 * to the merchant as candidates. Nothing found proves nothing: the outcome stays unknown.
 */
export function decideReconciliation(withdrawal: WithdrawalToMatch, searched: readonly SearchedOperation[]): ReconcileDecision {
  const free = searched.filter((item) => item.owner_id === null || item.owner_id === withdrawal.id)
  const assessed = free.map((item) => ({ operation: item.operation, ...assessOperation(item.operation, withdrawal) }))
  const matches = assessed.filter((item) => item.fit === "match")
  const candidates = assessed
    .filter((item) => item.fit !== "other")
    .map(({ operation, fit, reasons }): WithdrawalCandidate => ({
      operation_id: operation.id,
      type: operation.type,
      status: operation.status,
      psys_cid: operation.psys_cid ?? null,
      created_at: operation.created_at_utc === undefined || operation.created_at_utc === null ? null : new Date(operation.created_at_utc * 1000).toISOString(),
      address: operation.wallet_hash ?? null,
      amount: (operation.amount ?? operation.params?.amount ?? null)?.toFixed() ?? null,
      exact: fit === "match",
      reasons: matches.length > 1 && fit === "match" ? [...reasons, `${matches.length} operations match exactly: which one is it?`] : reasons,
    }))
  return matches.length === 1 ? { decision: "settle", operation: matches[0].operation, candidates } : { decision: "unknown", candidates }
}

/**
 * Is this gateway error a clear refusal, i.e. provably not executed? Only an error answer of the
 * gateway with a 4xx status (spec §7 envelope) or a parameter the client refused before sending.
 * Anything else — a timeout, a reset, a 5xx, a 2xx whose body is not JSON — may have been
 * executed: an unknown outcome.
 */
export function isClearRefusal(error: unknown): boolean {
  if (error instanceof GatewayParameterError) return true
  return error instanceof GatewayApiError && error.status >= 400 && error.status < 500
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
