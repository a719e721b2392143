import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { failureReason } from "../../core/errors"
import { syncCryptoInvoiceWorkflow, type SyncCryptoInvoiceInput } from "../sync-crypto-invoice"
import type { CryptoReconcileWork } from "./list-crypto-work"
import { recordCryptoCallbackFailure } from "./record-crypto-callback-failure"

export interface CryptoReconcileResult {
  synced: number
  callbacks: number
  failed: number
}

export const runCryptoReconcileStepId = "run-crypto-reconcile"

/**
 * Runs the sync of each unprocessed delivery, then of each stale invoice, one by one. Each is its
 * own transaction with its own lock, so one failing item (gateway down, cart locked) is logged and
 * retried on the next run without holding up the others; a delivery's failure is counted on it, as
 * the callback subscriber counts it.
 */
export const runCryptoReconcileStep = createStep(
  runCryptoReconcileStepId,
  async (input: CryptoReconcileWork, { container }) => {
    const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    const result: CryptoReconcileResult = { synced: 0, callbacks: 0, failed: 0 }
    const work: SyncCryptoInvoiceInput[] = [
      ...input.callback_ids.map((callbackId) => ({ callback_id: callbackId })),
      ...input.invoice_ids.map((invoiceId) => ({ invoice_id: invoiceId })),
    ]
    for (const item of work) {
      try {
        await syncCryptoInvoiceWorkflow(container).run({ input: item })
        if (item.callback_id !== undefined) result.callbacks += 1
        else result.synced += 1
      } catch (error) {
        result.failed += 1
        const reason = failureReason(error)
        if (item.callback_id === undefined) {
          logger.warn(`crypto reconciliation: invoice ${item.invoice_id} could not be synced: ${reason}`)
          continue
        }
        const callbackId = item.callback_id
        logger.warn(`crypto reconciliation: callback ${callbackId} failed again: ${reason}`)
        await recordCryptoCallbackFailure(container, { callback_id: callbackId, error: reason }).catch((failure: unknown) =>
          logger.warn(`crypto reconciliation: the failure of callback ${callbackId} could not be recorded: ${failureReason(failure)}`)
        )
      }
    }
    return new StepResponse(result)
  }
)
