import { z } from "@medusajs/framework/zod"
import { amountProblem, exact } from "../money"
import { COIN_ID_PATTERN } from "../coins"

/**
 * The merchant's money-out policy (docs/money-out.md#money-out-policy) as declared and stored: its
 * fields, their defaults, which change of a field loosens it, and the policy in force from the
 * stored changes. Set in medusa-config (`moneyOut`, the defaults of the deployment) and changed in
 * the admin (Settings → Crypto → Money out), one `crypto_policy_change` row per changed field. The
 * decisions it drives (may this money leave, to this address, now?) are src/core/money-out/policy.ts's.
 * Pure.
 *
 * The names are the admin API's and the stored rows' (snake_case), in medusa-config too, so one
 * name means one rule everywhere.
 */
export interface MoneyOutPolicy {
  /** Withdrawals (mass payouts too) and exchange payouts go only to an address saved in the address book. */
  address_book: boolean
  /**
   * Minutes a newly saved address waits before it is usable, and how long a change that loosens the
   * policy waits before it takes effect (0: at once).
   */
  cooling_off_minutes: number
  /**
   * A withdrawal (mass payout: its total) worth more than this, in the store currency, waits until
   * another admin approves it; null: no approval needed. A decimal string.
   */
  approval_threshold: string | null
  /**
   * Per coin (`psys_cid`), how much its withdrawals may be worth in 24 hours, in the store currency
   * (decimal strings); a coin not listed has no limit.
   */
  daily_limits: Record<string, string>
  /**
   * A refund the shopper claims (docs/money-out.md#refunds-the-shopper-claims) worth more than this,
   * in the store currency, waits for an admin's review before it is sent; null: sent at once.
   */
  claim_review_threshold: string | null
  /**
   * Per received coin (`psys_cid`), what the gateway does with it on its own once it is confirmed
   * (docs/money-out.md#settlement): convert it, sweep the excess; a coin not listed stays as it is.
   */
  settlement: Record<string, SettlementRule>
}

/** What happens to one received coin (docs/money-out.md#settlement). */
export interface SettlementRule {
  /**
   * Each confirmed payment or deposit in this coin (what it credited) is exchanged into
   * `to_currency` (spec §4.11), paid out to `to_address` (a saved address of that coin), when it is
   * at least `min_amount` (in this coin) and the gateway's estimate is at most
   * `max_difference_percent` below its market value; null: no conversion.
   */
  convert: { to_currency: string; to_address: string; min_amount: string; max_difference_percent: string } | null
  /** When this coin's balance passes `threshold` (in this coin), the excess is sent to `to_address` (a saved address); null: no sweep. */
  sweep: { threshold: string; to_address: string } | null
}

export type MoneyOutPolicyField = keyof MoneyOutPolicy

/** Address book on, 24 hours of cooling-off; no approvals, limits or reviews until the merchant sets them. */
export const DEFAULT_MONEY_OUT_POLICY: MoneyOutPolicy = { address_book: true, cooling_off_minutes: 24 * 60, approval_threshold: null, daily_limits: {}, claim_review_threshold: null, settlement: {} }

/** The longest cooling-off a merchant may set: 30 days. */
export const MAX_COOLING_OFF_MINUTES = 30 * 24 * 60

/** A positive decimal string, normalised ("100.50" → "100.5"); `unit` says in what, e.g. 'in the coin such as "0.5"'. */
const positiveAmount = (field: string, unit: string) =>
  z
    .string({ error: `${field} must be a decimal string ${unit}` })
    .trim()
    .superRefine((value, ctx) => {
      const problem = amountProblem(value, Number.POSITIVE_INFINITY, "")
      if (problem !== null) ctx.addIssue({ code: "custom", message: `${field} ${problem}` })
    })
    .transform((value) => exact(value).toFixed())

/** An amount in the store currency. */
const storeAmount = (field: string) => positiveAmount(field, 'in the store currency such as "500"')

