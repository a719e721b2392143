import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { findCartCryptoInvoiceStep } from "./steps/find-cart-crypto-invoice"
import { readCryptoPaymentStatusStep } from "./steps/read-crypto-payment-status"
import { refreshStaleCryptoInvoiceStep } from "./steps/refresh-stale-crypto-invoice"

export const getCryptoPaymentStatusWorkflowId = "get-crypto-payment-status"

/**
 * The storefront's poll (GET /store/crypto/payment-status): find the cart's active invoice, re-read
 * it from the gateway only when its mirror is stale, answer from the mirror.
 */
export const getCryptoPaymentStatusWorkflow = createWorkflow(getCryptoPaymentStatusWorkflowId, (input: { cart_id: string }) => {
  const found = findCartCryptoInvoiceStep(input)
  refreshStaleCryptoInvoiceStep({ invoice_id: found.invoice_id })
  const status = readCryptoPaymentStatusStep({ cart_id: input.cart_id, invoice_id: found.invoice_id })
  return new WorkflowResponse(status)
})
