import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { reconcileCryptoWithdrawalStep } from "./steps/reconcile-crypto-withdrawal"

export const reconcileCryptoWithdrawalWorkflowId = "reconcile-crypto-withdrawal"

/** Settles a withdrawal from the gateway's operations; never sends it again. */
export const reconcileCryptoWithdrawalWorkflow = createWorkflow(reconcileCryptoWithdrawalWorkflowId, (input: { id: string }) => {
  return new WorkflowResponse(reconcileCryptoWithdrawalStep(input))
})
