import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { readStoredSettings, settingChanges } from "../../../core/config/settings"
import { resolveCryptoModule } from "../../../modules/crypto"
import { CRYPTO_SETTINGS_FIELDS, type CryptoSettingsPatch } from "./upsert-crypto-settings"

export const recordCryptoSettingChangeStepId = "record-crypto-setting-change"

/**
 * The audit trail of a save (docs/books.md#order-rules): one `crypto_setting_change` row naming the
 * admin who saved and each field that changes, `{ from, to }`, read against the stored row before
 * the save (so it runs before the upsert). A save that changes nothing writes no row.
 * Compensation deletes the row: a save that fails records nothing.
 */
export const recordCryptoSettingChangeStep = createStep(
  recordCryptoSettingChangeStepId,
  async (patch: CryptoSettingsPatch, { container }) => {
    const service = resolveCryptoModule(container)
    const previous = await readStoredSettings(service, patch.provider_id)
    const changes = settingChanges(previous, Object.fromEntries(CRYPTO_SETTINGS_FIELDS.map((field) => [field, patch[field]])))
    if (Object.keys(changes).length === 0) {
      return new StepResponse(null, null)
    }
    const row = await service.createCryptoSettingChanges({ provider_id: patch.provider_id, changed_by: patch.updated_by ?? null, changes })
    return new StepResponse({ id: row.id, changes }, row.id)
  },
  async (id, { container }) => {
    if (id === null || id === undefined) return
    await resolveCryptoModule(container).deleteCryptoSettingChanges(id)
  }
)
