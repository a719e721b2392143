import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { listCryptoWorkStep } from "./steps/list-crypto-work"
import { recoverCryptoPayInsStep } from "./steps/recover-crypto-pay-ins"
import { refreshCryptoExchangesStep } from "./steps/refresh-crypto-exchanges"

export const findCryptoReconcileWorkWorkflowId = "find-crypto-reconcile-work"

export interface FindCryptoReconcileWorkInput {
  /** Only invoices untouched (and deliveries unprocessed) for this long; default 300 s. */
  older_than_seconds?: number
  /** At most this many invoices and deliveries per run; default 50. */
  limit?: number
}

/**
 * What the reconciliation (src/subscribers/crypto-reconcile-requested.ts) syncs, each item with
 * `syncCryptoInvoiceWorkflow` on its own: every invoice still pending for a while and every stored
 * delivery whose processing never finished, so a lost callback never strands an order, and the
 * deposits (`pay_in`) whose callbacks were lost, read back from the operations list and stored as
 * the deliveries they should have been; and it follows the exchanges the gateway has not finished
 * to their end (docs/workflows.md#workflows-run-inside-steps says why the
 * syncs are not steps of this workflow).
 */
export const findCryptoReconcileWorkWorkflow = createWorkflow(findCryptoReconcileWorkWorkflowId, (input: FindCryptoReconcileWorkInput) => {
  const settings = transform({ input }, ({ input }) => ({ older_than_seconds: input.older_than_seconds ?? 300, limit: input.limit ?? 50 }))
  const work = listCryptoWorkStep(settings)
  const recovered = recoverCryptoPayInsStep({})
  const exchanges = refreshCryptoExchangesStep(settings)
  return new WorkflowResponse(
    transform({ work, recovered, exchanges }, ({ work, recovered, exchanges }) => ({
      invoice_ids: work.invoice_ids,
      callback_ids: [...work.callback_ids, ...recovered.callback_ids],
      pay_ins_recovered: recovered.callback_ids.length,
      exchanges_ended: exchanges.ended,
      failed: recovered.failed + exchanges.failed,
    }))
  )
})
