import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { guardCryptoRefundStep } from "./steps/guard-crypto-refund"
import { prepareCryptoRefundStep, type CreateCryptoRefundInput } from "./steps/prepare-crypto-refund"
import { recordCryptoRefundStep } from "./steps/record-crypto-refund"
import { reserveCryptoWithdrawalStep } from "./steps/reserve-crypto-withdrawal"
import { sendCryptoWithdrawalStep } from "./steps/send-crypto-withdrawal"

export const createCryptoRefundWorkflowId = "create-crypto-refund"

/**
 * A crypto refund: the amount converted at the confirmed rate, recorded and sent as a `cash_out`
 * (once per idempotency key, as any withdrawal; never beyond what is refundable once recorded), then
 * recorded as the Medusa refund.
 */
export const createCryptoRefundWorkflow = createWorkflow(createCryptoRefundWorkflowId, (input: CreateCryptoRefundInput) => {
  const prepared = prepareCryptoRefundStep(input)
  const reservation = reserveCryptoWithdrawalStep(prepared)
  const sent = sendCryptoWithdrawalStep(guardCryptoRefundStep(reservation))
  return new WorkflowResponse(recordCryptoRefundStep(sent))
})
