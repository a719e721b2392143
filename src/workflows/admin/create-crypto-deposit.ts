import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { createCryptoDepositStep } from "./steps/create-crypto-deposit"

export const createCryptoDepositWorkflowId = "create-crypto-deposit"

/** A white-label deposit address for a customer (spec §4.10). */
export const createCryptoDepositWorkflow = createWorkflow(createCryptoDepositWorkflowId, (input: { uid: string; psys_cid: string[]; provider_id?: string }) => {
  return new WorkflowResponse(createCryptoDepositStep(input))
})