/** An amount in a coin. */
const coinAmount = (field: string) => positiveAmount(field, 'in the coin such as "0.5"')

const payoutAddress = (field: string) =>
  z
    .string({ error: `${field} must be a saved address of the coin` })
    .trim()
    .min(1, `${field} must be a saved address of the coin`)
    .max(256, `${field} is too long`)
    .regex(/^[^\s,;]+$/, `${field} must be one address, without spaces, commas or semicolons`)

const settlementRule = z
  .object(
    {
      convert: z
        .object(
          {
            to_currency: z.string().trim().regex(COIN_ID_PATTERN, 'settlement: convert.to_currency must be a coin ID (psys_cid) such as "USDT_TRX"'),
            to_address: payoutAddress("settlement: convert.to_address"),
            min_amount: coinAmount("settlement: convert.min_amount"),
            max_difference_percent: z
              .string({ error: 'settlement: convert.max_difference_percent must be a decimal string such as "2"' })
              .trim()
              .regex(/^\d{1,2}(\.\d{1,2})?$/, 'settlement: convert.max_difference_percent must be a percentage from 0 to 99.99 such as "2"')
              .transform((value) => exact(value).toFixed()),
          },
          { error: "settlement: convert must be an object { to_currency, to_address, min_amount, max_difference_percent } or null" }
        )
        .strict()
        .nullable(),
      sweep: z
        .object(
          { threshold: coinAmount("settlement: sweep.threshold"), to_address: payoutAddress("settlement: sweep.to_address") },
          { error: "settlement: sweep must be an object { threshold, to_address } or null" }
        )
        .strict()
        .nullable(),
    },
    { error: "settlement: each coin's rule must be an object { convert, sweep }" }
  )
  .strict()

/** Each field's value, validated: the one schema of the option, the admin API and the stored rows. */
export const MONEY_OUT_POLICY_FIELDS = {
  address_book: z.boolean({ error: "address_book must be true or false" }),
  cooling_off_minutes: z
    .number({ error: "cooling_off_minutes must be a whole number of minutes, e.g. 1440 (24 hours)" })
    .int("cooling_off_minutes must be a whole number of minutes, e.g. 1440 (24 hours)")
    .min(0, "cooling_off_minutes must be at least 0")
    .max(MAX_COOLING_OFF_MINUTES, `cooling_off_minutes must be at most ${MAX_COOLING_OFF_MINUTES} (30 days)`),
  approval_threshold: storeAmount("approval_threshold").nullable(),
  daily_limits: z.record(
    z.string().trim().regex(COIN_ID_PATTERN, 'daily_limits: each key must be a coin ID (psys_cid) such as "BTC"'),
    storeAmount("daily_limits: each limit"),
    { error: 'daily_limits must be an object of coin ID → amount in the store currency, e.g. { "BTC": "5000" }' }
  ),
  claim_review_threshold: storeAmount("claim_review_threshold").nullable(),
  settlement: z
    .record(z.string().trim().regex(COIN_ID_PATTERN, 'settlement: each key must be a coin ID (psys_cid) such as "BTC"'), settlementRule, {
      error: 'settlement must be an object of coin ID → rule, e.g. { "BTC": { "convert": null, "sweep": { "threshold": "0.5", "to_address": "bc1…" } } }',
    })
    .superRefine((rules, ctx) => {
      for (const [coin, rule] of Object.entries(rules)) {
        if (rule.convert?.to_currency === coin) ctx.addIssue({ code: "custom", message: `settlement: ${coin} cannot be converted into itself (convert.to_currency)` })
      }
    }),
} satisfies { [Field in MoneyOutPolicyField]: z.ZodType<MoneyOutPolicy[Field]> }

/** The fields in the order the admin shows them. */
export const MONEY_OUT_POLICY_FIELD_NAMES = Object.keys(MONEY_OUT_POLICY_FIELDS) as MoneyOutPolicyField[]

