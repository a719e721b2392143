import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { resolveCryptoExchangeStep, type ResolveCryptoExchangeInput } from "./steps/resolve-crypto-exchange"

export const resolveCryptoExchangeWorkflowId = "resolve-crypto-exchange"

/** The merchant settles an exchange whose outcome the gateway did not confirm. */
export const resolveCryptoExchangeWorkflow = createWorkflow(resolveCryptoExchangeWorkflowId, (input: ResolveCryptoExchangeInput) => {
  return new WorkflowResponse(resolveCryptoExchangeStep(input))
})
