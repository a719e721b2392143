import { Decimal } from "decimal.js"
import { isDecimalString, type GatewayClient, type Operation } from "../../gateway"
import type CryptoModuleService from "../../modules/crypto/service"
import type { ResolvedCryptoOptions } from "../config/options"
import { ORDER_OUTCOMES, readOrderOutcomes, type OrderOutcome, type OrderOutcomeRules, type OrderRule } from "../config/order-rules"
import { exact, fiatToMinorUnits } from "../money"
import {
  isCryptoSessionStatus,
  mapInvoiceChain,
  mapInvoiceStatus,
  type CryptoSessionStatus,
  type InvoiceObservation,
  type SessionOutcome,
  type StatusPolicy,
} from "./payment-state"

/**
 * The invoice-chain assessment: where an invoice we created and its currency-switch chain stand at
 * the gateway, mapped through the status map (payment-state.ts). The one assessment every path
 * uses (the provider's authorize/capture/status, callbacks, the reconciliation job): the gateway's
 * answer decides money states, never a callback alone.
 */

/** The invoice we created: its `txn_id` (first of any switch chain) and our `order_number`. */
export interface AssessedInvoice {
  txn_id: string
  order_number: string | undefined
}

/** The status map's verdict on a chain, with the invoice that decided and what it showed. */
export interface InvoiceAssessment {
  outcome: SessionOutcome
  /** The invoice of the chain that decided. */
  active: Operation
  observation: InvoiceObservation
  /** The coin of the deciding invoice: every amount of the observation is in it. */
  coin: InvoiceCoin
  /** The other invoices of the chain that received money (e.g. a `cancelled duplicate` paid too). */
  siblingsWithMoney: ChainMember[]
}

/**
 * The coin of one invoice: `psys_cid` and `currency` from the operation (white-label shops, spec
 * §2.2), else from its latest verified callback (spec §6.1: `currency` always, `psys_cid` for
 * white-label shops). A plain shop's hosted-page choice is known only by the callback's
 * `currency` code; the caller maps it to a coin ID.
 */
export interface InvoiceCoin {
  psys_cid: string | null
  currency: string | null
}

/** One invoice of a chain as the status map saw it, amounts as decimal strings in its coin. */
export interface ChainMember extends InvoiceCoin {
  txn_id: string
  status: string
  kind: SessionOutcome["kind"]
  received: string | null
  expected: string | null
}

/** The part of the gateway client the assessment reads (spec §4.4). */
export interface OperationReader {
  operations: Pick<GatewayClient["operations"], "retrieve">
}

/** The part of our module the assessment reads: the verified callbacks of the chain. */
export type CallbackSource = Pick<CryptoModuleService, "listCryptoCallbacks">

/**
 * The status policy of one invoice: the merchant's tolerance, and whether its order is placed on
 * detection by the order rules (src/core/config/order-rules.ts: first matching rule, else the
 * order-on-detection setting) for the invoice's coin and fiat amount. The sync's assess step and
 * the provider build it the same way, so the reading the one stores the other takes
 * (`usableStoredReading`).
 */
export function statusPolicy(
  options: PolicyOptions,
  invoice: PlacementFacts
): StatusPolicy {
  return {
    orderOnDetection: placementOf(options.orderRules, options.orderOnDetection, invoice),
    underpaidTolerancePercent: options.underpaidTolerancePercent,
    outcomes: options.orderOutcomes,
  }
}

/** The options a status policy is built from: the order rules, per placement and per outcome, and the tolerance. */
export type PolicyOptions = Pick<ResolvedCryptoOptions, "orderOnDetection" | "orderRules" | "orderOutcomes" | "underpaidTolerancePercent">

/**
 * A reader that asks the gateway once per operation: a second `retrieve` of the same id answers
 * the first one's result (or failure). For one assessment only, never kept: the next callback or
 * job run reads the gateway afresh.
 */
export function readOnce(client: OperationReader): OperationReader {
  const reads = new Map<string, Promise<Operation>>()
  return {
    operations: {
      retrieve: (id: string) => {
        let read = reads.get(id)
        if (read === undefined) {
          read = client.operations.retrieve(id)
          reads.set(id, read)
        }
        return read
      },
    },
  }
}

