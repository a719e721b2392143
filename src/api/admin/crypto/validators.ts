import { z } from "@medusajs/framework/zod"
import { Decimal } from "decimal.js"
import { GatewayStatus, INVOICE_STATUSES, isDecimalString } from "../../../gateway"
import { amountProblem } from "../../../core/money"
import { MAX_RECIPIENTS } from "../../../core/money-out/withdrawal"
import { orderOutcomesSchema, orderRulesProblems, orderRulesSchema, type OrderOutcomeRules, type OrderRule } from "../../../core/config/order-rules"

/**
 * A positive decimal string: money never travels as a JSON number (it would be a float). Its form
 * by the one amount rule (docs/money-out.md#amounts); its places are checked against the coin's
 * precision once the coin is known (src/core/money-out/withdrawal.ts `checkAmounts`).
 */
const positiveDecimal = (field: string) =>
  z
    .string({ error: `${field} must be a decimal string such as "0.015"` })
    .trim()
    .superRefine((value, ctx) => {
      const problem = amountProblem(value, Number.POSITIVE_INFINITY, "")
      if (problem !== null) ctx.addIssue({ code: "custom", message: `${field} ${problem}` })
    })
export const coin = (field: string) =>
  z
    .string({ error: `${field} must be a coin ID (psys_cid) such as "BTC"` })
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,32}$/, `${field} must be a coin ID (psys_cid) such as "BTC" or "USDT_TRX"`)
/** Addresses travel comma-joined (spec §4.2), so a comma or a space can never be part of one. */
export const address = (field: string) =>
  z
    .string({ error: `${field} must be an address string` })
    .trim()
    .min(1, `${field} is required`)
    .max(256, `${field} is too long`)
    .regex(/^[^\s,;]+$/, `${field} must be one address, without spaces, commas or semicolons`)
const feePlan = z.enum(["normal", "priority"], { error: 'fee_plan must be "normal" or "priority"' })
const idempotencyKey = z
  .string({ error: "idempotency_key is required: the admin form makes one per withdrawal" })
  .trim()
  .min(8, "idempotency_key must be 8 to 128 characters")
  .max(128, "idempotency_key must be 8 to 128 characters")
const fiat = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, "fiat must be a 3-letter currency code such as USD")
  .transform((value) => value.toUpperCase())
export const pageNumber = (field: string, max: number) => z.coerce.number({ error: `${field} must be a whole number` }).int(`${field} must be a whole number`).min(1, `${field} must be at least 1`).max(max, `${field} must be at most ${max}`)
export const offset = z.coerce.number({ error: "offset must be a whole number" }).int("offset must be a whole number").min(0, "offset must be 0 or more")

export const recipientsSchema = z
  .array(z.object({ address: address("recipients.address"), amount: positiveDecimal("recipients.amount") }).strict(), {
    error: "recipients must be a list of { address, amount }",
  })
  .min(1, "recipients must hold at least one { address, amount }")
  .max(MAX_RECIPIENTS, `recipients can hold at most ${MAX_RECIPIENTS} addresses`)
  .refine((list) => new Set(list.map((r) => r.address)).size === list.length, "recipients: each address may appear once")

export const AdminCryptoProviderQuery = z.object({ provider_id: z.string().optional() })

export const AdminCryptoBalancesQuery = z.object({ fiat: fiat.optional(), provider_id: z.string().optional() })
export type AdminCryptoBalancesQueryType = z.infer<typeof AdminCryptoBalancesQuery>

export const AdminCryptoCurrenciesQuery = z.object({ fiat: fiat.optional(), provider_id: z.string().optional() })
export type AdminCryptoCurrenciesQueryType = z.infer<typeof AdminCryptoCurrenciesQuery>

export const AdminCryptoEstimate = z
  .object({
    psys_cid: coin("psys_cid"),
    recipients: recipientsSchema,
    fee_plan: feePlan.default("normal"),
    provider_id: z.string().optional(),
  })
  .strict()
export type AdminCryptoEstimateType = z.infer<typeof AdminCryptoEstimate>

export const AdminCreateCryptoWithdrawal = z
  .object({
    idempotency_key: idempotencyKey,
    psys_cid: coin("psys_cid"),
    recipients: recipientsSchema,
    fee_plan: feePlan.default("normal"),
    provider_id: z.string().optional(),
  })
  .strict()
export type AdminCreateCryptoWithdrawalType = z.infer<typeof AdminCreateCryptoWithdrawal>

