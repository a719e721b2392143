import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { checkCryptoCallbackUrlStep } from "./steps/check-crypto-callback-url"

export const checkCryptoCallbackUrlWorkflowId = "check-crypto-callback-url"

/**
 * **Check the callback URL** (Settings → Crypto): a test callback, signed with the provider's key as
 * the gateway signs (spec §6.3), to the public callback URL invoices carry, through whatever stands
 * in front of the store; the answer says whether this store answered it and, if not, what did
 * (docs/troubleshooting.md#check-the-callback-url).
 */
export const checkCryptoCallbackUrlWorkflow = createWorkflow(checkCryptoCallbackUrlWorkflowId, (input: { provider_id?: string }) => {
  return new WorkflowResponse(checkCryptoCallbackUrlStep(input))
})