/**
 * Assesses an invoice under its own status policy when its coin may be known only from the
 * gateway's reading (a plain shop's hosted-page choice, spec §6.1 `currency`): `assess` under the
 * policy of the coin known so far, `coinOf` resolves the coin the reading shows, and when the
 * order rules place that coin's order differently, `assess` again under its policy. Both passes
 * read through one `readOnce(client)`: the second maps the same gateway reading again and asks the
 * gateway nothing. Returns the reading, the policy it was mapped with and the coin `coinOf`
 * resolved for it (null when none).
 */
export async function assessUnderInvoicePolicy<T>(
  options: PolicyOptions,
  invoice: PlacementFacts,
  client: OperationReader,
  assess: (policy: StatusPolicy, reader: OperationReader) => Promise<T>,
  coinOf: (reading: T) => Promise<string | null>
): Promise<{ reading: T; policy: StatusPolicy; psys_cid: string | null }> {
  const reader = readOnce(client)
  const policy = statusPolicy(options, invoice)
  const reading = await assess(policy, reader)
  const psysCid = await coinOf(reading)
  // A reading that names no coin (or one not resolved) keeps the coin the invoice had.
  const resolved = statusPolicy(options, { ...invoice, psys_cid: psysCid ?? invoice.psys_cid })
  if (resolved.orderOnDetection === policy.orderOnDetection) return { reading, policy, psys_cid: psysCid }
  const again = await assess(resolved, reader)
  return { reading: again, policy: resolved, psys_cid: await coinOf(again) }
}

/** The coin a stored reading names (`psys_cid`), else null: the stored reading's own policy is that coin's. */
export function storedReadingCoin(stored: unknown): string | null {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return null
  const value = (stored as Record<string, unknown>).psys_cid
  return typeof value === "string" ? value : null
}

/**
 * Asks the gateway where an invoice and its switch chain stand, and maps that through the status
 * map.
 *
 * The chain is the invoice, its `child_ids` (spec §2.2, white-label shops only) and every invoice
 * a verified callback tied to it (`switch_id` or our `order_number`, spec §6.1): a shop without
 * white-label sees the switched invoices only through their callbacks.
 */
export async function assessInvoiceChain(
  client: OperationReader,
  callbacks: CallbackSource | undefined,
  invoice: AssessedInvoice,
  policy: StatusPolicy
): Promise<InvoiceAssessment> {
  const stored: StoredCallbackAmounts[] = []
  if (callbacks !== undefined) {
    const filters: Array<Record<string, string>> = [{ txn_id: invoice.txn_id }, { switch_id: invoice.txn_id }]
    if (invoice.order_number !== undefined) {
      filters.push({ order_number: invoice.order_number })
    }
    const rows = await callbacks.listCryptoCallbacks({ $or: filters }, { select: ["txn_id", "fields", "created_at"] })
    for (const callback of rows) {
      stored.push({ txn_id: callback.txn_id, fields: callback.fields as Record<string, unknown>, created_at: callback.created_at })
    }
  }
  const related = new Set<string>()
  for (const callback of stored) {
    if (callback.txn_id !== null && callback.txn_id !== invoice.txn_id) related.add(callback.txn_id)
  }
  const chain = await readInvoiceChain(client, invoice.txn_id, [...related])
  const hints = callbackAmountsByInvoice(stored)
  const observations = chain.map((operation) => observationOf(operation, hints.get(operation.id)))
  const { outcome, index } = mapInvoiceChain(observations, policy)
  const at = index >= 0 ? index : 0
  const coins = chain.map((operation) => coinOf(operation, hints.get(operation.id)))
  const siblingsWithMoney: ChainMember[] = []
  chain.forEach((operation, i) => {
    const received = observations[i].received
    if (i === at || received === undefined || !received.gt(0)) return
    siblingsWithMoney.push({
      txn_id: operation.id,
      status: operation.status,
      kind: mapInvoiceStatus(observations[i], policy).kind,
      received: received.toFixed(),
      expected: observations[i].expected?.toFixed() ?? null,
      ...coins[i],
    })
  })
  return { outcome, active: chain[at], observation: observations[at], coin: coins[at], siblingsWithMoney }
}

