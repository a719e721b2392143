import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { createCryptoRefundWorkflow } from "./admin/create-crypto-refund"
import { settleCryptoRefundClaimStep, takeCryptoRefundClaimStep } from "./steps/claim-crypto-refund"
import { readCryptoRefundClaimStep } from "./steps/read-crypto-refund-claim"

export const claimCryptoRefundWorkflowId = "claim-crypto-refund"

/**
 * The shopper claims a refund with their address (POST /store/crypto/refund-claims,
 * docs/money-out.md#refunds-the-shopper-claims): the claim is taken once, the refund goes through
 * the same once-only refund workflow as a typed-address refund (an unknown outcome is never resent),
 * and the answer is the claim as the shopper sees it.
 */
export const claimCryptoRefundWorkflow = createWorkflow(claimCryptoRefundWorkflowId, (input: { token: string; address: string }) => {
  const taken = takeCryptoRefundClaimStep(input)
  const refundInput = transform({ taken }, ({ taken }) => taken.refund)
  const refunded = createCryptoRefundWorkflow.runAsStep({ input: refundInput })
  const settleInput = transform({ taken, refunded }, ({ taken, refunded }) => ({
    claim_id: taken.claim_id,
    withdrawal: { id: refunded.withdrawal.id, status: refunded.withdrawal.status, error_message: refunded.withdrawal.error_message },
  }))
  settleCryptoRefundClaimStep(settleInput)
  return new WorkflowResponse(readCryptoRefundClaimStep({ token: input.token }).config({ name: "read-claimed-crypto-refund" }))
})

export const getCryptoRefundClaimWorkflowId = "get-crypto-refund-claim"

/** GET /store/crypto/refund-claims?token= */
export const getCryptoRefundClaimWorkflow = createWorkflow(getCryptoRefundClaimWorkflowId, (input: { token: string }) => {
  return new WorkflowResponse(readCryptoRefundClaimStep(input))
})
