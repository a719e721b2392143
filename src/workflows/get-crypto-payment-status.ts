import { createWorkflow, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { findCartCryptoInvoiceStep } from "./steps/find-cart-crypto-invoice"
import { readCryptoPaymentStatusStep } from "./steps/read-crypto-payment-status"
import { findStaleCryptoInvoiceStep, reportStaleCryptoInvoiceRefreshStep } from "./steps/refresh-stale-crypto-invoice"
import { syncCryptoInvoiceWorkflow } from "./sync-crypto-invoice"

export const getCryptoPaymentStatusWorkflowId = "get-crypto-payment-status"

export interface GetCryptoPaymentStatusInput {
  cart_id: string
  /** The sales channels of the request's publishable key: a cart outside them not found (404 naming the cart). */
  sales_channel_ids: string[]
}

/**
 * The storefront's poll (GET /store/crypto/payment-status): find the cart's current invoice (none
 * when the cart changed since), re-read it (else the latest one) from the gateway only when its
 * mirror is stale, answer from the mirror with the money on invoices the cart no longer uses.
 */
export const getCryptoPaymentStatusWorkflow = createWorkflow(getCryptoPaymentStatusWorkflowId, (input: GetCryptoPaymentStatusInput) => {
  const found = findCartCryptoInvoiceStep(input)
  const stale = findStaleCryptoInvoiceStep({ invoice_id: found.latest_invoice_id })
  // A failed re-read (the gateway down) must not fail the poll: the sync undoes its own lock, and the
  // poll goes on to answer from the mirror.
  const synced = when("crypto-invoice-stale", { stale }, ({ stale }) => stale.stale).then(() =>
    syncCryptoInvoiceWorkflow.runAsStep({ input: { invoice_id: stale.invoice_id } }).config({ continueOnPermanentFailure: true })
  )
  reportStaleCryptoInvoiceRefreshStep({ invoice_id: stale.invoice_id, stale: stale.stale, synced })
  const status = readCryptoPaymentStatusStep({ cart_id: input.cart_id, invoice_id: found.invoice_id, live_session_ids: found.live_session_ids })
  return new WorkflowResponse(status)
})