function coinOf(operation: Operation, hint: CallbackAmounts | undefined): InvoiceCoin {
  return {
    psys_cid: operation.psys_cid ?? hint?.psys_cid ?? null,
    currency: operation.currency ?? hint?.currency ?? null,
  }
}

/** The Medusa session status of an assessment (a duplicate says nothing: still pending). */
export function sessionStatusOf(assessment: InvoiceAssessment): CryptoSessionStatus {
  const { outcome } = assessment
  return outcome.kind === "duplicate" ? "pending" : outcome.sessionStatus
}

/** An assessment as plain strings, for session data and workflow results (never a float). */
export interface AssessmentFields {
  kind: SessionOutcome["kind"]
  session_status: CryptoSessionStatus
  gateway_status: string
  active_txn_id: string
  received_amount: string | null
  expected_amount: string | null
  overpaid_amount: string | null
  /** The shortfall of an invoice accepted as paid within the underpayment tolerance. */
  underpaid_amount: string | null
  refund_due_amount: string | null
  /** Captured for the fiat value of what arrived, not the session amount (underpaid `capture_received`, docs/books.md#order-rules). */
  capture_received: boolean
  /** The coin of the deciding invoice (see InvoiceCoin); every amount above is in it. */
  psys_cid: string | null
  currency: string | null
  siblings_with_money: ChainMember[]
}

export function assessmentFields(assessment: InvoiceAssessment): AssessmentFields {
  const { outcome, active, observation } = assessment
  return {
    kind: outcome.kind,
    session_status: sessionStatusOf(assessment),
    gateway_status: active.status,
    active_txn_id: active.id,
    received_amount: observation.received?.toFixed() ?? null,
    expected_amount: observation.expected?.toFixed() ?? null,
    overpaid_amount: outcome.kind === "paid" ? outcome.overpaid?.toFixed() ?? null : null,
    underpaid_amount: outcome.kind === "paid" ? outcome.underpaid?.toFixed() ?? null : null,
    refund_due_amount: outcome.kind === "failed" ? outcome.refundDue?.toFixed() ?? null : null,
    capture_received: outcome.kind === "paid" && outcome.capture === "received",
    psys_cid: assessment.coin.psys_cid,
    currency: assessment.coin.currency,
    siblings_with_money: assessment.siblingsWithMoney,
  }
}

/**
 * Reads an invoice and the invoices a currency switch created from it (spec §2.1: `child_ids`;
 * spec §4.4), plus `relatedIds` known from verified callbacks. The first element is the invoice
 * itself.
 */
async function readInvoiceChain(client: OperationReader, txnId: string, relatedIds: readonly string[]): Promise<Operation[]> {
  const first = await client.operations.retrieve(txnId)
  const others = new Set([...(first.child_ids ?? []), ...relatedIds])
  others.delete(txnId)
  const children = await Promise.all([...others].map((id) => client.operations.retrieve(id)))
  return [first, ...children]
}

/** Amounts a verified callback told us about one invoice (spec §6.1: `amount`, `invoice_total_sum`). */
export interface CallbackAmounts {
  received?: Decimal | undefined
  expected?: Decimal | undefined
  /** The coin the callback names (spec §6.1: `currency`; `psys_cid` for white-label shops). */
  psys_cid?: string | undefined
  currency?: string | undefined
}

/**
 * One operation as the status map sees it. The operation's own amounts win (spec §2.2: `amount`
 * is what was received, `sum` what the invoice asks including a client-paid commission); a shop
 * without white-label gets no amounts there (spec §2.2), so the last verified callback's amounts
 * fill in (spec §6.1).
 */
function observationOf(operation: Operation, hint: CallbackAmounts | undefined): InvoiceObservation {
  const received = operation.amount ?? operation.actual_sum ?? hint?.received ?? undefined
  const expected = operation.sum ?? operation.params?.amount ?? hint?.expected ?? undefined
  return { status: operation.status, received: received ?? undefined, expected: expected ?? undefined }
}