export const WITHDRAWAL_STATUSES = ["awaiting_approval", "requested", "sending", "completed", "error", "rejected", "outcome_unknown", "not_found", "not_sent"] as const

export const AdminCryptoWithdrawalsQuery = z.object({
  status: z.enum(WITHDRAWAL_STATUSES, { error: `status must be one of ${WITHDRAWAL_STATUSES.join(", ")}` }).optional(),
  purpose: z
    .enum(["withdrawal", "refund", "overpayment", "underpayment", "late_payment", "unexplained"], { error: "purpose must be withdrawal, refund, overpayment, underpayment, late_payment or unexplained" })
    .optional(),
  order_id: z.string().optional(),
  limit: pageNumber("limit", 100).default(20),
  offset: offset.default(0),
})
export type AdminCryptoWithdrawalsQueryType = z.infer<typeof AdminCryptoWithdrawalsQuery>

/** Why the merchant says it was not sent: required, so the decision is recorded with its reason. */
const resolutionNote = z
  .string({ error: "note is required: say how you checked at the gateway that it was not sent" })
  .trim()
  .min(1, "note is required: say how you checked at the gateway that it was not sent")
  .max(500, "note must be at most 500 characters")
const optionalNote = z.string().trim().max(500, "note must be at most 500 characters").optional()
const resolutionKind = (found: string) => `resolution must be "${found}" (this operation is it) or "not_sent" (confirmed not sent, with a note)`
/** Why the merchant allows a payment that failed at the gateway to be sent again: required. */
const failedNote = z
  .string({ error: "note is required: say how you checked at the gateway that the failed operation sent nothing" })
  .trim()
  .min(1, "note is required: say how you checked at the gateway that the failed operation sent nothing")
  .max(500, "note must be at most 500 characters")

export const AdminResolveCryptoWithdrawal = z.discriminatedUnion(
  "resolution",
  [
    z.object({ resolution: z.literal("operation"), operation_id: z.string({ error: "operation_id is required" }).trim().min(1, "operation_id is required").max(128), note: optionalNote }).strict(),
    z.object({ resolution: z.literal("not_sent"), note: resolutionNote }).strict(),
    // A withdrawal that failed at the gateway (status error): allow sending the same payment again.
    z.object({ resolution: z.literal("failed"), note: failedNote }).strict(),
  ],
  { error: `${resolutionKind("operation")}; or "failed" (failed at the gateway: allow sending again, with a note)` }
)
export type AdminResolveCryptoWithdrawalType = z.infer<typeof AdminResolveCryptoWithdrawal>

export const EXCHANGE_STATUSES = ["requested", "sending", "created", "completed", "error", "rejected", "outcome_unknown", "not_sent"] as const

export const AdminCryptoExchangesQuery = z.object({
  status: z.enum(EXCHANGE_STATUSES, { error: `status must be one of ${EXCHANGE_STATUSES.join(", ")}` }).optional(),
  limit: pageNumber("limit", 100).default(20),
  offset: offset.default(0),
})
export type AdminCryptoExchangesQueryType = z.infer<typeof AdminCryptoExchangesQuery>

export const AdminResolveCryptoExchange = z.discriminatedUnion(
  "resolution",
  [
    z.object({ resolution: z.literal("exchange"), exchange_id: z.string({ error: "exchange_id is required" }).trim().min(1, "exchange_id is required").max(128), note: optionalNote }).strict(),
    z.object({ resolution: z.literal("not_sent"), note: resolutionNote }).strict(),
  ],
  { error: resolutionKind("exchange") }
)
export type AdminResolveCryptoExchangeType = z.infer<typeof AdminResolveCryptoExchange>

export const AdminCryptoOperationsQuery = z.object({
  page: pageNumber("page", 100000).default(1),
  limit: pageNumber("limit", 50).default(20),
  type: z.enum(["cash_in", "cash_out", "mass_cash_out", "invoice", "pay_in"], { error: "type must be one of cash_in, cash_out, mass_cash_out, invoice, pay_in" }).optional(),
  status: z
    .enum(GatewayStatus, { error: `status must be one of the gateway's statuses (spec §3): ${INVOICE_STATUSES.join(", ")}` })
    .optional(),
  currency: coin("currency").optional(),
  shop_id: z.string().trim().max(64, "shop_id is too long").optional(),
  search: z.string().trim().max(200, "search must be at most 200 characters").optional(),
  provider_id: z.string().optional(),
})
export type AdminCryptoOperationsQueryType = z.infer<typeof AdminCryptoOperationsQuery>

