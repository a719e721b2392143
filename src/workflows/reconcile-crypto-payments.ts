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
  const recovered = recoverCryptoPayInsStep({})
  const all = transform({ work, recovered }, ({ work, recovered }) => ({
    invoice_ids: work.invoice_ids,
    callback_ids: [...recovered.callback_ids, ...work.callback_ids.filter((id) => !recovered.callback_ids.includes(id))],
  }))
  const result = runCryptoReconcileStep(all)
  return new WorkflowResponse(
    transform({ result, recovered }, ({ result, recovered }) => ({
      ...result,
      pay_ins_recovered: recovered.callback_ids.length,
      failed: result.failed + recovered.failed,
    }))
  )
})
