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
 * Brings one invoice's Medusa payment and order in line with the gateway: find the invoice (an
 * invoice, or the invoice a stored callback delivery names), lock its cart (Medusa's locking module:
 * one sync per cart at a time, across processes when a shared lock provider is
 * configured, also when this workflow runs nested in another), re-read it from the gateway, apply.
 * Used by the callback subscriber and the reconciliation job (`{ callback_id }`: the delivery is
 * marked processed with the outcome; the callback itself never moves money, spec §6.3 only proves
 * who sent it; `pay_in` deposits, spec §6.2, are recorded only), by the job for stale invoices, and
 * by the storefront's poll, renewal and top-up (`{ invoice_id }`). A top-up is synced with the
 * invoice whose rest it asks for (docs/attention.md#paying-the-rest): one lock, one decision for
 * both. A delivery's invoice row is read once, under the lock (the state the apply moves from),
 * docs/architecture.md#the-callback-path.
 */
export const syncCryptoInvoiceWorkflow = createWorkflow(syncCryptoInvoiceWorkflowId, (input: SyncCryptoInvoiceInput) => {
  const found = findCryptoInvoiceGroupStep(input)
  // One transform per value: a transform's result is passed whole (its properties do not resolve).
  const key = transform({ found }, ({ found }) => found.lock?.key ?? "")
  const ownerId = transform({ found }, ({ found }) => found.lock?.owner)
  const synced = when("crypto-invoice-group-found", { found }, ({ found }) => found.lock !== null).then(() => {
    // executeOnSubWorkflow: Medusa skips a lock step in a workflow run as a step of another unless
    // told otherwise, and the storefront's workflows run this one as a step.
    acquireLockStep({ key, ownerId, timeout: 60, ttl: 180, executeOnSubWorkflow: true })
    const assessed = assessCryptoInvoiceStep(found)
    const applyInput = transform({ assessed, found }, ({ assessed, found }) => ({ ...assessed, callback_id: found.callback_id }))
    const applied = applyCryptoInvoiceStep(applyInput)
    releaseLockStep({ key, ownerId, executeOnSubWorkflow: true })
    return transform({ assessed, applied }, ({ assessed, applied }) => ({ assessed, applied }))
  })
  return new WorkflowResponse(
    transform({ found, synced }, ({ found, synced }): SyncedCryptoInvoice => ({
      callback_id: found.callback_id,
      invoice_id: synced?.assessed.invoice_id ?? null,
      outcome: synced?.applied?.outcome ?? (synced === undefined ? found.outcome : "unmatched"),
      session_status: synced?.applied?.session_status ?? null,
      order_id: synced?.applied?.order_id ?? null,
      discrepancies: synced?.assessed.discrepancies ?? [],
    }))
  )
})
