import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { recordCryptoCallbackFailureStep } from "./steps/record-crypto-callback-failure"

export const recordCryptoCallbackFailureWorkflowId = "record-crypto-callback-failure"

/** A stored delivery whose processing failed: counted, and raised for the merchant after a few failures. */
export const recordCryptoCallbackFailureWorkflow = createWorkflow(recordCryptoCallbackFailureWorkflowId, (input: { callback_id: string; error: string }) => {
  return new WorkflowResponse(recordCryptoCallbackFailureStep(input))
})
