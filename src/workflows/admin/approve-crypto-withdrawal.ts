import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { approveCryptoWithdrawalStep, rejectCryptoWithdrawalStep, type DecideCryptoWithdrawalInput } from "./steps/approve-crypto-withdrawal"
import { recordCryptoRefundStep } from "./steps/record-crypto-refund"
import { sendCryptoWithdrawalStep } from "./steps/send-crypto-withdrawal"

export const approveCryptoWithdrawalWorkflowId = "approve-crypto-withdrawal"

/**
 * Another admin approves a withdrawal waiting for approval (a claimed refund waiting for review too),
 * which is then sent once, as any withdrawal (docs/money-out.md#money-out-policy): only the approval
 * that moved it sends; a refund sent is recorded as the Medusa refund, as a refund asked directly is.
 */
export const approveCryptoWithdrawalWorkflow = createWorkflow(approveCryptoWithdrawalWorkflowId, (input: DecideCryptoWithdrawalInput) => {
  const approved = approveCryptoWithdrawalStep(input)
  return new WorkflowResponse(recordCryptoRefundStep(sendCryptoWithdrawalStep(approved)))
})

export const rejectCryptoWithdrawalWorkflowId = "reject-crypto-withdrawal"

/** An admin rejects a withdrawal waiting for approval, with a note: nothing is sent. */
export const rejectCryptoWithdrawalWorkflow = createWorkflow(rejectCryptoWithdrawalWorkflowId, (input: DecideCryptoWithdrawalInput) => {
  return new WorkflowResponse(rejectCryptoWithdrawalStep(input))
})
