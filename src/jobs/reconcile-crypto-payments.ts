import type { MedusaContainer } from "@medusajs/framework/types"
import { requestCryptoReconcileWorkflow } from "../workflows/admin/request-crypto-reconcile"

/** Invoices untouched this long are re-read from the gateway (a lost callback, a failed processing). */
export const RECONCILE_AFTER_SECONDS = 180

/**
 * Every minute: the reconciliation, as the admin's **Reconcile now** asks for it
 * (`crypto.reconcile.requested`, src/subscribers/crypto-reconcile-requested.ts), for invoices and
 * deliveries left alone for RECONCILE_AFTER_SECONDS.
 */
export default async function reconcileCryptoPaymentsJob(container: MedusaContainer): Promise<void> {
  await requestCryptoReconcileWorkflow(container).run({ input: { older_than_seconds: RECONCILE_AFTER_SECONDS, requested_by: null } })
}

export const config = {
  name: "reconcile-crypto-payments",
  schedule: "* * * * *",
}
