import { DECIMAL_PATTERN, Wide, isPositiveDecimal } from "./money"
import type { AddressBookEntry, MoneyOutPolicy } from "./types"

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
  /** One row per received coin (docs/money-out.md#settlement); a row with neither part on is left out. */
  settlement: SettlementRow[]
}

/**
 * What happens to one received coin, as the merchant edits it: amounts in that coin (not the store
 * currency), each part's fields kept while it is off so switching it back on loses nothing.
 */
export interface SettlementRow {
  coin: string
  convert: boolean
  convertTo: string
  /** A saved address of `convertTo`. */
  convertAddress: string
  minAmount: string
  /** How far below market value the gateway's estimate may be, in percent (0–99.99). */
  maxDifference: string
  sweep: boolean
  sweepThreshold: string
  /** A saved address of `coin`. */
  sweepAddress: string
}

/** Why a settlement row cannot be saved, by field. */
export type SettlementRowErrors = Partial<Record<keyof SettlementRow, string>>

/** Why the form cannot be saved: a message per field, and per settlement row (aligned with the rows). */
export type MoneyOutPolicyFormErrors = Partial<Record<Exclude<keyof MoneyOutPolicyForm, "settlement">, string>> & { settlement?: SettlementRowErrors[] }

/** A new settlement row: nothing on, a 2 % tolerance ready for when conversion is switched on. */
export const emptySettlementRow = (): SettlementRow => ({
  coin: "",
  convert: false,
  convertTo: "",
  convertAddress: "",
  minAmount: "",
  maxDifference: "2",
  sweep: false,
  sweepThreshold: "",
  sweepAddress: "",
})

function settlementRows(settlement: MoneyOutPolicy["settlement"]): SettlementRow[] {
  return Object.entries(settlement).map(([coin, rule]) => ({
    ...emptySettlementRow(),
    coin,
    ...(rule.convert === null
      ? {}
      : { convert: true, convertTo: rule.convert.to_currency, convertAddress: rule.convert.to_address, minAmount: rule.convert.min_amount, maxDifference: rule.convert.max_difference_percent }),
    ...(rule.sweep === null ? {} : { sweep: true, sweepThreshold: rule.sweep.threshold, sweepAddress: rule.sweep.to_address }),
  }))
}

export function policyForm(policy: MoneyOutPolicy): MoneyOutPolicyForm {
  return {
    addressBook: policy.address_book,
    coolingOffMinutes: String(policy.cooling_off_minutes),
    approvalThreshold: policy.approval_threshold ?? "",
    claimReviewThreshold: policy.claim_review_threshold ?? "",
    dailyLimits: Object.entries(policy.daily_limits).map(([coin, amount]) => ({ coin, amount })),
    settlement: settlementRows(policy.settlement),
  }
}

/**
 * Why a field of the form cannot be saved, by field. With the address book (the saved entries the
 * server lists), a settlement address must be one of its entries of the right coin that is not
 * removed; without it (still loading) only its presence is checked and the server decides.
 */
export function policyFormErrors(form: MoneyOutPolicyForm, addresses?: readonly AddressBookEntry[]): MoneyOutPolicyFormErrors {
  const errors: MoneyOutPolicyFormErrors = {}
  if (!/^\d{1,5}$/.test(form.coolingOffMinutes) || Number.parseInt(form.coolingOffMinutes, 10) > 43200) errors.coolingOffMinutes = "A whole number of minutes from 0 to 43200"
  if (form.approvalThreshold !== "" && !isPositiveDecimal(form.approvalThreshold)) errors.approvalThreshold = "An amount above 0, like 500, or empty for none"
  if (form.claimReviewThreshold !== "" && !isPositiveDecimal(form.claimReviewThreshold)) errors.claimReviewThreshold = "An amount above 0, like 100, or empty for none"
  const rows = form.dailyLimits.filter((row) => row.coin !== "" || row.amount !== "")
  if (rows.some((row) => row.coin === "" || !isPositiveDecimal(row.amount))) errors.dailyLimits = "Each limit needs a coin and an amount above 0"
  else if (new Set(rows.map((row) => row.coin)).size !== rows.length) errors.dailyLimits = "One limit per coin"
  const settlement = form.settlement.map((row, index) => settlementRowErrors(row, form.settlement.slice(0, index), addresses))
  if (settlement.some((row) => Object.keys(row).length > 0)) errors.settlement = settlement
  return errors
}

/** A percentage from 0 to 99.99 with at most two decimals, as the server takes it. */
const PERCENT_PATTERN = /^\d{1,2}(\.\d{1,2})?$/

