import { z } from "@medusajs/framework/zod"
import { amountProblem, fiatMinorUnits } from "../money"
import { COIN_ID_PATTERN } from "../coins"

/**
 * The merchant's order rules (docs/books.md#order-rules): whether a detected payment (gateway
 * status `pending`, spec §3) places the order at once or only once the invoice completes, per coin
 * and per amount. An ordered list, first match wins, else the default (the order-on-detection
 * setting). The rules only choose `StatusPolicy.orderOnDetection` for one invoice; the status map
 * (payment-state.ts) stays the one map. Pure.
 */

export const ORDER_PLACEMENTS = ["on_detection", "on_confirmation"] as const
export type OrderPlacement = (typeof ORDER_PLACEMENTS)[number]

/** How many rules a provider entry may hold: a list a merchant can still read. */
export const MAX_ORDER_RULES = 20

/** An amount in a fiat currency: a positive decimal string and its ISO 4217 code. */
export interface FiatLimit {
  amount: string
  currency: string
}

export interface OrderRule {
  /** Coin IDs (`psys_cid`) the rule is for; empty = any coin. */
  coins: string[]
  /** Only invoices whose fiat amount (`source_amount`) is strictly below this; null = any amount. */
  below: FiatLimit | null
  place: OrderPlacement
}

const fiatLimit = z
  .object(
    {
      amount: z.string({ error: 'must be a decimal string such as "500"' }).trim(),
      currency: z
        .string({ error: 'must be a 3-letter currency code such as "EUR"' })
        .trim()
        .regex(/^[A-Za-z]{3}$/, 'must be a 3-letter currency code such as "EUR"')
        .transform((code) => code.toUpperCase()),
    },
    { error: 'must be null or { amount, currency }, e.g. { "amount": "500", "currency": "EUR" }' }
  )
  .strict()
  .superRefine((limit, ctx) => {
    // The places a currency has (EUR 2, JPY 0): an invoice amount never has more.
    let places = 2
    try {
      places = fiatMinorUnits(limit.currency)
    } catch {
      ctx.addIssue({ code: "custom", path: ["currency"], message: `is not a currency code the runtime knows: "${limit.currency}"` })
      return
    }
    const problem = amountProblem(limit.amount, places, limit.currency)
    if (problem !== null) ctx.addIssue({ code: "custom", path: ["amount"], message: problem })
  })

export const orderRuleSchema = z
  .object(
    {
      coins: z
        .array(z.string({ error: 'must be a coin ID such as "LTC"' }).trim().regex(COIN_ID_PATTERN, 'must be a coin ID (psys_cid) such as "LTC" or "USDT_TRX"'), { error: 'must be a list of coin IDs, e.g. ["LTC", "USDT_TRX"] (empty = any coin)' })
        .max(200, "at most 200 coins")
        .default([])
        .transform((coins) => [...new Set(coins)]),
      below: fiatLimit.nullable().default(null),
      place: z.enum(ORDER_PLACEMENTS, { error: 'must be "on_detection" or "on_confirmation"' }),
    },
    { error: "must be an object { coins, below, place }" }
  )
  .strict()

export const orderRulesSchema = z
  .array(orderRuleSchema, { error: "must be a list of rules" })
  .max(MAX_ORDER_RULES, `at most ${MAX_ORDER_RULES} rules`)

/** A zod issue's path and message as one line naming the field: `order_rules[1].below.amount must be …`. */
export function orderRulesProblems(error: z.ZodError, field = "order_rules"): string[] {
  return error.issues.map((issue) => `${fieldPath(field, issue.path)} ${issue.message}`)
}

function fieldPath(field: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((at, key) => (typeof key === "number" ? `${at}[${key}]` : `${at}.${String(key)}`), field)
}

/** How rules are kept in the settings row's JSON column (`crypto_setting.order_rules`): an object holding the list. */
// A type, not an interface: it must fit the JSON column's Record<string, unknown>.
export type StoredOrderRules = {
  rules: OrderRule[]
}

