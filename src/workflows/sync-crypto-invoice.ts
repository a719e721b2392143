import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { applyCryptoInvoiceStep } from "./steps/apply-crypto-invoice"
import { assessCryptoInvoiceStep } from "./steps/assess-crypto-invoice"
import { findCryptoInvoiceGroupStep } from "./steps/find-crypto-invoice-group"

export const syncCryptoInvoiceWorkflowId = "sync-crypto-invoice"

/**
 * Brings one invoice's Medusa payment and order in line with the gateway: lock the invoice
 * (Medusa's locking module: one sync per invoice at a time, across processes when a shared lock
 * provider is configured), re-read it from the gateway, apply. Used by callbacks and the job. A
 * top-up is synced with the invoice whose rest it asks for (docs/attention.md#paying-the-rest): one
 * lock, one decision for both.
 */
export const syncCryptoInvoiceWorkflow = createWorkflow(syncCryptoInvoiceWorkflowId, (input: { invoice_id: string }) => {
  const group = findCryptoInvoiceGroupStep({ invoice_id: input.invoice_id })
  const key = transform({ group }, ({ group }) => `crypto-invoice:${group.invoice_id}`)
  acquireLockStep({ key, timeout: 60, ttl: 180 })
  const assessment = assessCryptoInvoiceStep({ invoice_id: group.invoice_id })
  const applied = applyCryptoInvoiceStep(assessment)
  releaseLockStep({ key })
  return new WorkflowResponse(applied)
})
