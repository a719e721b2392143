import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { listCryptoCurrenciesStep } from "./steps/list-crypto-currencies"

export const getCryptoCurrenciesWorkflowId = "get-crypto-currencies"

/** The storefront's coin picker: coins and the cart total in each (GET /store/crypto/currencies). */
export const getCryptoCurrenciesWorkflow = createWorkflow(getCryptoCurrenciesWorkflowId, (input: { cart_id: string; sales_channel_ids: string[] }) => {
  return new WorkflowResponse(listCryptoCurrenciesStep(input))
})