export function storedOrderRules(rules: OrderRule[] | null): StoredOrderRules | null {
  return rules === null ? null : { rules }
}

/** Stored rules (the JSON column, or a bare list) as rules, or none when they are missing or not valid any more. */
export function readOrderRules(stored: unknown): OrderRule[] {
  if (stored === null || stored === undefined) return []
  const list = typeof stored === "object" && !Array.isArray(stored) ? (stored as Partial<StoredOrderRules>).rules : stored
  const parsed = orderRulesSchema.safeParse(list)
  return parsed.success ? parsed.data : []
}

/**
 * What an invoice's end does to its order, per outcome (docs/books.md#order-rules): the merchant's
 * choice for an invoice that expired unpaid, ended underpaid beyond the tolerance, was overpaid, or
 * that the gateway reports in `error`. Each outcome has a small closed set of actions; the first
 * listed is today's behaviour and the default. The status map (payment-state.ts) and the sync's
 * apply step read them; nothing else decides what these outcomes do to an order.
 */
export const ORDER_OUTCOME_ACTIONS = {
  /** Expired (or cancelled) with nothing received, while an order placed on detection waits. */
  expired_unpaid: ["cancel", "wait"],
  /** Expired with less than the tolerance accepts. */
  underpaid: ["cancel", "wait", "capture_received"],
  /** Completed or mismatch with more than asked. */
  overpaid: ["capture", "wait"],
  /** The gateway reports `error` (spec §3). */
  error: ["wait", "cancel"],
} as const satisfies Record<string, readonly [string, ...string[]]>

export type OrderOutcome = keyof typeof ORDER_OUTCOME_ACTIONS
export const ORDER_OUTCOMES = Object.keys(ORDER_OUTCOME_ACTIONS) as OrderOutcome[]

/** One action per outcome. A type, not an interface: it must fit the JSON column's Record<string, unknown>. */
export type OrderOutcomeRules = { [K in OrderOutcome]: (typeof ORDER_OUTCOME_ACTIONS)[K][number] }

/** Today's behaviour: cancel an unpaid or underpaid order, capture an overpaid one, keep an `error` open. */
export const DEFAULT_ORDER_OUTCOMES: Readonly<OrderOutcomeRules> = {
  expired_unpaid: ORDER_OUTCOME_ACTIONS.expired_unpaid[0],
  underpaid: ORDER_OUTCOME_ACTIONS.underpaid[0],
  overpaid: ORDER_OUTCOME_ACTIONS.overpaid[0],
  error: ORDER_OUTCOME_ACTIONS.error[0],
}

const outcomeAction = <K extends OrderOutcome>(outcome: K) =>
  z.enum(ORDER_OUTCOME_ACTIONS[outcome], { error: `must be one of ${ORDER_OUTCOME_ACTIONS[outcome].map((action) => `"${action}"`).join(", ")}` })

/** The outcome rules as the merchant writes them: any outcome left out keeps its default. */
export const orderOutcomesSchema = z
  .object(
    {
      expired_unpaid: outcomeAction("expired_unpaid").optional(),
      underpaid: outcomeAction("underpaid").optional(),
      overpaid: outcomeAction("overpaid").optional(),
      error: outcomeAction("error").optional(),
    },
    { error: 'must be an object such as { "underpaid": "wait", "overpaid": "capture" }' }
  )
  .strict()
  .transform((given) => readOrderOutcomes(given))

/** Stored outcome rules (`crypto_setting.order_outcomes`) with `fallback` for any outcome missing or not valid any more. */
export function readOrderOutcomes(stored: unknown, fallback: Readonly<OrderOutcomeRules> = DEFAULT_ORDER_OUTCOMES): OrderOutcomeRules {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return { ...fallback }
  const rules: OrderOutcomeRules = { ...fallback }
  for (const outcome of ORDER_OUTCOMES) {
    const action: unknown = (stored as Record<string, unknown>)[outcome]
    if ((ORDER_OUTCOME_ACTIONS[outcome] as readonly unknown[]).includes(action)) (rules as Record<OrderOutcome, unknown>)[outcome] = action
  }
  return rules
}
