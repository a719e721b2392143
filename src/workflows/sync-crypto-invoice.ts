import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { applyCryptoInvoiceStep } from "./steps/apply-crypto-invoice"
import { assessCryptoInvoiceStep } from "./steps/assess-crypto-invoice"

export const syncCryptoInvoiceWorkflowId = "sync-crypto-invoice"

/**
 * Brings one invoice's Medusa payment and order in line with the gateway: lock the invoice
 * (Medusa's locking module: one sync per invoice at a time, across processes when a shared lock
 * provider is configured), re-read it from the gateway, apply. Used by callbacks and the job.
 */
export const syncCryptoInvoiceWorkflow = createWorkflow(syncCryptoInvoiceWorkflowId, (input: { invoice_id: string }) => {
  const key = transform({ input }, ({ input }) => `crypto-invoice:${input.invoice_id}`)
  acquireLockStep({ key, timeout: 60, ttl: 180 })
  const assessment = assessCryptoInvoiceStep({ invoice_id: input.invoice_id })
  const applied = applyCryptoInvoiceStep(assessment)
  releaseLockStep({ key })
  return new WorkflowResponse(applied)
})
