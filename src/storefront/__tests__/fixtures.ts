import { shopperStatusOf } from "../../core/payment/shopper-status"
import type { CryptoInvoiceStatus, CryptoPaymentStatusResponse } from "../types"

/**
 * The store route's `shopper_status` for an invoice, by the server's own mapping (src/core/payment/payment-state.ts),
 * so the kit's tests read gateway statuses exactly as a shopper's store answers them.
 */
function served(invoice: CryptoInvoiceStatus): CryptoInvoiceStatus {
  const text = (value: unknown): string | null => (typeof value === "string" ? value : null)
  const shopper_status = shopperStatusOf({
    status: invoice.status,
    session_status: text(invoice.session_status),
    amount: text(invoice.amount) ?? text(invoice.expected_amount),
    pending_amount: text(invoice.pending_amount),
    received_amount: text(invoice.received_amount),
    overpaid_amount: text(invoice.overpaid_amount),
  })
  return { shopper_status, ...invoice }
}


/** A payment-status answer for cart_1 with the given invoice fields (white-label BTC invoice by default). */
export function statusWith(invoice: Partial<CryptoInvoiceStatus> | null, extra: Partial<CryptoPaymentStatusResponse> = {}): CryptoPaymentStatusResponse {
  return {
    cart_id: "cart_1",
    order_id: null,
    payment_collection_status: "not_paid",
    invoice:
      invoice === null
        ? null
        : served({
            status: "new",
            txn_id: "txn_1",
            psys_cid: "BTC",
            currency: "BTC",
            address: "bc1qexampleaddress",
            amount: "0.00123400",
            pending_amount: "0.00123400",
            expires_at: "2030-01-01T00:15:00.000Z",
            invoice_url: "https://gateway.example/invoice/txn_1",
            ...invoice,
          }),
    ...extra,
  }
}
