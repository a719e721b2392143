import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { snapshotCryptoBalancesStep, type SnapshotCryptoBalancesStepInput } from "./steps/snapshot-crypto-balances"

export const snapshotCryptoBalancesWorkflowId = "snapshot-crypto-balances"

export type SnapshotCryptoBalancesInput = SnapshotCryptoBalancesStepInput

/**
 * Today's balance snapshot of every crypto provider (docs/books.md#balance-snapshots): one row
 * per provider, UTC day and coin, taken once a day however often and on however many instances
 * it runs.
 */
export const snapshotCryptoBalancesWorkflow = createWorkflow(snapshotCryptoBalancesWorkflowId, (input: SnapshotCryptoBalancesInput) => {
  return new WorkflowResponse(snapshotCryptoBalancesStep(input))
})
