import type { CryptoInvoiceStatus, CryptoPaymentStatusResponse } from "../types"

/** A payment-status answer for cart_1 with the given invoice fields (white-label BTC invoice by default). */
export function statusWith(invoice: Partial<CryptoInvoiceStatus> | null, extra: Partial<CryptoPaymentStatusResponse> = {}): CryptoPaymentStatusResponse {
  return {
    cart_id: "cart_1",
    order_id: null,
    payment_collection_status: "not_paid",
    invoice:
      invoice === null
        ? null
        : {
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
          },
    ...extra,
  }
}
