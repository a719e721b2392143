import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { listCryptoWorkStep } from "./steps/list-crypto-work"
import { recoverCryptoPayInsStep } from "./steps/recover-crypto-pay-ins"
import { runCryptoReconcileStep } from "./steps/run-crypto-reconcile"

export const reconcileCryptoPaymentsWorkflowId = "reconcile-crypto-payments"

export interface ReconcileCryptoPaymentsInput {
  /** Only invoices untouched (and deliveries unprocessed) for this long; default 300 s. */
  older_than_seconds?: number
  /** At most this many invoices and deliveries per run; default 50. */
  limit?: number
}

/**
 * Asks the gateway about every invoice still pending for a while, so a lost callback never strands
 * an order; reads back the deposits (`pay_in`) whose callbacks were lost from the operations list
 * and processes them as the callbacks would have been processed (customer's deposits, or
 * `unmatched_pay_in`).
 */
export const reconcileCryptoPaymentsWorkflow = createWorkflow(reconcileCryptoPaymentsWorkflowId, (input: ReconcileCryptoPaymentsInput) => {
  const settings = transform({ input }, ({ input }) => ({
    older_than_seconds: input.older_than_seconds ?? 300,
    limit: input.limit ?? 50,
  }))
  const work = listCryptoWorkStep(settings)
  const result = runCryptoReconcileStep(work)
  // After the invoices, so the invoices' own gateway reads come first.
  const recovered = recoverCryptoPayInsStep({})
  const payIns = runCryptoReconcileStep(transform({ recovered }, ({ recovered }) => ({ invoice_ids: [], callback_ids: recovered.callback_ids }))).config({
    name: "run-crypto-reconcile-recovered-pay-ins",
  })
  return new WorkflowResponse(
    transform({ result, payIns, recovered }, ({ result, payIns, recovered }) => ({
      synced: result.synced,
      callbacks: result.callbacks + payIns.callbacks,
      pay_ins_recovered: recovered.callback_ids.length,
      failed: result.failed + payIns.failed + recovered.failed,
    }))
  )
})