export interface StoredCallbackAmounts {
  txn_id: string | null
  fields: Record<string, unknown>
  created_at: Date | string
}

function decimalField(fields: Record<string, unknown>, name: string): Decimal | undefined {
  const value = fields[name]
  return typeof value === "string" && isDecimalString(value.trim()) ? new Decimal(value.trim()) : undefined
}

function textField(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name]
  return typeof value === "string" && /^[A-Za-z0-9_.-]{1,32}$/.test(value.trim()) ? value.trim() : undefined
}

/**
 * The amounts of the latest verified callback per invoice (spec §6.1: `amount` is what was
 * received, `invoice_total_sum` what the invoice asks). Used when the operation itself carries no
 * amounts (shops without white-label, spec §2.2).
 */
export function callbackAmountsByInvoice(callbacks: readonly StoredCallbackAmounts[]): Map<string, CallbackAmounts> {
  const latest = new Map<string, StoredCallbackAmounts>()
  for (const callback of callbacks) {
    if (callback.txn_id === null) continue
    const seen = latest.get(callback.txn_id)
    if (seen === undefined || new Date(callback.created_at).getTime() >= new Date(seen.created_at).getTime()) {
      latest.set(callback.txn_id, callback)
    }
  }
  const amounts = new Map<string, CallbackAmounts>()
  for (const [txnId, callback] of latest) {
    amounts.set(txnId, {
      received: decimalField(callback.fields, "amount"),
      expected: decimalField(callback.fields, "invoice_total_sum") ?? decimalField(callback.fields, "invoice_sum"),
      psys_cid: textField(callback.fields, "psys_cid"),
      currency: textField(callback.fields, "currency"),
    })
  }
  return amounts
}

/**
 * What the provider's authorize and capture need of an assessment: the verdict, the deciding
 * invoice and its amounts (decimal strings in its coin).
 */
export type GatewayReading = Omit<AssessmentFields, "siblings_with_money">

/**
 * One gateway reading kept on the invoice row (`crypto_invoice.gateway_reading`), written by the
 * sync's assess step under the invoice's lock (docs/architecture.md#one-gateway-read-per-callback):
 * what the gateway said, for which chain, when, and under which status policy.
 */
export interface StoredGatewayReading extends GatewayReading {
  /** The chain it was read for: the invoice's `txn_id` (the first of its switch chain). */
  txn_id: string
  /** When the gateway was read (ISO 8601). */
  read_at: string
  /** The status policy it was mapped with (the merchant's settings at that moment). */
  order_on_detection: boolean
  underpaid_tolerance_percent: string
  order_outcomes: OrderOutcomeRules
}

/**
 * How long a stored reading stands in for a gateway read: long enough for the apply step's Medusa
 * workflows (authorize, capture) to take it, short enough that no other checkout acts on an old one.
 */
export const STORED_READING_TTL_MS = 30_000

/** How far in the future a reading may say it was made (instances' clocks differ a little). */
export const STORED_READING_CLOCK_SKEW_MS = 2_000

/** The part of an assessment the provider answers Medusa with. */
export function gatewayReadingOf(assessment: InvoiceAssessment): GatewayReading {
  const { siblings_with_money: _siblings, ...reading } = assessmentFields(assessment)
  return reading
}

/** What the assess step writes on the invoice row; `readAt` is when it asked the gateway. */
export function storedReadingOf(txnId: string, assessment: InvoiceAssessment, policy: StatusPolicy, readAt: Date): StoredGatewayReading {
  return storedReadingOfFields(txnId, assessmentFields(assessment), policy, readAt)
}

/** The same from an assessment's fields (a root and its top-ups mapped together, top-up.ts). */
export function storedReadingOfFields(txnId: string, fields: AssessmentFields, policy: StatusPolicy, readAt: Date): StoredGatewayReading {
  const { siblings_with_money: _siblings, ...reading } = fields
  return {
    ...reading,
    txn_id: txnId,
    read_at: readAt.toISOString(),
    order_on_detection: policy.orderOnDetection,
    underpaid_tolerance_percent: policy.underpaidTolerancePercent.toFixed(),
    order_outcomes: readOrderOutcomes(policy.outcomes),
  }
}

