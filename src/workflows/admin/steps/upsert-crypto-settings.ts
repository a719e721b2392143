import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveCryptoModule } from "../../../modules/crypto"
import { storedOrderRules, type OrderOutcomeRules, type OrderRule } from "../../../core/config/order-rules"
import { invalidateCryptoSettings, settingsCacheOf } from "../../../core/config/settings"

export interface CryptoSettingsPatch {
  provider_id: string
  accepted_coins?: string[] | null
  default_coin?: string | null
  invoice_lifetime_minutes?: number | null
  order_on_detection?: boolean | null
  underpaid_tolerance_percent?: string | null
  /** The order rules (src/core/config/order-rules.ts), validated; null = none. */
  order_rules?: OrderRule[] | null
  /** What each invoice outcome does to its order (docs/books.md#order-rules), validated; null = today's behaviour. */
  order_outcomes?: OrderOutcomeRules | null
  /** Null = on (docs/books.md#protect-order-status). */
  protect_order_status?: boolean | null
  updated_by?: string | null
}

interface SettingsSnapshot {
  id: string
  accepted_coins: string[] | null
  default_coin: string | null
  invoice_lifetime_minutes: number | null
  order_on_detection: boolean | null
  underpaid_tolerance_percent: string | null
  order_rules: Record<string, unknown> | null
  order_outcomes: Record<string, unknown> | null
  protect_order_status: boolean | null
  updated_by: string | null
}

/** The fields a merchant saves (each also in the audit trail, record-crypto-setting-change.ts). */
export const CRYPTO_SETTINGS_FIELDS = [
  "accepted_coins",
  "default_coin",
  "invoice_lifetime_minutes",
  "order_on_detection",
  "underpaid_tolerance_percent",
  "order_rules",
  "order_outcomes",
  "protect_order_status",
] as const
const FIELDS = CRYPTO_SETTINGS_FIELDS

export const upsertCryptoSettingsStepId = "upsert-crypto-settings"

/**
 * Saves the fields present in the patch (null resets one to the medusa-config default), then drops
 * the settings the payment paths keep in Medusa's cache module, on every instance sharing it
 * (src/core/config/settings.ts); so does the compensation.
 */
export const upsertCryptoSettingsStep = createStep(
  upsertCryptoSettingsStepId,
  async (patch: CryptoSettingsPatch, { container }) => {
    const service = resolveCryptoModule(container)
    const [previous] = await service.listCryptoSettings({ provider_id: patch.provider_id }, { take: 1 })
    const changes: Record<string, unknown> = { updated_by: patch.updated_by ?? null }
    for (const field of FIELDS) {
      if (patch[field] !== undefined) changes[field] = field === "order_rules" ? storedOrderRules(patch.order_rules ?? null) : patch[field]
    }
    const saved = previous
      ? await service.updateCryptoSettings({ id: previous.id, ...changes })
      : await service.createCryptoSettings({ provider_id: patch.provider_id, ...changes })
    await invalidateCryptoSettings(settingsCacheOf(container))
    const snapshot: SettingsSnapshot | null = previous
      ? {
          id: previous.id,
          accepted_coins: previous.accepted_coins ?? null,
          default_coin: previous.default_coin ?? null,
          invoice_lifetime_minutes: previous.invoice_lifetime_minutes ?? null,
          order_on_detection: previous.order_on_detection ?? null,
          underpaid_tolerance_percent: previous.underpaid_tolerance_percent ?? null,
          order_rules: previous.order_rules ?? null,
          order_outcomes: previous.order_outcomes ?? null,
          protect_order_status: previous.protect_order_status ?? null,
          updated_by: previous.updated_by ?? null,
        }
      : null
    return new StepResponse(saved, { previous: snapshot, id: saved.id })
  },
  async (undo, { container }) => {
    if (!undo) return
    const service = resolveCryptoModule(container)
    const previous = undo.previous
    if (previous === null) {
      await service.deleteCryptoSettings(undo.id)
    } else {
      await service.updateCryptoSettings({ ...previous, accepted_coins: previous.accepted_coins === null ? null : [...previous.accepted_coins] })
    }
    await invalidateCryptoSettings(settingsCacheOf(container))
  }
)