/** Why one settlement row cannot be saved; `before` are the rows above it (a coin has one row). */
function settlementRowErrors(row: SettlementRow, before: readonly SettlementRow[], addresses: readonly AddressBookEntry[] | undefined): SettlementRowErrors {
  const errors: SettlementRowErrors = {}
  if (!row.convert && !row.sweep && row.coin === "") return errors
  if (row.coin === "") errors.coin = "Choose the received coin"
  else if (before.some((other) => other.coin === row.coin)) errors.coin = `${row.coin} has a rule above: one rule per coin`
  const saved = (coin: string, address: string) => addresses === undefined || addresses.some((entry) => entry.psys_cid === coin && entry.address === address && entry.removed_at === null)
  if (row.convert) {
    if (row.convertTo === "") errors.convertTo = "Choose the coin to convert to"
    else if (row.convertTo === row.coin) errors.convertTo = `Convert to a coin other than ${row.coin}`
    if (row.convertAddress === "") errors.convertAddress = "Choose a saved address to pay the conversion out to"
    else if (row.convertTo !== "" && !saved(row.convertTo, row.convertAddress)) errors.convertAddress = `Not a saved ${row.convertTo} address: choose one from the address book`
    if (!isPositiveDecimal(row.minAmount)) errors.minAmount = `An amount in ${row.coin || "the coin"} above 0, like 0.001`
    if (!PERCENT_PATTERN.test(row.maxDifference)) errors.maxDifference = "A percentage from 0 to 99.99, like 2"
  }
  if (row.sweep) {
    if (!isPositiveDecimal(row.sweepThreshold)) errors.sweepThreshold = `An amount in ${row.coin || "the coin"} above 0, like 0.5`
    if (row.sweepAddress === "") errors.sweepAddress = "Choose a saved address to sweep to"
    else if (row.coin !== "" && !saved(row.coin, row.sweepAddress)) errors.sweepAddress = `Not a saved ${row.coin} address: choose one from the address book`
  }
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
    settlement: settlementBody(form.settlement),
  }
}

/** A decimal as the server stores it ("0.50" → "0.5"), so an unchanged amount is not a change; anything else as typed (the errors say why). */
const normalised = (value: string): string => (DECIMAL_PATTERN.test(value) ? new Wide(value).toFixed() : value)

/** The settlement rows as the policy's map: a row with no coin, or neither part on, is left out. */
function settlementBody(rows: readonly SettlementRow[]): MoneyOutPolicy["settlement"] {
  return Object.fromEntries(
    rows
      .filter((row) => row.coin !== "" && (row.convert || row.sweep))
      .map((row) => [
        row.coin,
        {
          convert: row.convert
            ? { to_currency: row.convertTo, to_address: row.convertAddress, min_amount: normalised(row.minAmount), max_difference_percent: normalised(row.maxDifference) }
            : null,
          sweep: row.sweep ? { threshold: normalised(row.sweepThreshold), to_address: row.sweepAddress } : null,
        },
      ])
  )
}

/** A value as the server compares it: objects whatever the order of their keys (limits by coin, settlement rules). */
const comparable = (value: unknown): string => JSON.stringify(canonical(value))

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (typeof value !== "object" || value === null) return value
  return Object.entries(value)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, inner]) => [key, canonical(inner)])
}

/** What a save sends: the fields that differ from the policy in force. */
export function changedPolicy(form: MoneyOutPolicyForm, policy: MoneyOutPolicy): Partial<Record<keyof MoneyOutPolicy, unknown>> {
  const body = policyBody(form)
  const fields = Object.keys(body) as Array<keyof MoneyOutPolicy>
  return Object.fromEntries(fields.filter((field) => comparable(body[field]) !== comparable(policy[field])).map((field) => [field, body[field]]))
}

/**
 * A policy value in words (the pending changes, History); `field` says which field it is (an empty
 * settlement map is "none", empty limits "no limits").
 */
export function policyValue(value: unknown, field?: string): string {
  if (value === null || value === undefined) return "none"
  if (typeof value === "boolean") return value ? "on" : "off"
  if (typeof value === "object") {
    const entries = Object.entries(value)
    if (field === "settlement" || (entries.length > 0 && entries.every(([, rule]) => isRecord(rule) && "convert" in rule && "sweep" in rule))) {
      return entries.length === 0 ? "none" : entries.map(([coin, rule]) => `${coin}: ${settlementWords(rule)}`).join(" · ")
    }
    return entries.length === 0 ? "no limits" : entries.map(([coin, amount]) => `${coin} ${String(amount)}`).join(", ")
  }
  return String(value)
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** An address shortened for a sentence, its start and end kept so it can be checked against the book. */
const shortAddress = (address: unknown): string => {
  const text = String(address)
  return text.length > 14 ? `${text.slice(0, 6)}…${text.slice(-6)}` : text
}

/** One coin's rule in words, e.g. "convert to USDT_TRX (min 0.001, max 2 % below market) → TXyz12…9fQ2aa; sweep above 0.5 → bc1qxy…0wlh". */
function settlementWords(rule: unknown): string {
  if (!isRecord(rule)) return String(rule)
  const parts: string[] = []
  const { convert, sweep } = rule
  if (isRecord(convert)) {
    parts.push(`convert to ${String(convert.to_currency)} (min ${String(convert.min_amount)}, max ${String(convert.max_difference_percent)} % below market) → ${shortAddress(convert.to_address)}`)
  }
  if (isRecord(sweep)) parts.push(`sweep above ${String(sweep.threshold)} → ${shortAddress(sweep.to_address)}`)
  return parts.length === 0 ? "kept as received" : parts.join("; ")
}

/** Each policy field's label: one per field, checked by the compiler. */
export const POLICY_LABELS: Record<keyof MoneyOutPolicy, string> = {
  address_book: "Address book",
  cooling_off_minutes: "Cooling-off (minutes)",
  approval_threshold: "Approval above",
  daily_limits: "Daily limits",
  claim_review_threshold: "Review claimed refunds above",
  settlement: "Settlement rules",
}
