import { createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { emitEventStep } from "@medusajs/medusa/core-flows"
import { CryptoEvents, type CryptoRefundClaimableEvent } from "../../core/events"
import { MedusaError } from "@medusajs/framework/utils"
import { resolveCryptoModule } from "../../modules/crypto"
import { createCryptoRefundClaimStep, type CreateCryptoRefundClaimInput } from "./steps/create-crypto-refund-claim"

export const createCryptoRefundClaimWorkflowId = "create-crypto-refund-claim"

/**
 * A crypto refund the shopper claims (docs/money-out.md#refunds-the-shopper-claims): prepared as
 * any refund, recorded as a claim; the answer carries the link for the shopper, shown once.
 */
export const createCryptoRefundClaimWorkflow = createWorkflow(createCryptoRefundClaimWorkflowId, (input: CreateCryptoRefundClaimInput) => {
  const claim = createCryptoRefundClaimStep(input)
  // The shopper's e-mail with the link (docs/notifications.md), or a store's own subscriber: the
  // link exists only now. Emitted once the workflow succeeded (Medusa's grouped workflow events).
  const data = transform({ claim, input }, ({ claim, input }): CryptoRefundClaimableEvent => ({
    id: claim.id,
    provider_id: claim.provider_id,
    order_id: input.order_id,
    psys_cid: claim.psys_cid,
    amount: claim.amount,
    link: claim.link,
    expires_at: claim.expires_at,
  }))
  emitEventStep({ eventName: CryptoEvents.REFUND_CLAIMABLE, data })
  return new WorkflowResponse(claim)
})

export const revokeCryptoRefundClaimStepId = "revoke-crypto-refund-claim"

/** Ends a claim that still waits for the shopper's address; who and when are recorded. */
export const revokeCryptoRefundClaimStep = createStep(
  revokeCryptoRefundClaimStepId,
  async (input: { id: string; revoked_by: string | null }, { container }) => {
    const service = resolveCryptoModule(container)
    const [claim] = await service.listCryptoRefundClaims({ id: input.id }, { take: 1 })
    if (claim === undefined) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Refund claim ${input.id} was not found`)
    }
    if (claim.status === "revoked") {
      return new StepResponse(claim)
    }
    if (claim.status !== "waiting") {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Refund claim ${input.id} was already claimed by the customer (address ${claim.address ?? "?"}): it can no longer be revoked`)
    }
    return new StepResponse(await service.updateCryptoRefundClaims({ id: claim.id, status: "revoked", revoked_by: input.revoked_by, revoked_at: new Date() }))
  }
)

export const revokeCryptoRefundClaimWorkflowId = "revoke-crypto-refund-claim"

export const revokeCryptoRefundClaimWorkflow = createWorkflow(revokeCryptoRefundClaimWorkflowId, (input: { id: string; revoked_by: string | null }) => {
  return new WorkflowResponse(revokeCryptoRefundClaimStep(input))
})
