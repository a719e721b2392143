import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { upsertCryptoSettingsStep, type CryptoSettingsPatch } from "./steps/upsert-crypto-settings"

export const updateCryptoSettingsWorkflowId = "update-crypto-settings"

/** Saves the merchant's crypto settings; the next checkout on every instance uses them. */
export const updateCryptoSettingsWorkflow = createWorkflow(updateCryptoSettingsWorkflowId, (input: CryptoSettingsPatch) => {
  return new WorkflowResponse(upsertCryptoSettingsStep(input))
})
