import { MedusaError } from "@medusajs/framework/utils"
import type { GatewayClient } from "../../gateway"
import type CryptoModuleService from "../../modules/crypto/service"
import type { CryptoAddressRecord, CryptoWithdrawalRecord } from "../../modules/crypto/service"
import { coinToFiat, exact, fiatMinorUnits, sumAmounts } from "../money"
import { listCurrencies, type RateCacheStore } from "../payment/currency-cache"
import { effectiveMoneyOutPolicy, pendingPolicyChanges, type MoneyOutPolicy } from "../config/money-out-policy"

/**
 * The money-out policy's decisions (docs/money-out.md#money-out-policy): whether money may leave to
 * these addresses now, and if not, under which rule. The policy as declared and stored is
 * src/core/config/money-out-policy.ts's; the workflows ask here before anything is recorded or
 * reaches the gateway.
 */

/** The rules a refusal names. */
export const MONEY_OUT_RULES = ["address_book", "cooling_off", "daily_limit", "refund_bound"] as const
export type MoneyOutRule = (typeof MONEY_OUT_RULES)[number]

/** How the merchant reads each rule's name. */
const RULE_WORDS: Record<MoneyOutRule, string> = { address_book: "address book", cooling_off: "cooling-off", daily_limit: "daily limit", refund_bound: "what the order received" }

/** Why the policy refuses: the rule, the words, the request field, and when a cooling-off ends. */
export interface MoneyOutRefusal {
  rule: MoneyOutRule
  message: string
  field: string
  /** The address it names (an address-book rule), else null. */
  address: string | null
  /** For a cooling-off: when the address becomes usable. */
  usable_from: Date | null
}

/** An address to pay and the request field that holds it (`recipients[1].address`, `to_address`). */
export interface PayeeAddress {
  field: string
  address: string
}

/** The address-book entries a decision reads (not removed, for the coin). */
export type AddressBookEntry = Pick<CryptoAddressRecord, "id" | "address" | "usable_from" | "added_at">

/** Allowed, through these address-book entries (none when the address book is off and none matched). */
export type AddressDecision = { allowed: true; address_ids: string[] } | { allowed: false; refusal: MoneyOutRefusal }

/**
 * Whether money in `psysCid` may go to each of `payees` at `now` under `policy`: with the address
 * book on, each address must be a saved entry of the coin (compared exactly: some coins' addresses
 * are case-sensitive) whose cooling-off has ended. The first address that fails names the refusal.
 * With the address book off, any address goes (the entries that match are still named).
 */
export function decideAddresses(policy: MoneyOutPolicy, book: readonly AddressBookEntry[], psysCid: string, payees: readonly PayeeAddress[], now: Date): AddressDecision {
  const ids: string[] = []
  for (const payee of payees) {
    const entry = book.find((candidate) => candidate.address === payee.address)
    if (entry !== undefined) ids.push(entry.id)
    if (!policy.address_book) continue
    if (entry === undefined) {
      const why = `${payee.address} is not in the address book for ${psysCid}: save it under Settings → Crypto → Money out; it becomes usable after the cooling-off (${policy.cooling_off_minutes} minutes)`
      return { allowed: false, refusal: refusalOf("address_book", payee.field, payee.address, null, why) }
    }
    const usableFrom = new Date(entry.usable_from)
    if (usableFrom.getTime() > now.getTime()) {
      const why = `${payee.address} was saved at ${new Date(entry.added_at).toISOString()} and becomes usable at ${usableFrom.toISOString()}`
      return { allowed: false, refusal: refusalOf("cooling_off", payee.field, payee.address, usableFrom, why) }
    }
  }
  return { allowed: true, address_ids: ids }
}

function refusalOf(rule: MoneyOutRule, field: string, address: string | null, usableFrom: Date | null, why: string): MoneyOutRefusal {
  return { rule, field, address, usable_from: usableFrom, message: `Refused by the money-out policy (rule: ${RULE_WORDS[rule]}): ${why}. Nothing was sent (field: ${field})` }
}

/** How far back a coin's daily limit counts: the last 24 hours (rolling, so midnight opens nothing). */
export const DAILY_LIMIT_WINDOW_MS = 24 * 60 * 60 * 1000

/** A withdrawal of the last 24 hours, as a daily limit counts it. */
export type CountedWithdrawal = Pick<CryptoWithdrawalRecord, "status" | "resolution" | "value_amount" | "value_currency">

/** Whether a withdrawal counts against its coin's daily limit: all but those that sent nothing and never will. */
function countsAgainstLimit(row: CountedWithdrawal): boolean {
  return row.status !== "rejected" && row.status !== "not_sent" && !(row.status === "error" && row.resolution === "failed")
}

