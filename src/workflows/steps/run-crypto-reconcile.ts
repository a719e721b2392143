import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { failureReason } from "../../core/errors"
import { handleCryptoCallbackWorkflow } from "../handle-crypto-callback"
import { recordCryptoCallbackFailureWorkflow } from "../record-crypto-callback-failure"
import { syncCryptoInvoiceWorkflow } from "../sync-crypto-invoice"
import type { CryptoReconcileWork } from "./list-crypto-work"

export interface CryptoReconcileResult {
  synced: number
  callbacks: number
  failed: number
}

export const runCryptoReconcileStepId = "run-crypto-reconcile"

/**
 * Runs the per-invoice workflows one by one. Each is its own transaction with its own lock, so one
 * failing invoice (gateway down, cart locked) is logged and retried on the next run without
 * holding up the others.
 */
export const runCryptoReconcileStep = createStep(
  runCryptoReconcileStepId,
  async (input: CryptoReconcileWork, { container }) => {
    const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    const result: CryptoReconcileResult = { synced: 0, callbacks: 0, failed: 0 }
    for (const callbackId of input.callback_ids) {
      try {
        await handleCryptoCallbackWorkflow(container).run({ input: { callback_id: callbackId } })
        result.callbacks += 1
      } catch (error) {
        result.failed += 1
        const reason = failureReason(error)
        logger.warn(`crypto reconciliation: callback ${callbackId} failed again: ${reason}`)
        await recordCryptoCallbackFailureWorkflow(container)
          .run({ input: { callback_id: callbackId, error: reason } })
          .catch((failure: unknown) => logger.warn(`crypto reconciliation: the failure of callback ${callbackId} could not be recorded: ${failureReason(failure)}`))
      }
    }
    for (const invoiceId of input.invoice_ids) {
      try {
        await syncCryptoInvoiceWorkflow(container).run({ input: { invoice_id: invoiceId } })
        result.synced += 1
      } catch (error) {
        result.failed += 1
        logger.warn(`crypto reconciliation: invoice ${invoiceId} could not be synced: ${failureReason(error)}`)
      }
    }
    return new StepResponse(result)
  }
)
