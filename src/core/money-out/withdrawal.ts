import { createHash } from "crypto"
import type { InferTypeOf } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { CryptoWithdrawal } from "../../modules/crypto/models/crypto-withdrawal"
import { GatewayApiError, GatewayParameterError, type GatewayClient, type Operation } from "../../gateway"
import { listCurrencies, type RateCacheStore } from "../payment/currency-cache"
import { amountProblem, coinPlaces, exact, sumAmounts } from "../money"
import { GatewayStatus, isKnownStatus, type KnownStatus } from "../payment/payment-state"

/** One recipient of a withdrawal: an address and a positive decimal amount (a string). */
export interface WithdrawalRecipient {
  address: string
  amount: string
}

/**
 * Withdrawal statuses not yet proven sent or not sent: the money may still leave
 * (docs/money-out.md). An `error` withdrawal whose duplicate guard is kept (failed at the gateway,
 * no decision yet) holds its money too: see `withdrawalHoldsMoney`.
 */
export const UNSETTLED_WITHDRAWAL_STATUSES = ["requested", "sending", "outcome_unknown"] as const

/**
 * Whether the gateway has not proved what became of the withdrawal (unsettled, no operation known):
 * the merchant may resolve it, and the operations that could be it are looked up for them.
 */
export function isUnproven(row: { status: string; operation_id: string | null }): boolean {
  return (UNSETTLED_WITHDRAWAL_STATUSES as readonly string[]).includes(row.status) && !row.operation_id
}

/** Failed at the gateway (a 201 with `status: "error"`, spec §2.3) and not yet decided by the merchant. */
export function isUndecidedGatewayFailure(row: { status: string; active_fingerprint: string | null }): boolean {
  return row.status === "error" && row.active_fingerprint !== null
}

/** Whether a withdrawal may still take money out: unsettled, or failed at the gateway and undecided. */
export function withdrawalHoldsMoney(row: { status: string; active_fingerprint: string | null }): boolean {
  return (UNSETTLED_WITHDRAWAL_STATUSES as readonly string[]).includes(row.status) || isUndecidedGatewayFailure(row)
}

/** Purposes (of the withdrawal model) that send back money an invoice received beyond what the order kept. */
export const SEND_BACK_PURPOSES: ReadonlySet<InferTypeOf<typeof CryptoWithdrawal>["purpose"]> = new Set(["overpayment", "underpayment", "late_payment", "unexplained"])

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

/**
 * Our status for a withdrawal's gateway result (spec §2.3: `completed` or `error`) or its operation's
 * status (spec §3: `cancelled` and `expired` end it unsent too); anything else is still open.
 */
const WITHDRAWAL_OUTCOME: Record<KnownStatus, "completed" | "error" | "sending"> = {
  [GatewayStatus.Completed]: "completed",
  [GatewayStatus.Error]: "error",
  [GatewayStatus.Cancelled]: "error",
  [GatewayStatus.Expired]: "error",
  [GatewayStatus.New]: "sending",
  [GatewayStatus.Pending]: "sending",
  [GatewayStatus.PendingInternal]: "sending",
  [GatewayStatus.Mismatch]: "sending",
  [GatewayStatus.CancelledDuplicate]: "sending",
}

export function statusOfGatewayResult(status: string): "completed" | "error" | "sending" {
  return isKnownStatus(status) ? WITHDRAWAL_OUTCOME[status] : "sending"
}

/**
 * Does a withdrawal in this status free its duplicate guard (`active_fingerprint`)? Only once the
 * gateway says it `completed`. An `error` answer (spec §2.3) does not prove nothing left: the
 * gateway holds an operation for it, so the guard stays until the merchant decides
 * (docs/money-out.md#failed-at-the-gateway); `sending` is still open.
 */
export function releasesGuard(status: "completed" | "error" | "sending"): boolean {
  return status === "completed"
}

/** One read of a failed withdrawal's operation (spec §4.4): what it showed, or why it could not be read. */
export type GatewayFailureRead =
  | { at: string; ok: true; status: string; status_code: number | null; amount: string | null; fee: string | null; tx_urls: string[]; finished_at: string | null }
  | { at: string; ok: false; error: string }

/**
 * What the plugin knows of a withdrawal the gateway answered with status `error` (spec §2.3):
 * the operation, the status answered and when, and each read of the operation since (newest
 * last, the last {@link MAX_EVIDENCE_READS} kept). Stored as `gateway_evidence`.
 */
export interface GatewayFailureEvidence {
  operation_id: string
  answered_status: string
  answered_at: string
  reads: GatewayFailureRead[]
}

export const MAX_EVIDENCE_READS = 10