/**
 * Whether a withdrawal worth `value` (in `currency`, the store's; null = unknown) passes its coin's
 * daily limit, given the coin's withdrawals of the last 24 hours (`recent`, valued when each was
 * asked, in the same currency). Refused when the sum would be above the limit, or when the value is
 * unknown (the gateway shows no rate) while a limit is set. Null: no limit, or within it.
 */
export function dailyLimitRefusal(policy: MoneyOutPolicy, psysCid: string, value: string | null, currency: string, recent: readonly CountedWithdrawal[]): MoneyOutRefusal | null {
  const limit = policy.daily_limits[psysCid]
  if (limit === undefined) return null
  if (value === null) {
    return refusalOf("daily_limit", "recipients", null, null, `the gateway shows no ${currency} rate for ${psysCid}, so the daily limit of ${limit} ${currency} cannot be checked`)
  }
  const counted = recent.filter((row) => countsAgainstLimit(row) && row.value_currency === currency && row.value_amount !== null)
  const spent = sumAmounts(counted.map((row) => row.value_amount ?? "0"))
  if (spent.plus(value).lte(limit)) return null
  return refusalOf(
    "daily_limit",
    "recipients",
    null,
    null,
    `${psysCid} withdrawals of the last 24 hours are worth ${spent.toFixed()} ${currency}; this one (${exact(value).toFixed()} ${currency}) would pass the daily limit of ${limit} ${currency}`
  )
}

/**
 * Whether a refund's coins stay within what its order received (docs/money-out.md#money-out-policy):
 * `received`, the coins of `psysCid` the order's invoices received; `out`, the coins of the order's
 * refunds and send-backs in that coin that left or may still leave, this one included. Null within.
 */
export function refundBoundRefusal(orderId: string, psysCid: string, received: string, out: string, field: string): MoneyOutRefusal | null {
  if (exact(out).lte(received)) return null
  return refusalOf("refund_bound", field, null, null, `order ${orderId}'s refunds in ${psysCid} (${exact(out).toFixed()}, this one included) would be more than the ${exact(received).toFixed()} ${psysCid} it received`)
}

/** The refusal as the error the route answers (400, its words naming the rule). */
export function refusalError(refusal: MoneyOutRefusal): MedusaError {
  return new MedusaError(MedusaError.Types.NOT_ALLOWED, refusal.message)
}

/** The part of our module the policy reads and audits. */
export type PolicyStore = Pick<CryptoModuleService, "listCryptoPolicyChanges" | "listCryptoAddresses" | "createCryptoMoneyOutAudits">

/** The policy in force for a provider entry at `now`: its medusa-config `moneyOut` with the admin's saved changes on top. */
export async function readMoneyOutPolicy(store: Pick<PolicyStore, "listCryptoPolicyChanges">, providerId: string, defaults: MoneyOutPolicy, now: Date): Promise<MoneyOutPolicy> {
  return effectiveMoneyOutPolicy(defaults, await store.listCryptoPolicyChanges({ provider_id: providerId }), now)
}

/** A payment the policy must let through: withdrawals (mass payouts too) and exchange payouts. */
export interface MoneyOutRequest {
  /** A refund only meets the refund bound (its address is the shopper's). */
  kind: "withdrawal" | "exchange" | "refund"
  provider_id: string
  psys_cid: string
  payees: PayeeAddress[]
  /** The admin user who asks. */
  actor: string | null
  /** What History shows of it (amounts, coins). */
  details: Record<string, unknown>
}

/**
 * Lets a payment through the policy, before it is recorded or sent: the address-book entries it
 * goes through, or a refusal, audited (who, when, which rule, which address) and thrown (400). The
 * allowed payment is audited by the caller once its record has an id ({@link auditAllowed}).
 */
export async function admitMoneyOut(store: PolicyStore, defaults: MoneyOutPolicy, request: MoneyOutRequest, now: Date): Promise<{ address_ids: string[]; policy: MoneyOutPolicy }> {
  const policy = await readMoneyOutPolicy(store, request.provider_id, defaults, now)
  const book = await store.listCryptoAddresses({ provider_id: request.provider_id, psys_cid: request.psys_cid, address: request.payees.map((payee) => payee.address), removed_at: null })
  const decision = decideAddresses(policy, book, request.psys_cid, request.payees, now)
  if (decision.allowed) return { address_ids: decision.address_ids, policy }
  throw await auditRefusal(store, request, decision.refusal)
}

/** Audits a refusal (who, which rule, what) and answers the error to throw. */
export async function auditRefusal(store: Pick<PolicyStore, "createCryptoMoneyOutAudits">, request: Pick<MoneyOutRequest, "kind" | "provider_id" | "actor" | "details">, refusal: MoneyOutRefusal): Promise<MedusaError> {
  await store.createCryptoMoneyOutAudits({
    provider_id: request.provider_id,
    action: request.kind === "withdrawal" ? "withdrawal_refused" : request.kind === "refund" ? "refund_refused" : "exchange_refused",
    actor: request.actor,
    rule: refusal.rule,
    address_ids: [],
    details: { ...request.details, message: refusal.message, address: refusal.address, usable_from: refusal.usable_from?.toISOString() ?? null },
  })
  return refusalError(refusal)
}