/** A change of the policy as posted (each field optional), validated field by field. */
export const moneyOutPolicyPatchSchema = z
  .object({
    address_book: MONEY_OUT_POLICY_FIELDS.address_book.optional(),
    cooling_off_minutes: MONEY_OUT_POLICY_FIELDS.cooling_off_minutes.optional(),
    approval_threshold: MONEY_OUT_POLICY_FIELDS.approval_threshold.optional(),
    daily_limits: MONEY_OUT_POLICY_FIELDS.daily_limits.optional(),
    claim_review_threshold: MONEY_OUT_POLICY_FIELDS.claim_review_threshold.optional(),
    settlement: MONEY_OUT_POLICY_FIELDS.settlement.optional(),
  })
  .strict()
export type MoneyOutPolicyPatch = z.infer<typeof moneyOutPolicyPatchSchema>

/** The `moneyOut` provider option: the deployment's policy, every field defaulted (src/core/config/options.ts). */
export const moneyOutOptionSchema = z.preprocess(
  (value) => value ?? {},
  z
    .object(
      {
        address_book: MONEY_OUT_POLICY_FIELDS.address_book.default(DEFAULT_MONEY_OUT_POLICY.address_book),
        cooling_off_minutes: MONEY_OUT_POLICY_FIELDS.cooling_off_minutes.default(DEFAULT_MONEY_OUT_POLICY.cooling_off_minutes),
        approval_threshold: MONEY_OUT_POLICY_FIELDS.approval_threshold.default(DEFAULT_MONEY_OUT_POLICY.approval_threshold),
        daily_limits: MONEY_OUT_POLICY_FIELDS.daily_limits.default(DEFAULT_MONEY_OUT_POLICY.daily_limits),
        claim_review_threshold: MONEY_OUT_POLICY_FIELDS.claim_review_threshold.default(DEFAULT_MONEY_OUT_POLICY.claim_review_threshold),
        settlement: MONEY_OUT_POLICY_FIELDS.settlement.default(DEFAULT_MONEY_OUT_POLICY.settlement),
      },
      { error: "moneyOut must be an object, e.g. { cooling_off_minutes: 1440 } (docs/money-out.md#money-out-policy)" }
    )
    .strict()
)

/** An amount limit (null: none) is loosened when it is removed or raised. */
function raisesAmount(from: string | null, to: string | null): boolean {
  return from !== null && (to === null || exact(to).gt(from))
}

/**
 * Whether changing a field from `from` to `to` loosens the policy: it then waits the cooling-off
 * in force and every admin is told, so a stolen session cannot switch a rule off and withdraw at
 * once. Tightening takes effect at once.
 */
const LOOSENS: { [Field in MoneyOutPolicyField]: (from: MoneyOutPolicy[Field], to: MoneyOutPolicy[Field]) => boolean } = {
  address_book: (from, to) => from && !to,
  cooling_off_minutes: (from, to) => to < from,
  approval_threshold: raisesAmount,
  // Loosened when any coin's limit is removed or raised (a coin newly limited tightens).
  daily_limits: (from, to) => Object.entries(from).some(([coin, limit]) => raisesAmount(limit, to[coin] ?? null)),
  claim_review_threshold: raisesAmount,
  // Settlement sends money on its own: any change but removing a coin's conversion or sweep loosens.
  settlement: (from, to) =>
    Object.entries(to).some(([coin, rule]) => (["convert", "sweep"] as const).some((part) => rule[part] !== null && !sameValue(rule[part], from[coin]?.[part] ?? null))),
}

/** One stored change of one field (`crypto_policy_change`), as the policy reads it. */
export interface StoredPolicyChange {
  id: string
  field: string
  /** `{ from, to }`: the field's value before and after. */
  change: unknown
  effective_at: Date | string
  cancelled_at: Date | string | null
  created_at: Date | string
}

const timeOf = (value: Date | string): number => new Date(value).getTime()

