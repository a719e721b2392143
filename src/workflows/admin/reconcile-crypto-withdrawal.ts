import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { reconcileCryptoWithdrawalStep } from "./steps/reconcile-crypto-withdrawal"
import { recordCryptoRefundStep } from "./steps/record-crypto-refund"

export const reconcileCryptoWithdrawalWorkflowId = "reconcile-crypto-withdrawal"

/**
 * Settles a withdrawal from the gateway's operations; never sends it again. A refund settled as
 * completed is then recorded as the Medusa refund. Answers the candidates while still unknown.
 */
export const reconcileCryptoWithdrawalWorkflow = createWorkflow(reconcileCryptoWithdrawalWorkflowId, (input: { id: string }) => {
  const reconciled = reconcileCryptoWithdrawalStep(input)
  const recorded = recordCryptoRefundStep(transform({ reconciled }, ({ reconciled }) => ({ withdrawal: reconciled.withdrawal, replayed: false })))
  return new WorkflowResponse(transform({ reconciled, recorded }, ({ reconciled, recorded }) => ({ withdrawal: recorded.withdrawal, candidates: reconciled.candidates })))
})
