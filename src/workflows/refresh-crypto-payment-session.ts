import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { createPaymentSessionsWorkflow, useQueryGraphStep } from "@medusajs/medusa/core-flows"
import { checkCryptoInvoiceRenewableStep } from "./steps/check-crypto-invoice-renewable"
import { findCartCryptoInvoiceStep } from "./steps/find-cart-crypto-invoice"
import { readCryptoPaymentStatusStep } from "./steps/read-crypto-payment-status"
import { syncCryptoInvoiceWorkflow } from "./sync-crypto-invoice"

export const refreshCryptoPaymentSessionWorkflowId = "refresh-crypto-payment-session"

export interface RefreshCryptoPaymentSessionInput {
  cart_id: string
  /** The sales channels of the request's publishable key: a cart outside them not found (404 naming the cart). */
  sales_channel_ids: string[]
  /** Another coin for the new invoice; the old invoice's coin when absent. */
  psys_cid?: string | undefined
}

/**
 * A fresh invoice for a cart whose invoice expired (or, before any payment, in another coin, or
 * after the cart changed and Medusa deleted the session its invoice paid),
 * keeping the cart (POST /store/crypto/payment-sessions/refresh, docs/storefront.md): re-read the
 * invoice from the gateway, refuse when money is on it, then re-initiate the payment session through
 * Medusa's own `createPaymentSessionsWorkflow` (the old session is deleted, the provider creates the
 * invoice with the next order number: `cart_…-2`, spec §8).
 */
export const refreshCryptoPaymentSessionWorkflow = createWorkflow(refreshCryptoPaymentSessionWorkflowId, (input: RefreshCryptoPaymentSessionInput) => {
  const found = findCartCryptoInvoiceStep({ cart_id: input.cart_id, sales_channel_ids: input.sales_channel_ids })
  syncCryptoInvoiceWorkflow.runAsStep({ input: { invoice_id: found.latest_invoice_id } })
  const { data: orderLinks } = useQueryGraphStep({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: input.cart_id } }).config({
    name: "find-cart-order",
  })
  const { data: invoices } = useQueryGraphStep({ entity: "crypto_invoice", fields: ["psys_cid"], filters: { id: found.latest_invoice_id } }).config({
    name: "find-renewed-invoice-coin",
  })
  const check = transform({ input, found, orderLinks }, ({ input, found, orderLinks }) => ({
    invoice_id: found.latest_invoice_id,
    psys_cid: input.psys_cid,
    order_placed: orderLinks.length > 0,
    cart_changed: found.cart_changed,
  }))
  checkCryptoInvoiceRenewableStep(check)
  const sessionInput = transform({ input, found, invoices }, ({ input, found, invoices }) => {
    const coin: unknown = input.psys_cid ?? invoices[0]?.psys_cid
    return {
      payment_collection_id: found.payment_collection_id,
      provider_id: found.provider_id,
      data: typeof coin === "string" ? { psys_cid: coin } : {},
    }
  })
  createPaymentSessionsWorkflow.runAsStep({ input: sessionInput })
  const renewed = findCartCryptoInvoiceStep({ cart_id: input.cart_id, sales_channel_ids: input.sales_channel_ids }).config({ name: "find-renewed-crypto-invoice" })
  const status = readCryptoPaymentStatusStep({ cart_id: input.cart_id, invoice_id: renewed.invoice_id, live_session_ids: renewed.live_session_ids })
  return new WorkflowResponse(status)
})
