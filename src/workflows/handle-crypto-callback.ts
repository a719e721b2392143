import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { correlateCryptoCallbackStep } from "./steps/correlate-crypto-callback"
import { markCryptoCallbackProcessedStep } from "./steps/mark-crypto-callback-processed"
import { syncCryptoInvoiceWorkflow } from "./sync-crypto-invoice"

export const handleCryptoCallbackWorkflowId = "handle-crypto-callback"

/**
 * Processes one stored callback: find its invoice, sync the invoice from the gateway (the callback
 * itself never moves money, spec §6.3 only proves who sent it), mark the delivery processed.
 * `pay_in` deposits (spec §6.2) are recorded only.
 */
export const handleCryptoCallbackWorkflow = createWorkflow(handleCryptoCallbackWorkflowId, (input: { callback_id: string }) => {
  const correlated = correlateCryptoCallbackStep({ callback_id: input.callback_id })
  const synced = when("crypto-callback-has-invoice", { correlated }, ({ correlated }) => correlated.invoice_id !== null).then(() =>
    syncCryptoInvoiceWorkflow.runAsStep({ input: { invoice_id: transform({ correlated }, ({ correlated }) => correlated.invoice_id ?? "") } })
  )
  const outcome = transform({ correlated, synced }, ({ correlated, synced }) =>
    synced?.outcome ?? correlated.outcome
  )
  markCryptoCallbackProcessedStep({ callback_id: input.callback_id, outcome })
  return new WorkflowResponse({
    callback_id: input.callback_id,
    invoice_id: correlated.invoice_id,
    outcome,
    discrepancies: correlated.discrepancies,
  })
})
