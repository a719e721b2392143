import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { listCryptoWorkStep } from "./steps/list-crypto-work"
import { runCryptoReconcileStep } from "./steps/run-crypto-reconcile"

export const reconcileCryptoPaymentsWorkflowId = "reconcile-crypto-payments"

export interface ReconcileCryptoPaymentsInput {
  /** Only invoices untouched (and deliveries unprocessed) for this long; default 300 s. */
  older_than_seconds?: number
  /** At most this many invoices and deliveries per run; default 50. */
  limit?: number
}

/** Asks the gateway about every invoice still pending for a while, so a lost callback never strands an order. */
export const reconcileCryptoPaymentsWorkflow = createWorkflow(reconcileCryptoPaymentsWorkflowId, (input: ReconcileCryptoPaymentsInput) => {
  const settings = transform({ input }, ({ input }) => ({
    older_than_seconds: input.older_than_seconds ?? 300,
    limit: input.limit ?? 50,
  }))
  const work = listCryptoWorkStep(settings)
  return new WorkflowResponse(runCryptoReconcileStep(work))
})
