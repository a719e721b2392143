import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { createCryptoExchangeStep, type CreateCryptoExchangeInput } from "./steps/create-crypto-exchange"

export const createCryptoExchangeWorkflowId = "create-crypto-exchange"

/** An exchange between two coins (spec §4.11), created once after the admin confirmed it. */
export const createCryptoExchangeWorkflow = createWorkflow(createCryptoExchangeWorkflowId, (input: CreateCryptoExchangeInput) => {
  return new WorkflowResponse(createCryptoExchangeStep(input))
})
