import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { failureReason } from "../core/errors"
import { CRYPTO_RECONCILE_REQUESTED, type CryptoReconcileRequestedEvent } from "../core/events"
import { findCryptoReconcileWorkWorkflow, type FindCryptoReconcileWorkInput } from "../workflows/find-crypto-reconcile-work"
import { recordCryptoCallbackFailureWorkflow } from "../workflows/record-crypto-callback-failure"
import { syncCryptoInvoiceWorkflow, type SyncCryptoInvoiceInput } from "../workflows/sync-crypto-invoice"

export interface CryptoReconcileResult {
  /** Invoices synced. */
  synced: number
  /** Stored deliveries processed, the recovered `pay_in`s among them. */
  callbacks: number
  /** `pay_in`s read back from the operations list. */
  pay_ins_recovered: number
  /** Exchanges the gateway finished since the last run (completed or in error). */
  exchanges_ended: number
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
  const result: CryptoReconcileResult = { synced: 0, callbacks: 0, pay_ins_recovered: work.pay_ins_recovered, exchanges_ended: work.exchanges_ended, failed: work.failed }
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
 * `crypto.reconcile.requested` (every minute from the job, at once from the admin's **Reconcile
 * now**): asks the gateway about crypto invoices still pending, retries stored callbacks whose
 * processing failed, and reads back deposits (`pay_in`) whose callbacks were lost, so no order or
 * deposit stays unseen on a lost callback. Runs on a worker in a server + worker store.
 */
export default async function cryptoReconcileRequested({ event, container }: SubscriberArgs<CryptoReconcileRequestedEvent>): Promise<void> {
  const result = await reconcileCryptoPayments(container, { older_than_seconds: event.data.older_than_seconds })
  if (result.synced + result.callbacks + result.failed + result.pay_ins_recovered + result.exchanges_ended > 0 || event.data.requested_by !== null) {
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .info(
        `crypto reconciliation${event.data.requested_by !== null ? ` asked by ${event.data.requested_by}` : ""}: ${result.synced} invoice(s) synced, ${result.callbacks} callback(s) processed, ${result.pay_ins_recovered} pay_in(s) recovered from the operations list, ${result.exchanges_ended} exchange(s) ended, ${result.failed} failed`
      )
  }
}

export const config: SubscriberConfig = {
  event: CRYPTO_RECONCILE_REQUESTED,
  context: { subscriberId: "crypto-reconcile-requested" },
}
