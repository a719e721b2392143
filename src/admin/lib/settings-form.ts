import type { OrderOutcomeRules, OrderRule, SettingsField } from "./types"

/** The settings page's form: what the merchant edits (src/admin/routes/settings/crypto/page.tsx). */
export interface SettingsForm {
  accepted: string[]
  /** A coin, or `null` for "use medusa-config.ts". */
  defaultCoin: string | null
  lifetime: string
  orderOnDetection: boolean
  tolerance: string
  orderRules: OrderRule[]
  orderOutcomes: OrderOutcomeRules
  protectOrderStatus: boolean
}

/** The form as POST /admin/crypto/settings takes it: one value per saved field. */
export function settingsBody(form: SettingsForm): Record<SettingsField, unknown> {
  return {
    accepted_coins: form.accepted,
    default_coin: form.defaultCoin,
    invoice_lifetime_minutes: Number.parseInt(form.lifetime, 10),
    order_on_detection: form.orderOnDetection,
    underpaid_tolerance_percent: form.tolerance,
    order_rules: form.orderRules,
    order_outcomes: form.orderOutcomes,
    protect_order_status: form.protectOrderStatus,
  }
}

/** A value compared as the server keeps it: accepted coins are a set, their order means nothing. */
function comparable(field: SettingsField, value: unknown): string {
  return JSON.stringify(field === "accepted_coins" && Array.isArray(value) ? [...value].sort() : value)
}

/**
 * What a save sends: only the fields the merchant changed since the form was loaded (or last
 * saved). A field left alone is not sent, so one that follows medusa-config.ts keeps following it
 * (a later change of the config still applies) and the Changes list names only what changed.
 */
export function changedSettings(form: SettingsForm, loaded: SettingsForm): Partial<Record<SettingsField, unknown>> {
  const now = settingsBody(form)
  const before = settingsBody(loaded)
  const fields = Object.keys(now) as SettingsField[]
  return Object.fromEntries(fields.filter((field) => comparable(field, now[field]) !== comparable(field, before[field])).map((field) => [field, now[field]]))
}
