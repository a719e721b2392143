import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { snapshotCryptoBalancesStep, type SnapshotCryptoBalancesStepInput } from "./steps/snapshot-crypto-balances"

export const snapshotCryptoBalancesWorkflowId = "snapshot-crypto-balances"

export type SnapshotCryptoBalancesInput = Partial<SnapshotCryptoBalancesStepInput>

/**
 * Today's balance snapshot of every crypto provider (docs/books.md#balance-snapshots): one row
 * per provider, UTC day and coin, taken once a day however often and on however many instances
 * it runs. Without `taken_at` the clock is read once per run, in a transform: this body runs once,
 * when the workflow is defined.
 */
export const snapshotCryptoBalancesWorkflow = createWorkflow(snapshotCryptoBalancesWorkflowId, (input: SnapshotCryptoBalancesInput) => {
  const stepInput = transform({ input }, ({ input }) => ({ ...input, taken_at: input.taken_at ?? new Date().toISOString() }))
  return new WorkflowResponse(snapshotCryptoBalancesStep(stepInput))
})