/**
 * Audits a payment the policy let through, once recorded: its id, who asked, the address-book
 * entries; `awaiting_approval` when it waits for another admin.
 */
export async function auditAllowed(store: Pick<PolicyStore, "createCryptoMoneyOutAudits">, request: MoneyOutRequest, subjectId: string, addressIds: string[], awaitingApproval = false): Promise<void> {
  await store.createCryptoMoneyOutAudits({
    provider_id: request.provider_id,
    action: request.kind === "exchange" ? "exchange_allowed" : awaitingApproval ? "withdrawal_awaiting_approval" : "withdrawal_allowed",
    actor: request.actor,
    subject_id: subjectId,
    address_ids: addressIds,
    details: request.details,
  })
}

/**
 * What `amount` of `psysCid` is worth in `fiat` at the gateway's current rate (spec §4.8, the cached
 * list), rounded up to the fiat's minor units (a limit is never passed by rounding down), or null
 * when the gateway shows no rate for the coin or cannot be read: the policy then takes the safe side.
 */
export async function valueInFiat(client: { currencies: Pick<GatewayClient["currencies"], "list"> }, store: RateCacheStore, fiat: string, psysCid: string, amount: string): Promise<string | null> {
  try {
    const rate = (await listCurrencies(client, store, fiat)).find((coin) => coin.psys_cid === psysCid)?.fiat_rate ?? null
    return rate === null ? null : coinToFiat(amount, rate, "up", fiatMinorUnits(fiat)).toFixed()
  } catch {
    return null
  }
}

/**
 * Whether a withdrawal worth `value` (store currency; null = unknown) waits for another admin's
 * approval: above the threshold, or of unknown value while a threshold is set.
 */
export function needsApproval(policy: MoneyOutPolicy, value: string | null): boolean {
  return above(policy.approval_threshold, value)
}

/**
 * Whether a refund the shopper claims, worth `value` (store currency; null = unknown), waits for an
 * admin's review: above the claim review threshold, or of unknown value while one is set.
 */
export function needsReview(policy: MoneyOutPolicy, value: string | null): boolean {
  return above(policy.claim_review_threshold, value)
}

const above = (threshold: string | null, value: string | null): boolean => threshold !== null && (value === null || exact(value).gt(threshold))

/**
 * Why `approver` may not approve this withdrawal, or null when they may: only one awaiting approval,
 * and only by another admin than the one who asked (a session without a user cannot approve).
 */
export function approvalProblem(withdrawal: Pick<CryptoWithdrawalRecord, "id" | "status" | "requested_by">, approver: string | null): string | null {
  if (withdrawal.status !== "awaiting_approval") return `Withdrawal ${withdrawal.id} is not waiting for approval (status ${withdrawal.status.replace("_", " ")})`
  if (approver === null) return `Withdrawal ${withdrawal.id} needs the approval of an admin user`
  if (withdrawal.requested_by === approver) return `Withdrawal ${withdrawal.id} was asked by you: another admin must approve it (money-out policy, rule: approval)`
  return null
}

/**
 * The clock of the policy's decisions: `Date.now`, which a test moves (jest.spyOn) to pass a
 * cooling-off without waiting for it.
 */
export const policyNow = (): Date => new Date(Date.now())

/** How many saved changes the Money out section lists (newest first). */
const CHANGES_SHOWN = 20

/**
 * The Money out section's policy: the deployment's values (`defaults`), the policy in force, the
 * loosenings still waiting with when each takes effect, and the latest saved changes.
 */
export async function describeMoneyOutPolicy(store: Pick<PolicyStore, "listCryptoPolicyChanges">, providerId: string, defaults: MoneyOutPolicy, now: Date) {
  const rows = await store.listCryptoPolicyChanges({ provider_id: providerId }, { order: { created_at: "DESC" } })
  return {
    provider_id: providerId,
    defaults,
    effective: effectiveMoneyOutPolicy(defaults, rows, now),
    pending: pendingPolicyChanges(rows, now),
    changes: rows.slice(0, CHANGES_SHOWN),
  }
}

/** A new withdrawal as the policy sees it, before it is recorded. */
export interface NewWithdrawal {
  provider_id: string
  psys_cid: string
  purpose: CryptoWithdrawalRecord["purpose"]
  /** A refund the shopper claimed with their own address (the claim review threshold applies). */
  claimed: boolean
  type: string
  recipients: ReadonlyArray<{ address: string; amount: string }>
  total_amount: string
  requested_by: string | null
  idempotency_key: string
}

