import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { findCartCryptoInvoiceStep } from "./steps/find-cart-crypto-invoice"
import { cryptoInvoiceLockKey } from "./steps/find-crypto-invoice-group"
import { openCryptoTopUpStep } from "./steps/open-crypto-top-up"
import { readCryptoPaymentStatusStep } from "./steps/read-crypto-payment-status"
import { syncCryptoInvoiceWorkflow } from "./sync-crypto-invoice"

export const openCryptoTopUpWorkflowId = "open-crypto-top-up"

export interface OpenCryptoTopUpWorkflowInput {
  cart_id: string
  /** The sales channels of the request's publishable key: a cart outside them not found (404 naming the cart). */
  sales_channel_ids: string[]
}

/**
 * Pay the rest (POST /store/crypto/payment-sessions/top-up, docs/attention.md#paying-the-rest): the
 * cart's invoice is re-read from the gateway, then, under the cart's lock (the one its syncs take), a
 * top-up for the shortfall is opened or the open one answered again. Answers what
 * GET /store/crypto/payment-status answers, with the top-up in `invoice.rest`.
 */
export const openCryptoTopUpWorkflow = createWorkflow(openCryptoTopUpWorkflowId, (input: OpenCryptoTopUpWorkflowInput) => {
  const found = findCartCryptoInvoiceStep({ cart_id: input.cart_id, sales_channel_ids: input.sales_channel_ids })
  syncCryptoInvoiceWorkflow.runAsStep({ input: { invoice_id: found.latest_invoice_id } })
  const key = transform({ input }, ({ input }) => cryptoInvoiceLockKey(input.cart_id))
  acquireLockStep({ key, timeout: 30, ttl: 120 })
  const openInput = transform({ found }, ({ found }) => ({ invoice_id: found.latest_invoice_id }))
  openCryptoTopUpStep(openInput)
  releaseLockStep({ key }).config({ name: "release-top-up-lock" })
  const status = readCryptoPaymentStatusStep({ cart_id: input.cart_id, invoice_id: found.invoice_id, live_session_ids: found.live_session_ids })
  return new WorkflowResponse(status)
})
