import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { notifyCryptoShopperStep, type NotifyCryptoShopperInput } from "./steps/notify-crypto-shopper"

export const notifyCryptoShopperWorkflowId = "notify-crypto-shopper"

/**
 * Sends the shopper one message through Medusa's Notification Module (docs/notifications.md): the
 * payment instructions of a new invoice, "payment received", or "pay the rest" for an invoice that
 * ended short. At most once per invoice and message, whatever the deliveries and instances.
 */
export const notifyCryptoShopperWorkflow = createWorkflow(notifyCryptoShopperWorkflowId, (input: NotifyCryptoShopperInput) => {
  return new WorkflowResponse(notifyCryptoShopperStep(input))
})
