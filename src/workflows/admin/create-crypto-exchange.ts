import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { reserveCryptoExchangeStep, type CreateCryptoExchangeInput } from "./steps/reserve-crypto-exchange"
import { sendCryptoExchangeStep } from "./steps/send-crypto-exchange"

export const createCryptoExchangeWorkflowId = "create-crypto-exchange"

/** An exchange between two coins (spec §4.11): recorded under its idempotency key, then created once. */
export const createCryptoExchangeWorkflow = createWorkflow(createCryptoExchangeWorkflowId, (input: CreateCryptoExchangeInput) => {
  const reservation = reserveCryptoExchangeStep(input)
  return new WorkflowResponse(sendCryptoExchangeStep(reservation))
})
