import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { upsertCryptoSettingsStep, type CryptoSettingsPatch } from "./steps/upsert-crypto-settings"
import { validateCryptoSettingsStep } from "./steps/validate-crypto-settings"

export const updateCryptoSettingsWorkflowId = "update-crypto-settings"

/** Saves the merchant's crypto settings; the next checkout on every instance uses them. */
export const updateCryptoSettingsWorkflow = createWorkflow(updateCryptoSettingsWorkflowId, (input: CryptoSettingsPatch) => {
  const checked = validateCryptoSettingsStep(input)
  return new WorkflowResponse(upsertCryptoSettingsStep(checked))
})