const uid = z.string({ error: "uid is required: the customer id or any id of yours" }).trim().min(1, "uid is required").max(255, "uid must be at most 255 characters (spec §8)")

export const AdminCreateCryptoDeposit = z
  .object({
    uid,
    psys_cid: z.union([coin("psys_cid"), z.array(coin("psys_cid")).min(1, "psys_cid must hold at least one coin").max(20)]).transform((value) => (Array.isArray(value) ? value : [value])),
    provider_id: z.string().optional(),
  })
  .strict()
export type AdminCreateCryptoDepositType = z.infer<typeof AdminCreateCryptoDeposit>

export const AdminCryptoDepositsQuery = z.object({
  uid: z.string().trim().max(255, "uid must be at most 255 characters").optional(),
  psys_cid: coin("psys_cid").optional(),
  page: pageNumber("page", 100000).default(1),
  limit: pageNumber("limit", 100).default(20),
  provider_id: z.string().optional(),
})
export type AdminCryptoDepositsQueryType = z.infer<typeof AdminCryptoDepositsQuery>

export const AdminCryptoDepositCallbacksQuery = z.object({
  uid: z.string().trim().max(255).optional(),
  limit: pageNumber("limit", 100).default(20),
  offset: offset.default(0),
})
export type AdminCryptoDepositCallbacksQueryType = z.infer<typeof AdminCryptoDepositCallbacksQuery>

const exchangeBase = {
  from_currency: coin("from_currency"),
  to_currency: coin("to_currency"),
  from_amount: positiveDecimal("from_amount").optional(),
  to_amount: positiveDecimal("to_amount").optional(),
  amount_currency: coin("amount_currency").optional(),
  provider_id: z.string().optional(),
}
const oneAmount = (value: { from_amount?: string; to_amount?: string }) => (value.from_amount === undefined) !== (value.to_amount === undefined)
const ONE_AMOUNT = { message: "give exactly one of from_amount or to_amount", path: ["from_amount"] }

export const AdminCryptoExchangeEstimate = z.object(exchangeBase).strict().refine(oneAmount, ONE_AMOUNT)
export type AdminCryptoExchangeEstimateType = z.infer<typeof AdminCryptoExchangeEstimate>

export const AdminCreateCryptoExchange = z
  .object({
    ...exchangeBase,
    idempotency_key: idempotencyKey,
    to_address: address("to_address"),
    confirmed: z.literal(true, { error: "confirmed must be true: show the estimate to the merchant and ask before creating an exchange" }),
  })
  .strict()
  .refine(oneAmount, ONE_AMOUNT)
export type AdminCreateCryptoExchangeType = z.infer<typeof AdminCreateCryptoExchange>

export const AdminCryptoRefundQuote = z
  .object({
    order_id: z.string({ error: "order_id is required" }).trim().min(1, "order_id is required"),
    payment_id: z.string().trim().min(1).optional(),
    amount: positiveDecimal("amount").optional(),
  })
  .strict()
export type AdminCryptoRefundQuoteType = z.infer<typeof AdminCryptoRefundQuote>

export const AdminCreateCryptoRefund = z
  .object({
    idempotency_key: idempotencyKey,
    order_id: z.string({ error: "order_id is required" }).trim().min(1, "order_id is required"),
    kind: z.enum(["refund", "overpayment", "underpayment"], { error: "kind must be refund, overpayment or underpayment" }).default("refund"),
    payment_id: z.string().trim().min(1).optional(),
    amount: positiveDecimal("amount").optional(),
    rate: positiveDecimal("rate").optional(),
    address: address("address"),
    fee_plan: feePlan.default("normal"),
    note: z.string().trim().max(500, "note must be at most 500 characters").optional(),
  })
  .strict()
  .refine((value) => value.kind !== "refund" || value.rate !== undefined, { message: "rate is required for a refund: confirm the rate shown in the quote", path: ["rate"] })
export type AdminCreateCryptoRefundType = z.infer<typeof AdminCreateCryptoRefund>

