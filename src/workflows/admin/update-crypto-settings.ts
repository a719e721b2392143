import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { upsertCryptoSettingsStep, type CryptoSettingsPatch } from "./steps/upsert-crypto-settings"
import { recordCryptoSettingChangeStep } from "./steps/record-crypto-setting-change"
import { validateCryptoSettingsStep } from "./steps/validate-crypto-settings"

export const updateCryptoSettingsWorkflowId = "update-crypto-settings"

/**
 * Saves the merchant's crypto settings; the next checkout on every instance uses them. The audit
 * trail's row (who, what changed) is written in the same workflow, before the row it describes:
 * a failed save compensates it.
 */
export const updateCryptoSettingsWorkflow = createWorkflow(updateCryptoSettingsWorkflowId, (input: CryptoSettingsPatch) => {
  const checked = validateCryptoSettingsStep(input)
  recordCryptoSettingChangeStep(checked)
  return new WorkflowResponse(upsertCryptoSettingsStep(checked))
})
