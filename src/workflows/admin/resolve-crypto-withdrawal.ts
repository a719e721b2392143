import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { recordCryptoRefundStep } from "./steps/record-crypto-refund"
import { resolveCryptoWithdrawalStep, type ResolveCryptoWithdrawalInput } from "./steps/resolve-crypto-withdrawal"

export const resolveCryptoWithdrawalWorkflowId = "resolve-crypto-withdrawal"

/**
 * The merchant settles a withdrawal (or crypto refund) whose outcome the gateway did not prove; a
 * refund settled with a completed operation is then recorded as the Medusa refund.
 */
export const resolveCryptoWithdrawalWorkflow = createWorkflow(resolveCryptoWithdrawalWorkflowId, (input: ResolveCryptoWithdrawalInput) => {
  const withdrawal = resolveCryptoWithdrawalStep(input)
  const recorded = recordCryptoRefundStep(transform({ withdrawal }, ({ withdrawal }) => ({ withdrawal, replayed: false })))
  return new WorkflowResponse(transform({ recorded }, ({ recorded }) => recorded.withdrawal))
})
