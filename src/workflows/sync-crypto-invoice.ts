import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import type { CallbackDiscrepancy } from "../core/payment/callback-check"
import type { CryptoInvoiceSessionState } from "../core/payment/payment-state"
import { applyCryptoInvoiceStep, type AppliedCryptoInvoice } from "./steps/apply-crypto-invoice"
import { assessCryptoInvoiceStep } from "./steps/assess-crypto-invoice"
import { findCryptoInvoiceGroupStep, type FoundCryptoInvoiceGroup, type SyncCryptoInvoiceInput } from "./steps/find-crypto-invoice-group"

export type { SyncCryptoInvoiceInput }

export const syncCryptoInvoiceWorkflowId = "sync-crypto-invoice"

/** What a sync did. */
export interface SyncedCryptoInvoice {
  /** The delivery it answered (marked processed with `outcome`); null when asked for an invoice. */
  callback_id: string | null
  /** The invoice asked for or named by the delivery; null for a `pay_in` deposit or an unknown invoice. */
  invoice_id: string | null
  /** The apply's outcome (AppliedCryptoInvoice), or for a delivery with no invoice to sync `recorded` (a `pay_in`) or `unmatched`. */
  outcome: AppliedCryptoInvoice["outcome"] | FoundCryptoInvoiceGroup["outcome"]
  /** The group root's session state after the sync; null when nothing was synced. */
  session_status: CryptoInvoiceSessionState | null
  order_id: string | null
  /** Where a delivery's coin or amounts disagree with our invoice record (logged; the gateway's re-read decided). */
  discrepancies: CallbackDiscrepancy[]
}

/**
 * Brings one invoice's Medusa payment and order in line with the gateway: find the invoice group
 * (an invoice, or the invoice a stored callback delivery names), lock it (Medusa's locking module:
 * one sync per invoice group at a time, across processes when a shared lock provider is
 * configured, also when this workflow runs nested in another), re-read it from the gateway, apply.
 * Used by the callback subscriber and the reconciliation job (`{ callback_id }`: the delivery is
 * marked processed with the outcome; the callback itself never moves money, spec §6.3 only proves
 * who sent it; `pay_in` deposits, spec §6.2, are recorded only), by the job for stale invoices, and
 * by the storefront's poll, renewal and top-up (`{ invoice_id }`). A top-up is synced with the
 * invoice whose rest it asks for (docs/attention.md#paying-the-rest): one lock, one decision for
 * both. The invoice row is read once before the lock (to find the group) and once under it (the
 * state the apply moves from), docs/architecture.md#the-callback-path.
 */
export const syncCryptoInvoiceWorkflow = createWorkflow(syncCryptoInvoiceWorkflowId, (input: SyncCryptoInvoiceInput) => {
  const found = findCryptoInvoiceGroupStep(input)
  // One transform per value: a transform's result is passed whole (its properties do not resolve).
  const key = transform({ found }, ({ found }) => found.lock?.key ?? "")
  const ownerId = transform({ found }, ({ found }) => found.lock?.owner)
  const groupId = transform({ found }, ({ found }) => found.group_id ?? "")
  const applied = when("crypto-invoice-group-found", { found }, ({ found }) => found.lock !== null).then(() => {
    // executeOnSubWorkflow: Medusa skips a lock step in a workflow run as a step of another unless
    // told otherwise, and the storefront's workflows run this one as a step.
    acquireLockStep({ key, ownerId, timeout: 60, ttl: 180, executeOnSubWorkflow: true })
    const assessed = assessCryptoInvoiceStep({ invoice_id: groupId })
    const result = applyCryptoInvoiceStep({ assessment: assessed.assessment, invoice: assessed.invoice, top_up_rows: assessed.top_up_rows, callback_id: found.callback_id })
    releaseLockStep({ key, ownerId, executeOnSubWorkflow: true })
    return result
  })
  return new WorkflowResponse(
    transform({ found, applied }, ({ found, applied }): SyncedCryptoInvoice => ({
      callback_id: found.callback_id,
      invoice_id: found.invoice_id,
      outcome: applied?.outcome ?? found.outcome,
      session_status: applied?.session_status ?? null,
      order_id: applied?.order_id ?? null,
      discrepancies: found.discrepancies,
    }))
  )
})
