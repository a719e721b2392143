import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { emitEventStep } from "@medusajs/medusa/core-flows"
import { CRYPTO_RECONCILE_REQUESTED, type CryptoReconcileRequestedEvent } from "../../core/events"

export const requestCryptoReconcileWorkflowId = "request-crypto-reconcile"

/**
 * Asks for the reconciliation (`crypto.reconcile.requested`): the job every minute, the admin's
 * **Reconcile now** at once (docs/production.md#reconciliation). A worker runs it
 * (src/subscribers/crypto-reconcile-requested.ts); the event is released when this workflow ends.
 */
export const requestCryptoReconcileWorkflow = createWorkflow(requestCryptoReconcileWorkflowId, (input: CryptoReconcileRequestedEvent) => {
  emitEventStep({ eventName: CRYPTO_RECONCILE_REQUESTED, data: input })
  return new WorkflowResponse(transform({ input }, () => ({ requested_at: new Date().toISOString() })))
})