/** What an operation read back shows (spec §2.2 detail view). */
export function readOfOperation(operation: Operation, at: Date): GatewayFailureRead {
  const finished = operation.finished_at_utc
  return {
    at: at.toISOString(),
    ok: true,
    status: operation.status,
    status_code: operation.status_code ?? null,
    amount: (operation.amount ?? null)?.toFixed() ?? null,
    fee: (operation.fee ?? null)?.toFixed() ?? null,
    tx_urls: [...operation.tx_url],
    finished_at: typeof finished === "number" ? new Date(finished * 1000).toISOString() : null,
  }
}

/**
 * Reads the operation of a withdrawal answered `error` back from the gateway (spec §4.4). A read
 * that fails is itself the evidence (recorded, never thrown): the `error` answer stands either way.
 */
export async function readBackFailedOperation(client: { operations: Pick<GatewayClient["operations"], "retrieve"> }, operationId: string, at: Date): Promise<GatewayFailureRead> {
  try {
    return readOfOperation(await client.operations.retrieve(operationId), at)
  } catch (error) {
    // Gateway client errors never carry the api_key (src/gateway/core/errors.ts).
    return { at: at.toISOString(), ok: false, error: error instanceof Error ? error.message : String(error) }
  }
}

/** The evidence after one more read: a new record for a new operation, else the read appended. */
export function withFailureRead(
  previous: GatewayFailureEvidence | null,
  answer: { operation_id: string; status: string; at: Date },
  read: GatewayFailureRead
): GatewayFailureEvidence {
  const base: GatewayFailureEvidence =
    previous !== null && previous.operation_id === answer.operation_id
      ? previous
      : { operation_id: answer.operation_id, answered_status: answer.status, answered_at: answer.at.toISOString(), reads: [] }
  return { ...base, reads: [...base.reads, read].slice(-MAX_EVIDENCE_READS) }
}

/** The evidence as the `gateway_evidence` JSON column takes it (model.json() is typed as a record). */
export function toEvidenceJson(evidence: GatewayFailureEvidence): Record<string, unknown> {
  return { ...evidence }
}

/** The stored evidence, if the row holds one (see {@link GatewayFailureEvidence}). */
export function failureEvidenceOf(stored: unknown): GatewayFailureEvidence | null {
  if (typeof stored !== "object" || stored === null) return null
  const value = stored as Record<string, unknown>
  if (typeof value.operation_id !== "string" || typeof value.answered_status !== "string" || typeof value.answered_at !== "string" || !Array.isArray(value.reads)) return null
  return stored as GatewayFailureEvidence // shape checked above; written only by withFailureRead
}

/**
 * What the merchant reads about a withdrawal that failed at the gateway (the admin API's
 * `error_message`, History and the resolve panel): the operation, its status, the last read.
 */
export function failedAtGatewayMessage(evidence: GatewayFailureEvidence): string {
  const last = evidence.reads[evidence.reads.length - 1]
  const read =
    last === undefined
      ? "not read back yet"
      : last.ok
        ? `read back at ${last.at}: status ${last.status}${last.tx_urls.length > 0 ? `, tx ${last.tx_urls.join(" ")}` : ""}`
        : `reading it back at ${last.at} failed: ${last.error}`
  return (
    `Failed at the gateway: operation ${evidence.operation_id}, status ${evidence.answered_status} (answered at ${evidence.answered_at}; ${read}). ` +
    `It is not sent again by itself: check the operation at the gateway, then resolve it ("failed: allow sending again", with a note) to send the same payment again.`
  )
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

/** The decimal places of a coin, from the gateway's currency list (spec §2.4 `precision`, cached); 8 when the list does not show it. */
export async function placesOfCoin(client: { currencies: Pick<GatewayClient["currencies"], "list"> }, store: RateCacheStore, psysCid: string): Promise<number> {
  // Withdrawal results are in USD (spec §8); `precision` does not depend on the fiat of the list.
  const coins = await listCurrencies(client, store, "USD")
  return coinPlaces(coins.find((coin) => coin.psys_cid === psysCid)?.precision)
}

/** One amount to check, with the field that holds it in the request (`recipients[2].amount`). */
export interface AmountToCheck {
  field: string
  value: string
}

/**
 * Refuses, before anything is recorded or sent, every amount that is not a plain positive decimal
 * within `places` decimal places of `unit` (`amountProblem`, docs/money-out.md#amounts). The error
 * names each field ("recipients[2].amount: at most 8 decimal places for BTC").
 */
export function checkAmounts(amounts: readonly AmountToCheck[], places: number, unit: string): void {
  const problems = amounts.flatMap(({ field, value }) => {
    const problem = amountProblem(value, places, unit)
    return problem === null ? [] : [{ field, message: `${field}: ${problem}` }]
  })
  if (problems.length > 0) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `${problems.map((p) => p.message).join("; ")} (field: ${problems[0].field})`)
  }
}
