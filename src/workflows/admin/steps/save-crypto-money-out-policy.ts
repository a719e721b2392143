import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { MONEY_OUT_POLICY_FIELD_NAMES, effectiveMoneyOutPolicy, pendingPolicyChanges, planPolicyChanges, type MoneyOutPolicyPatch } from "../../../core/config/money-out-policy"
import { resolveCryptoProviderEntry } from "../../../core/config/provider-entry"
import { policyNow } from "../../../core/money-out/policy"
import type { AdminNotice } from "../../../core/notify/admin-notices"
import { resolveCryptoModule } from "../../../modules/crypto"
import type { CryptoPolicyChangeRecord } from "../../../modules/crypto/service"

export interface SaveCryptoMoneyOutPolicyInput {
  provider_id?: string
  patch: MoneyOutPolicyPatch
  requested_by: string | null
}

export interface SavedCryptoMoneyOutPolicy {
  provider_id: string
  /** The changes this save recorded: in effect now, or (a loosening) from `effective_at`. */
  changes: CryptoPolicyChangeRecord[]
  /** What every admin is told: each loosening. */
  notices: AdminNotice[]
}

export const saveCryptoMoneyOutPolicyStepId = "save-crypto-money-out-policy"

/**
 * Saves a change of the money-out policy (docs/money-out.md#money-out-policy): each field that
 * differs from the policy in force becomes a `crypto_policy_change` row, a tightening in effect at
 * once, a loosening after the cooling-off in force (src/core/config/money-out-policy.ts); a pending
 * change of a field this save sets is cancelled first (the newer decision wins). Each is audited.
 * Forward-only: a save that changes nothing writes nothing; saving the same values again changes
 * nothing more (they are then the values in force, or pending with a new time).
 */
export const saveCryptoMoneyOutPolicyStep = createStep(saveCryptoMoneyOutPolicyStepId, async (input: SaveCryptoMoneyOutPolicyInput, { container }) => {
  const service = resolveCryptoModule(container)
  const entry = resolveCryptoProviderEntry(container, input.provider_id)
  const now = policyNow()
  const rows = await service.listCryptoPolicyChanges({ provider_id: entry.providerId })
  const current = effectiveMoneyOutPolicy(entry.options.moneyOut, rows, now)
  const touched = MONEY_OUT_POLICY_FIELD_NAMES.filter((field) => input.patch[field] !== undefined)
  for (const pending of pendingPolicyChanges(rows, now).filter((row) => (touched as string[]).includes(row.field))) {
    await service.updateCryptoPolicyChanges({ id: pending.id, cancelled_at: now, cancelled_by: input.requested_by })
  }
  const changes: CryptoPolicyChangeRecord[] = []
  const notices: AdminNotice[] = []
  for (const planned of planPolicyChanges(current, input.patch, now)) {
    const row = await service.createCryptoPolicyChanges({
      provider_id: entry.providerId,
      field: planned.field,
      change: { from: planned.from, to: planned.to },
      loosens: planned.loosens,
      requested_by: input.requested_by,
      effective_at: planned.effective_at,
    })
    changes.push(row)
    await service.createCryptoMoneyOutAudits({
      provider_id: entry.providerId,
      action: planned.loosens ? "policy_change_scheduled" : "policy_changed",
      actor: input.requested_by,
      subject_id: row.id,
      details: { field: planned.field, from: planned.from, to: planned.to, effective_at: planned.effective_at.toISOString() },
    })
    if (planned.loosens) {
      notices.push({ kind: "policy_loosened", id: row.id, field: planned.field, from: planned.from, to: planned.to, requested_by: input.requested_by, effective_at: planned.effective_at.toISOString() })
    }
  }
  return new StepResponse<SavedCryptoMoneyOutPolicy>({ provider_id: entry.providerId, changes, notices })
})
