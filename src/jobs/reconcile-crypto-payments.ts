import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { reconcileCryptoPaymentsWorkflow } from "../workflows/reconcile-crypto-payments"

/** Invoices untouched this long are re-read from the gateway (a lost callback, a failed processing). */
export const RECONCILE_AFTER_SECONDS = 180

/**
 * Every minute: asks the gateway about crypto invoices still pending after a few minutes, retries
 * stored callbacks whose processing failed, and reads back deposits (`pay_in`) whose callbacks
 * were lost, so no order or deposit stays unseen on a lost callback.
 */
export default async function reconcileCryptoPaymentsJob(container: MedusaContainer): Promise<void> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const { result } = await reconcileCryptoPaymentsWorkflow(container).run({
    input: { older_than_seconds: RECONCILE_AFTER_SECONDS },
  })
  if (result.synced + result.callbacks + result.failed + result.pay_ins_recovered > 0) {
    logger.info(
      `crypto reconciliation: ${result.synced} invoice(s) synced, ${result.callbacks} callback(s) processed, ${result.pay_ins_recovered} pay_in(s) recovered from the operations list, ${result.failed} failed`
    )
  }
}

export const config = {
  name: "reconcile-crypto-payments",
  schedule: "* * * * *",
}
