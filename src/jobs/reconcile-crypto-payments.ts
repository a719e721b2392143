import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { failureReason } from "../core/errors"
import { findCryptoReconcileWorkWorkflow, type FindCryptoReconcileWorkInput } from "../workflows/find-crypto-reconcile-work"
import { recordCryptoCallbackFailureWorkflow } from "../workflows/record-crypto-callback-failure"
import { syncCryptoInvoiceWorkflow, type SyncCryptoInvoiceInput } from "../workflows/sync-crypto-invoice"

/** Invoices untouched this long are re-read from the gateway (a lost callback, a failed processing). */
export const RECONCILE_AFTER_SECONDS = 180

export interface CryptoReconcileResult {
  /** Invoices synced. */
  synced: number
  /** Stored deliveries processed, the recovered `pay_in`s among them. */
  callbacks: number
  /** `pay_in`s read back from the operations list. */
  pay_ins_recovered: number
  /** Items (and providers' operations lists) that failed; each is tried again on the next run. */
  failed: number
}

/**
 * The reconciliation: lists its work (`findCryptoReconcileWorkWorkflow`), then syncs each stored
 * delivery, then each stale invoice, one by one, each `syncCryptoInvoiceWorkflow` its own transaction
 * with its own lock, so one failing item (gateway down, cart locked) is logged and retried on the
 * next run without holding up the others; a delivery's failure is counted on it, as the callback
 * subscriber counts it (docs/workflows.md#workflows-run-inside-steps).
 */
export async function reconcileCryptoPayments(container: MedusaContainer, input: FindCryptoReconcileWorkInput): Promise<CryptoReconcileResult> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const { result: work } = await findCryptoReconcileWorkWorkflow(container).run({ input })
  const result: CryptoReconcileResult = { synced: 0, callbacks: 0, pay_ins_recovered: work.pay_ins_recovered, failed: work.failed }
  const items: SyncCryptoInvoiceInput[] = [
    ...work.callback_ids.map((callbackId) => ({ callback_id: callbackId })),
    ...work.invoice_ids.map((invoiceId) => ({ invoice_id: invoiceId })),
  ]
  for (const item of items) {
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
      await recordCryptoCallbackFailureWorkflow(container).run({ input: { callback_id: callbackId, error: reason } }).catch((failure: unknown) =>
        logger.warn(`crypto reconciliation: the failure of callback ${callbackId} could not be recorded: ${failureReason(failure)}`)
      )
    }
  }
  return result
}

/**
 * Every minute: asks the gateway about crypto invoices still pending after a few minutes, retries
 * stored callbacks whose processing failed, and reads back deposits (`pay_in`) whose callbacks
 * were lost, so no order or deposit stays unseen on a lost callback.
 */
export default async function reconcileCryptoPaymentsJob(container: MedusaContainer): Promise<void> {
  const result = await reconcileCryptoPayments(container, { older_than_seconds: RECONCILE_AFTER_SECONDS })
  if (result.synced + result.callbacks + result.failed + result.pay_ins_recovered > 0) {
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .info(
        `crypto reconciliation: ${result.synced} invoice(s) synced, ${result.callbacks} callback(s) processed, ${result.pay_ins_recovered} pay_in(s) recovered from the operations list, ${result.failed} failed`
      )
  }
}

export const config = {
  name: "reconcile-crypto-payments",
  schedule: "* * * * *",
}
