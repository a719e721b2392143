import { shopperStatusOf } from "../../core/payment/shopper-status"
import type { CryptoInvoiceStatus, CryptoPaymentStatusResponse } from "../types"

/** A white-label BTC invoice just made, as the store answers it, before its `shopper_status`. */
const NEW_INVOICE: Omit<CryptoInvoiceStatus, "shopper_status"> = {
  provider_id: "pp_crypto_crypto",
  order_number: "cart_1",
  attempt: 1,
  txn_id: "txn_1",
  invoice_url: "https://gateway.example/invoice/txn_1",
  status: "new",
  session_status: "pending",
  white_label: true,
  psys_cid: "BTC",
  currency: "BTC",
  network: "BTC",
  source_currency: "EUR",
  source_amount: "49.90",
  source_rate: null,
  amount: "0.00123400",
  commission_amount: null,
  expected_amount: null,
  pending_amount: "0.00123400",
  received_amount: null,
  overpaid_amount: null,
  underpaid_amount: null,
  refund_due_amount: null,
  address: "bc1qexampleaddress",
  qr_code: null,
  expires_at: "2030-01-01T00:15:00.000Z",
  confirmations: null,
  tx_urls: [],
  last_synced_at: null,
  rest: null,
}

/**
 * The store route's `shopper_status` for an invoice that does not give one, by the server's own mapping
 * (src/core/payment/payment-state.ts), so the kit's tests read gateway statuses exactly as a shopper's store answers them.
 */
function served(invoice: Omit<CryptoInvoiceStatus, "shopper_status"> & Partial<Pick<CryptoInvoiceStatus, "shopper_status">>): CryptoInvoiceStatus {
  return { ...invoice, shopper_status: invoice.shopper_status ?? shopperStatusOf({ ...invoice, amount: invoice.amount ?? invoice.expected_amount }) }
}

/** A payment-status answer for cart_1 with the given invoice fields (white-label BTC invoice by default). */
export function statusWith(invoice: Partial<CryptoInvoiceStatus> | null, extra: Partial<CryptoPaymentStatusResponse> = {}): CryptoPaymentStatusResponse {
  return {
    cart_id: "cart_1",
    order_id: null,
    payment_collection_status: "not_paid",
    invoice: invoice === null ? null : served({ ...NEW_INVOICE, ...invoice }),
    cart_changed: false,
    abandoned_payments: [],
    ...extra,
  }
}