/** The value a stored change sets, if it is a valid value of a known field. */
function valueOf<Field extends MoneyOutPolicyField>(field: Field, change: unknown): { ok: true; value: MoneyOutPolicy[Field] } | { ok: false } {
  if (typeof change !== "object" || change === null || !("to" in change)) return { ok: false }
  const parsed = MONEY_OUT_POLICY_FIELDS[field].safeParse(change.to)
  return parsed.success ? { ok: true, value: parsed.data as MoneyOutPolicy[Field] } : { ok: false }
}

const isField = (field: string): field is MoneyOutPolicyField => Object.hasOwn(MONEY_OUT_POLICY_FIELDS, field)

/**
 * The policy in force at `now`: for each field, the latest saved change (by when it was saved) that
 * is not cancelled and whose time has come, else the deployment's value (`defaults`). A change that
 * no longer parses (a field renamed since) counts as none.
 */
export function effectiveMoneyOutPolicy(defaults: MoneyOutPolicy, changes: readonly StoredPolicyChange[], now: Date): MoneyOutPolicy {
  const policy: MoneyOutPolicy = { ...defaults }
  const due = changes
    .filter((row) => row.cancelled_at === null && timeOf(row.effective_at) <= now.getTime())
    .sort((a, b) => timeOf(a.created_at) - timeOf(b.created_at))
  for (const row of due) {
    if (!isField(row.field)) continue
    assign(policy, row.field, row.change)
  }
  return policy
}

function assign<Field extends MoneyOutPolicyField>(policy: MoneyOutPolicy, field: Field, change: unknown): void {
  const read = valueOf(field, change)
  if (read.ok) policy[field] = read.value
}

/** The saved changes still waiting for their time (loosenings in their cooling-off), soonest first. */
export function pendingPolicyChanges<Row extends StoredPolicyChange>(changes: readonly Row[], now: Date): Row[] {
  return changes.filter((row) => row.cancelled_at === null && timeOf(row.effective_at) > now.getTime()).sort((a, b) => timeOf(a.effective_at) - timeOf(b.effective_at))
}

/** One field a save changes: from the value in force, to the new one, and when it takes effect. */
export interface PlannedPolicyChange {
  field: MoneyOutPolicyField
  from: MoneyOutPolicy[MoneyOutPolicyField]
  to: MoneyOutPolicy[MoneyOutPolicyField]
  loosens: boolean
  effective_at: Date
}

/**
 * What a save of `patch` changes against the policy in force (`current`): each field whose value
 * differs, tightening at `now`, loosening after the cooling-off in force now
 * (`current.cooling_off_minutes`; a merchant who set 0 loosens at once). A field set back to the
 * value in force changes nothing (but still cancels a pending change of it: see the workflow).
 */
export function planPolicyChanges(current: MoneyOutPolicy, patch: MoneyOutPolicyPatch, now: Date): PlannedPolicyChange[] {
  const planned: PlannedPolicyChange[] = []
  for (const field of MONEY_OUT_POLICY_FIELD_NAMES) {
    const to = patch[field]
    if (to === undefined || sameValue(to, current[field])) continue
    const loosens = loosening(field, current[field], to)
    planned.push({ field, from: current[field], to, loosens, effective_at: loosens ? new Date(now.getTime() + current.cooling_off_minutes * 60_000) : now })
  }
  return planned
}

/** A value with its objects' keys in order, at every depth. */
const canonical = (value: unknown): unknown =>
  typeof value === "object" && value !== null ? Object.entries(value).sort(([x], [y]) => x.localeCompare(y)).map(([key, inner]) => [key, canonical(inner)]) : value

/** Two values of a field are the same (limits and rules whatever the order of their coins and members). */
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))
}

function loosening<Field extends MoneyOutPolicyField>(field: Field, from: MoneyOutPolicy[Field], to: MoneyOutPolicy[Field]): boolean {
  return LOOSENS[field](from, to)
}
