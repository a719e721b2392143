import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveCryptoProviderEntry } from "../../../core/config/provider-entry"
import { policyNow, readMoneyOutPolicy } from "../../../core/money-out/policy"
import type { AdminNotice } from "../../../core/notify/admin-notices"
import { resolveCryptoModule } from "../../../modules/crypto"
import type { CryptoAddressRecord } from "../../../modules/crypto/service"

export interface SaveCryptoAddressInput {
  provider_id?: string
  psys_cid: string
  address: string
  label?: string | null
  added_by: string | null
}

export interface SavedCryptoAddress {
  address: CryptoAddressRecord
  /** False when the same address of the coin was in the book already (nothing saved, nobody told again). */
  created: boolean
  /** What every admin is told of a new entry. */
  notices: AdminNotice[]
}

export const saveCryptoAddressStepId = "save-crypto-address"

/**
 * Saves an address in the address book (docs/money-out.md#money-out-policy), usable after the
 * cooling-off in force now, and audits it. Forward-only and idempotent: the same address of the
 * coin, saved already and not removed, is answered as it is (its cooling-off unchanged), also when
 * two requests save it at once (the partial unique index keeps one).
 */
export const saveCryptoAddressStep = createStep(saveCryptoAddressStepId, async (input: SaveCryptoAddressInput, { container }) => {
  const service = resolveCryptoModule(container)
  const entry = resolveCryptoProviderEntry(container, input.provider_id)
  const key = { provider_id: entry.providerId, psys_cid: input.psys_cid, address: input.address, removed_at: null }
  const find = async () => (await service.listCryptoAddresses(key, { take: 1 }))[0]
  const existing = await find()
  if (existing !== undefined) return new StepResponse<SavedCryptoAddress>({ address: existing, created: false, notices: [] })
  const now = policyNow()
  const policy = await readMoneyOutPolicy(service, entry.providerId, entry.options.moneyOut, now)
  let created: CryptoAddressRecord
  try {
    created = await service.createCryptoAddresses({
      provider_id: entry.providerId,
      psys_cid: input.psys_cid,
      address: input.address,
      label: input.label ?? null,
      added_by: input.added_by,
      added_at: now,
      usable_from: new Date(now.getTime() + policy.cooling_off_minutes * 60_000),
    })
  } catch (error) {
    // Saved at the same moment by another request: the unique index kept that one.
    const raced = await find()
    if (raced !== undefined) return new StepResponse<SavedCryptoAddress>({ address: raced, created: false, notices: [] })
    throw error
  }
  await service.createCryptoMoneyOutAudits({
    provider_id: entry.providerId,
    action: "address_added",
    actor: input.added_by,
    subject_id: created.id,
    address_ids: [created.id],
    details: { psys_cid: created.psys_cid, address: created.address, label: created.label, usable_from: new Date(created.usable_from).toISOString(), cooling_off_minutes: policy.cooling_off_minutes },
  })
  const notice: AdminNotice = {
    kind: "address_added",
    id: created.id,
    psys_cid: created.psys_cid,
    address: created.address,
    label: created.label,
    added_by: created.added_by,
    usable_from: new Date(created.usable_from).toISOString(),
  }
  return new StepResponse<SavedCryptoAddress>({ address: created, created: true, notices: [notice] })
})

export interface RemoveCryptoAddressInput {
  id: string
  removed_by: string | null
}

export const removeCryptoAddressStepId = "remove-crypto-address"

/**
 * Removes an address from the address book at once (a tightening) and audits it; the row stays,
 * so History still names the entry earlier payments went to. Forward-only and idempotent: a removed
 * entry is answered as it is.
 */
export const removeCryptoAddressStep = createStep(removeCryptoAddressStepId, async (input: RemoveCryptoAddressInput, { container }) => {
  const service = resolveCryptoModule(container)
  const [entry] = await service.listCryptoAddresses({ id: input.id }, { take: 1 })
  if (entry === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `No address-book entry ${input.id}`)
  }
  if (entry.removed_at !== null) return new StepResponse(entry)
  const removed = await service.updateCryptoAddresses({ id: entry.id, removed_at: policyNow(), removed_by: input.removed_by })
  await service.createCryptoMoneyOutAudits({
    provider_id: entry.provider_id,
    action: "address_removed",
    actor: input.removed_by,
    subject_id: entry.id,
    address_ids: [entry.id],
    details: { psys_cid: entry.psys_cid, address: entry.address, label: entry.label },
  })
  return new StepResponse(removed)
})