/** Every outcome kind, so a new kind fails the build until the stored reading's check knows it. */
const OUTCOME_KINDS: Record<SessionOutcome["kind"], true> = {
  awaiting_payment: true,
  detected: true,
  paid: true,
  failed: true,
  error: true,
  duplicate: true,
  unknown: true,
}

const isOutcomeKind = (value: unknown): value is SessionOutcome["kind"] => typeof value === "string" && Object.hasOwn(OUTCOME_KINDS, value)

const isAmountOrNull = (value: unknown): value is string | null => value === null || (typeof value === "string" && isDecimalString(value))

const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === "string"

/**
 * The stored reading of chain `txnId`, if it can stand in for a gateway read now: well formed, read
 * for this chain, at most `STORED_READING_TTL_MS` old, and mapped under the same status policy as
 * `policy` (the merchant may have changed the tolerance or order-on-detection since). Anything
 * else is undefined and the caller reads the gateway.
 */
export function usableStoredReading(stored: unknown, txnId: string, policy: StatusPolicy, now: number = Date.now()): GatewayReading | undefined {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return undefined
  const value = stored as Record<string, unknown>
  if (value.txn_id !== txnId || typeof value.read_at !== "string") return undefined
  const age = now - Date.parse(value.read_at)
  if (!Number.isFinite(age) || age > STORED_READING_TTL_MS || age < -STORED_READING_CLOCK_SKEW_MS) return undefined
  if (value.order_on_detection !== policy.orderOnDetection) return undefined
  if (typeof value.underpaid_tolerance_percent !== "string" || !isDecimalString(value.underpaid_tolerance_percent)) return undefined
  if (!new Decimal(value.underpaid_tolerance_percent).eq(policy.underpaidTolerancePercent)) return undefined
  if (!sameOutcomes(value.order_outcomes, readOrderOutcomes(policy.outcomes))) return undefined
  const { kind, session_status, gateway_status, active_txn_id, received_amount, expected_amount, overpaid_amount, underpaid_amount, refund_due_amount, capture_received, psys_cid, currency } = value
  if (!isOutcomeKind(kind) || typeof session_status !== "string" || !isCryptoSessionStatus(session_status)) return undefined
  if (typeof gateway_status !== "string" || typeof active_txn_id !== "string") return undefined
  if (![received_amount, expected_amount, overpaid_amount, underpaid_amount, refund_due_amount].every(isAmountOrNull)) return undefined
  if (!isTextOrNull(psys_cid) || !isTextOrNull(currency) || typeof capture_received !== "boolean") return undefined
  return {
    kind,
    session_status,
    gateway_status,
    active_txn_id,
    received_amount: received_amount as string | null,
    expected_amount: expected_amount as string | null,
    overpaid_amount: overpaid_amount as string | null,
    underpaid_amount: underpaid_amount as string | null,
    refund_due_amount: refund_due_amount as string | null,
    capture_received,
    psys_cid,
    currency,
  }
}

/** Whether a stored reading's outcome rules are `outcomes` (a reading stored before they existed has none: read again). */
function sameOutcomes(stored: unknown, outcomes: OrderOutcomeRules): boolean {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return false
  return ORDER_OUTCOMES.every((outcome) => (stored as Record<string, unknown>)[outcome] === outcomes[outcome])
}

/**
 * What Medusa is told of a reading (the provider's authorize and status answers): its session
 * status, except a payment captured for what arrived (`capture_received`), which is `authorized`:
 * Medusa then creates the payment for the session amount without capturing it, and the sync's
 * apply step captures the fiat value of what arrived (`receivedFiatValue`) on it.
 */
export function medusaSessionStatusOf(reading: Pick<GatewayReading, "session_status" | "capture_received">): CryptoSessionStatus | "authorized" {
  return reading.capture_received && reading.session_status === "captured" ? "authorized" : reading.session_status
}

