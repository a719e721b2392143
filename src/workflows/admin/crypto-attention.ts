import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { linkCryptoAttentionRefundStep } from "./steps/link-crypto-attention-refund"
import { prepareCryptoAttentionRefundStep, type CreateCryptoAttentionRefundInput } from "./steps/prepare-crypto-attention-refund"
import { reserveCryptoWithdrawalStep } from "./steps/reserve-crypto-withdrawal"
import { resolveCryptoAttentionStep, type ResolveCryptoAttentionInput } from "./steps/resolve-crypto-attention"
import { sendCryptoWithdrawalStep } from "./steps/send-crypto-withdrawal"

export const resolveCryptoAttentionWorkflowId = "resolve-crypto-attention"

/** The merchant's recorded decision on an attention item (kept / other, a note, who, when). */
export const resolveCryptoAttentionWorkflow = createWorkflow(resolveCryptoAttentionWorkflowId, (input: ResolveCryptoAttentionInput) => {
  return new WorkflowResponse(resolveCryptoAttentionStep(input))
})

export const refundCryptoAttentionWorkflowId = "refund-crypto-attention"

/**
 * Refunds an attention item in crypto: recorded before sending, sent once per idempotency key (the
 * withdrawal steps), then tied to the item, which a completed refund resolves.
 */
export const refundCryptoAttentionWorkflow = createWorkflow(refundCryptoAttentionWorkflowId, (input: CreateCryptoAttentionRefundInput) => {
  const prepared = prepareCryptoAttentionRefundStep(input)
  const reservation = reserveCryptoWithdrawalStep(transform({ prepared }, ({ prepared }) => prepared.withdrawal))
  const sent = sendCryptoWithdrawalStep(reservation)
  const link = transform({ prepared, sent }, ({ prepared, sent }) => ({ attention_id: prepared.attention_id, sent }))
  return new WorkflowResponse(linkCryptoAttentionRefundStep(link))
})
