import { isPositiveDecimal } from "./money"
import type { MoneyOutPolicy } from "./types"

/**
 * The Money out section's policy form (src/admin/components/money-out-section.tsx): what the merchant
 * edits, as text, and what a save sends. The server decides what loosens and when it takes effect
 * (docs/money-out.md#money-out-policy); the form only sends the fields that changed.
 */
export interface MoneyOutPolicyForm {
  addressBook: boolean
  coolingOffMinutes: string
  /** Empty: off. */
  approvalThreshold: string
  claimReviewThreshold: string
  /** One row per coin; an empty coin or amount is left out. */
  dailyLimits: Array<{ coin: string; amount: string }>
}

export function policyForm(policy: MoneyOutPolicy): MoneyOutPolicyForm {
  return {
    addressBook: policy.address_book,
    coolingOffMinutes: String(policy.cooling_off_minutes),
    approvalThreshold: policy.approval_threshold ?? "",
    claimReviewThreshold: policy.claim_review_threshold ?? "",
    dailyLimits: Object.entries(policy.daily_limits).map(([coin, amount]) => ({ coin, amount })),
  }
}

/** Why a field of the form cannot be saved, by field. */
export function policyFormErrors(form: MoneyOutPolicyForm): Partial<Record<keyof MoneyOutPolicyForm, string>> {
  const errors: Partial<Record<keyof MoneyOutPolicyForm, string>> = {}
  if (!/^\d{1,5}$/.test(form.coolingOffMinutes) || Number.parseInt(form.coolingOffMinutes, 10) > 43200) errors.coolingOffMinutes = "A whole number of minutes from 0 to 43200"
  if (form.approvalThreshold !== "" && !isPositiveDecimal(form.approvalThreshold)) errors.approvalThreshold = "An amount above 0, like 500, or empty for none"
  if (form.claimReviewThreshold !== "" && !isPositiveDecimal(form.claimReviewThreshold)) errors.claimReviewThreshold = "An amount above 0, like 100, or empty for none"
  const rows = form.dailyLimits.filter((row) => row.coin !== "" || row.amount !== "")
  if (rows.some((row) => row.coin === "" || !isPositiveDecimal(row.amount))) errors.dailyLimits = "Each limit needs a coin and an amount above 0"
  else if (new Set(rows.map((row) => row.coin)).size !== rows.length) errors.dailyLimits = "One limit per coin"
  return errors
}

/** The form as POST /admin/crypto/money-out/policy takes it. */
export function policyBody(form: MoneyOutPolicyForm): Record<keyof MoneyOutPolicy, unknown> {
  return {
    address_book: form.addressBook,
    cooling_off_minutes: Number.parseInt(form.coolingOffMinutes, 10),
    approval_threshold: form.approvalThreshold === "" ? null : form.approvalThreshold,
    claim_review_threshold: form.claimReviewThreshold === "" ? null : form.claimReviewThreshold,
    daily_limits: Object.fromEntries(form.dailyLimits.filter((row) => row.coin !== "" && row.amount !== "").map((row) => [row.coin, row.amount])),
  }
}

/** A value as the server compares it: limits whatever the order of their coins. */
const comparable = (value: unknown): string =>
  JSON.stringify(typeof value === "object" && value !== null ? Object.entries(value).sort(([a], [b]) => a.localeCompare(b)) : value)

/** What a save sends: the fields that differ from the policy in force. */
export function changedPolicy(form: MoneyOutPolicyForm, policy: MoneyOutPolicy): Partial<Record<keyof MoneyOutPolicy, unknown>> {
  const body = policyBody(form)
  const fields = Object.keys(body) as Array<keyof MoneyOutPolicy>
  return Object.fromEntries(fields.filter((field) => comparable(body[field]) !== comparable(policy[field])).map((field) => [field, body[field]]))
}

/** A policy value in words (the pending changes, History). */
export function policyValue(value: unknown): string {
  if (value === null || value === undefined) return "none"
  if (typeof value === "boolean") return value ? "on" : "off"
  if (typeof value === "object") {
    const entries = Object.entries(value)
    return entries.length === 0 ? "no limits" : entries.map(([coin, amount]) => `${coin} ${String(amount)}`).join(", ")
  }
  return String(value)
}

/** Each policy field's label: one per field, checked by the compiler. */
export const POLICY_LABELS: Record<keyof MoneyOutPolicy, string> = {
  address_book: "Address book",
  cooling_off_minutes: "Cooling-off (minutes)",
  approval_threshold: "Approval above",
  daily_limits: "Daily limits",
  claim_review_threshold: "Review claimed refunds above",
}