/**
 * The fiat value of what arrived on an invoice captured for what arrived (underpaid
 * `capture_received`, docs/books.md#order-rules): its share of the session amount, `amount` ×
 * received ÷ expected, rounded down to the currency's minor units (never more than the coins paid
 * for). Null when the share cannot be computed or is not positive.
 */
export function receivedFiatValue(amount: Decimal.Value, received: string | null, expected: string | null, currencyCode: string): string | null {
  if (received === null || expected === null || !exact(expected).gt(0)) return null
  const value = fiatToMinorUnits(exact(amount).times(received).dividedBy(expected), currencyCode, "down")
  return value.gt(0) ? value.toFixed() : null
}

/** What a rule is matched against: the invoice's coin (null while a hosted-page shopper has not chosen) and fiat amount. */
export interface PlacementFacts {
  psys_cid: string | null
  source_amount: string | null
  source_currency: string | null
}

/** Whether one rule applies to an invoice. Unknown facts never match a rule that needs them. */
export function ruleMatches(rule: OrderRule, facts: PlacementFacts): boolean {
  if (rule.coins.length > 0) {
    // A hosted-page shopper who has not chosen a coin yet: a coin rule cannot say yes.
    if (facts.psys_cid === null || !rule.coins.some((coin) => coin.toUpperCase() === facts.psys_cid?.toUpperCase())) return false
  }
  if (rule.below !== null) {
    // An amount in another currency than the invoice's says nothing about it.
    if (facts.source_amount === null || facts.source_currency === null) return false
    if (facts.source_currency.toUpperCase() !== rule.below.currency.toUpperCase()) return false
    if (!exact(facts.source_amount).lt(rule.below.amount)) return false
  }
  return true
}

/** The first rule that applies to an invoice, with its position, or undefined. */
export function matchingRule(rules: readonly OrderRule[], facts: PlacementFacts): { rule: OrderRule; index: number } | undefined {
  const index = rules.findIndex((rule) => ruleMatches(rule, facts))
  return index < 0 ? undefined : { rule: rules[index], index }
}

/** Whether an invoice's order is placed on detection: the first matching rule, else the default. */
export function placementOf(rules: readonly OrderRule[], defaultOnDetection: boolean, facts: PlacementFacts): boolean {
  const match = matchingRule(rules, facts)
  return match === undefined ? defaultOnDetection : match.rule.place === "on_detection"
}

/** What the outcome rules are decided from: an assessment's verdict and amounts. */
export type OutcomeFacts = Pick<AssessmentFields, "refund_due_amount" | "overpaid_amount" | "capture_received"> & { kind: AssessmentFields["kind"] | null }

/**
 * Which outcome rule (docs/books.md#order-rules) an assessment falls under: `error`; an invoice
 * that ended with money owed back (`underpaid`: less than the tolerance accepts, or captured for
 * what arrived), or with nothing (`expired_unpaid`); a paid one with a surplus (`overpaid`). Null
 * for every other verdict (not ended yet, paid exactly or within the tolerance).
 */
export function orderOutcomeOf(facts: OutcomeFacts): OrderOutcome | null {
  if (facts.kind === "error") return "error"
  if (facts.kind === "failed") return facts.refund_due_amount !== null && exact(facts.refund_due_amount).gt(0) ? "underpaid" : "expired_unpaid"
  if (facts.kind === "paid" && facts.capture_received) return "underpaid"
  if (facts.kind === "paid" && facts.overpaid_amount !== null && exact(facts.overpaid_amount).gt(0)) return "overpaid"
  return null
}

/**
 * The outcome under which an order is kept waiting for the merchant's decision (the rule says
 * `wait`), or null: an expired unpaid or underpaid invoice's order is then never canceled, an
 * overpaid one is placed (or kept) with its payment awaiting, not captured. `error` kept open is
 * today's behaviour (its `invoice_error` item), not a wait of the rule.
 */
export function waitingOutcome(facts: OutcomeFacts, rules: Readonly<OrderOutcomeRules> | undefined): Exclude<OrderOutcome, "error"> | null {
  const outcome = orderOutcomeOf(facts)
  if (outcome === null || outcome === "error") return null
  return readOrderOutcomes(rules)[outcome] === "wait" ? outcome : null
}