/** What the policy decided for a new withdrawal: what to record with it, and what to audit once recorded. */
export interface WithdrawalAdmission {
  /** The merchant's withdrawal as audited; null for a refund (its address is the shopper's). */
  request: MoneyOutRequest | null
  address_ids: string[]
  /** Its value in the store currency when asked (null: unknown, or not valued: no rule needs it). */
  value_amount: string | null
  value_currency: string | null
  /** It waits for another admin's approval, or a claimed refund for an admin's review. */
  awaiting_approval: boolean
  /** The coin's daily limit to check when it is recorded, under the coin's lock (null: none). */
  daily_limit: { policy: MoneyOutPolicy } | null
}

/** What admitting a withdrawal reads: our module, the gateway's rates, the store currency, the clock. */
export interface AdmissionDeps {
  store: PolicyStore & RateCacheStore
  client: { currencies: Pick<GatewayClient["currencies"], "list"> }
  /** The deployment's policy (medusa-config `moneyOut`). */
  defaults: MoneyOutPolicy
  storeCurrency: () => Promise<string>
  now: Date
}

/**
 * The policy for a new withdrawal (docs/money-out.md#money-out-policy), before anything is recorded:
 * a merchant's withdrawal passes the address book (or is refused, audited, thrown) and is valued in
 * the store currency, waiting for approval above the threshold; a claimed refund waits for review
 * above its threshold. Other refunds and send-backs go as they are (the refund bound is checked once
 * recorded, with the order's other refunds).
 */
export async function admitWithdrawal(deps: AdmissionDeps, withdrawal: NewWithdrawal): Promise<WithdrawalAdmission> {
  const none: WithdrawalAdmission = { request: null, address_ids: [], value_amount: null, value_currency: null, awaiting_approval: false, daily_limit: null }
  const merchants = withdrawal.purpose === "withdrawal"
  if (!merchants && !withdrawal.claimed) return none
  const request: MoneyOutRequest = {
    kind: "withdrawal",
    provider_id: withdrawal.provider_id,
    psys_cid: withdrawal.psys_cid,
    payees: withdrawal.recipients.map((recipient, index) => ({ field: `recipients[${index}].address`, address: recipient.address })),
    actor: withdrawal.requested_by,
    details: { psys_cid: withdrawal.psys_cid, type: withdrawal.type, recipients: withdrawal.recipients, total_amount: withdrawal.total_amount, idempotency_key: withdrawal.idempotency_key },
  }
  const admitted = merchants ? await admitMoneyOut(deps.store, deps.defaults, request, deps.now) : { address_ids: [], policy: await readMoneyOutPolicy(deps.store, withdrawal.provider_id, deps.defaults, deps.now) }
  const { policy } = admitted
  const limited = merchants && policy.daily_limits[withdrawal.psys_cid] !== undefined
  const valued = limited || (merchants ? policy.approval_threshold : policy.claim_review_threshold) !== null
  const valueCurrency = valued ? await deps.storeCurrency() : null
  const value = valueCurrency === null ? null : await valueInFiat(deps.client, deps.store, valueCurrency, withdrawal.psys_cid, withdrawal.total_amount)
  return {
    request: merchants ? request : null,
    address_ids: admitted.address_ids,
    value_amount: value,
    value_currency: valueCurrency,
    awaiting_approval: merchants ? needsApproval(policy, value) : needsReview(policy, value),
    daily_limit: limited ? { policy } : null,
  }
}

/**
 * Records a merchant's withdrawal within its coin's daily limit: under the coin's lock (so two at
 * once cannot both pass a limit only one fits), the coin's withdrawals of the last 24 hours are
 * summed and the new one recorded, or the limit's refusal answered (nothing recorded).
 */
export async function recordWithinDailyLimit(
  store: Pick<CryptoModuleService, "inCryptoTransaction">,
  admission: WithdrawalAdmission & { daily_limit: { policy: MoneyOutPolicy } },
  row: Partial<CryptoWithdrawalRecord> & { provider_id: string; psys_cid: string },
  now: Date
): Promise<{ created: CryptoWithdrawalRecord } | { refusal: MoneyOutRefusal }> {
  return store.inCryptoTransaction(async (tx) => {
    await tx.lockMoneyOut(row.provider_id, row.psys_cid)
    const recent = await tx.withdrawals.listRequestedSince({ provider_id: row.provider_id, psys_cid: row.psys_cid, purpose: "withdrawal" }, new Date(now.getTime() - DAILY_LIMIT_WINDOW_MS))
    const refusal = dailyLimitRefusal(admission.daily_limit.policy, row.psys_cid, admission.value_amount, admission.value_currency ?? "", recent)
    return refusal === null ? { created: await tx.withdrawals.create(row) } : { refusal }
  })
}
