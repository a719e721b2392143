import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { reserveCryptoWithdrawalStep, type ReserveCryptoWithdrawalInput } from "./steps/reserve-crypto-withdrawal"
import { sendCryptoWithdrawalStep } from "./steps/send-crypto-withdrawal"

export const createCryptoWithdrawalWorkflowId = "create-crypto-withdrawal"

/** Records a withdrawal under its idempotency key, then sends it once (spec §4.2). */
export const createCryptoWithdrawalWorkflow = createWorkflow(createCryptoWithdrawalWorkflowId, (input: ReserveCryptoWithdrawalInput) => {
  const reservation = reserveCryptoWithdrawalStep(input)
  const sent = sendCryptoWithdrawalStep(reservation)
  return new WorkflowResponse(sent)
})