/** POST /admin/crypto/refund-claims: a refund the shopper claims with their own address (docs/money-out.md#refunds-the-shopper-claims). */
export const AdminCreateCryptoRefundClaim = z
  .object({
    order_id: z.string({ error: "order_id is required" }).trim().min(1, "order_id is required"),
    kind: z.enum(["refund", "overpayment", "underpayment"], { error: "kind must be refund, overpayment or underpayment" }).default("refund"),
    payment_id: z.string().trim().min(1).optional(),
    amount: positiveDecimal("amount").optional(),
    rate: positiveDecimal("rate").optional(),
    fee_plan: feePlan.default("normal"),
    note: z.string().trim().max(500, "note must be at most 500 characters").optional(),
    expires_in_hours: z
      .number({ error: "expires_in_hours must be a whole number of hours, e.g. 168" })
      .int("expires_in_hours must be a whole number of hours, e.g. 168")
      .min(1, "expires_in_hours must be at least 1")
      .max(720, "expires_in_hours must be at most 720 (30 days)")
      .optional(),
  })
  .strict()
  .refine((value) => value.kind !== "refund" || value.rate !== undefined, { message: "rate is required for a refund: confirm the rate shown in the quote", path: ["rate"] })
export type AdminCreateCryptoRefundClaimType = z.infer<typeof AdminCreateCryptoRefundClaim>

/** GET /admin/crypto/refund-claims?order_id= */
export const AdminCryptoRefundClaimsQuery = z.object({ order_id: z.string({ error: "order_id is required" }).trim().min(1, "order_id is required") })
export type AdminCryptoRefundClaimsQueryType = z.infer<typeof AdminCryptoRefundClaimsQuery>

export const AdminUpdateCryptoSettings = z
  .object({
    provider_id: z.string().optional(),
    accepted_coins: z.array(coin("accepted_coins")).max(200, "accepted_coins: at most 200 coins").nullable().optional(),
    default_coin: coin("default_coin").nullable().optional(),
    invoice_lifetime_minutes: z
      .number({ error: "invoice_lifetime_minutes must be a whole number of minutes" })
      .int("invoice_lifetime_minutes must be a whole number of minutes")
      .min(1, "invoice_lifetime_minutes must be at least 1")
      .max(14400, "invoice_lifetime_minutes must be at most 14400 (10 days)")
      .nullable()
      .optional(),
    order_on_detection: z.boolean({ error: "order_on_detection must be true or false" }).nullable().optional(),
    underpaid_tolerance_percent: z
      .string({ error: 'underpaid_tolerance_percent must be a decimal string such as "0.5"' })
      .trim()
      // Aborts: the bound check below parses the value.
      .refine(isDecimalString, { message: 'underpaid_tolerance_percent must be a decimal such as "0.5"', abort: true })
      .refine((value) => new Decimal(value).lte(100), "underpaid_tolerance_percent must be at most 100")
      .nullable()
      .optional(),
    // Checked by the one rule schema (src/core/config/order-rules.ts); each problem names its field, e.g.
    // `order_rules[1].below.amount` (Medusa's error text gives a custom issue's message only).
    order_rules: z.unknown().transform((value, ctx): OrderRule[] | null | undefined => {
      if (value === undefined || value === null) return value
      const parsed = orderRulesSchema.safeParse(value)
      if (parsed.success) return parsed.data
      for (const problem of orderRulesProblems(parsed.error)) ctx.addIssue({ code: "custom", message: problem })
      return z.NEVER
    }),
    // What each invoice outcome does to its order (src/core/config/order-rules.ts), e.g.
    // `order_outcomes.underpaid must be one of "cancel", "wait", "capture_received"`.
    order_outcomes: z.unknown().transform((value, ctx): OrderOutcomeRules | null | undefined => {
      if (value === undefined || value === null) return value
      const parsed = orderOutcomesSchema.safeParse(value)
      if (parsed.success) return parsed.data
      for (const problem of orderRulesProblems(parsed.error, "order_outcomes")) ctx.addIssue({ code: "custom", message: problem })
      return z.NEVER
    }),
    protect_order_status: z.boolean({ error: "protect_order_status must be true or false" }).nullable().optional(),
  })
  .strict()
  .refine(
    (value) => !value.default_coin || !value.accepted_coins || value.accepted_coins.length === 0 || value.accepted_coins.includes(value.default_coin),
    { message: "default_coin must be one of accepted_coins", path: ["default_coin"] }
  )
export type AdminUpdateCryptoSettingsType = z.infer<typeof AdminUpdateCryptoSettings>

/** POST /admin/crypto/settings/callback-check: which provider entry's callback URL (default: the first configured). */
export const AdminCryptoCallbackCheck = z.object({ provider_id: z.string().optional() }).strict()
export type AdminCryptoCallbackCheckType = z.infer<typeof AdminCryptoCallbackCheck>
