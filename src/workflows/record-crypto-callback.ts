import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { recordCryptoCallbackStep, type RecordCryptoCallbackStepInput } from "./steps/record-crypto-callback"

export const recordCryptoCallbackWorkflowId = "record-crypto-callback"

/** Stores a verified callback delivery durably (the route answers 200 only after this). */
export const recordCryptoCallbackWorkflow = createWorkflow(recordCryptoCallbackWorkflowId, (input: RecordCryptoCallbackStepInput) => {
  return new WorkflowResponse(recordCryptoCallbackStep(input))
})
