import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import { resolveCryptoProvider } from "../../../../../core/config/provider-entry"
import { listCryptoOrderPayments } from "../../../../../core/money-out/refund"
import { toWire } from "../../../../../core/money"
import { toMedusaError } from "../../../../../core/errors"
import { accountOfInvoices } from "../../../../../core/money-out/account"
import type { AdminCryptoOrderResponse } from "../../types"

/**
 * GET /admin/crypto/orders/:id — what the order widget shows: the crypto payments (captured,
 * refunded, refundable), the invoices with their account (expected, received, confirmed, sent
 * back, refunded, in their coin), the attention items of the order, the status history (verified
 * callbacks), the live
 * operation from the gateway (confirmations, pending amount, tx links; spec §4.4), and the crypto
 * refunds sent for the order. An unreachable gateway leaves `operation` null with `operation_error`.
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminCryptoOrderResponse>) => {
  const orderId = req.params.id
  const service = resolveCryptoModule(req.scope)
  const { currency_code, payments, payment_collection_ids } = await listCryptoOrderPayments(req.scope, orderId)
  const invoices = payment_collection_ids.length
    ? await service.listCryptoInvoices({ payment_collection_id: payment_collection_ids }, { order: { attempt: "ASC", created_at: "ASC" } })
    : []
  const orderNumbers = invoices.map((invoice) => invoice.order_number)
  const callbacks = orderNumbers.length
    ? await service.listCryptoCallbacks({ order_number: orderNumbers, ipn_type: "invoice" }, { order: { created_at: "ASC" }, take: 200 })
    : []
  const withdrawals = await service.listCryptoWithdrawals({ order_id: orderId }, { order: { created_at: "DESC" } })

  // The invoice that holds the order's money (the paid session's, never an abandoned one), and the
  // account of every invoice in its own coin (src/core/money-out/account.ts).
  const { accounts, holding } = await accountOfInvoices(service, invoices, {
    order_id: orderId,
    payment_session_ids: payments.map((payment) => payment.payment_session_id),
  })
  const current = invoices.find((invoice) => invoice.id === holding?.invoice_id)
  const attention = await service.listCryptoAttentions({ order_id: orderId }, { order: { created_at: "DESC" } })
  let operation: AdminCryptoOrderResponse["operation"] = null
  let operationError: string | null = null
  const txnId = current?.active_txn_id ?? current?.txn_id
  if (current !== undefined && txnId) {
    try {
      operation = toWire(await (await resolveCryptoProvider(req.scope, current.provider_id)).client.operations.retrieve(txnId))
    } catch (error) {
      operationError = toMedusaError(error, "Reading the invoice from the gateway").message
    }
  }
  const history = callbacks.map((callback) => {
    const fields = typeof callback.fields === "object" && callback.fields !== null ? (callback.fields as Record<string, unknown>) : {}
    const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : null)
    return {
      id: callback.id,
      order_number: callback.order_number,
      txn_id: callback.txn_id,
      status: callback.status,
      amount: text("amount"),
      currency: text("currency"),
      confirmations: text("confirmations"),
      received_at: callback.created_at,
      delivery_count: callback.delivery_count,
      tx_urls: Array.isArray(fields.tx_urls) ? fields.tx_urls.filter((u): u is string => typeof u === "string") : [],
    }
  })
  res.json({
    order_id: orderId,
    currency_code,
    is_crypto: payments.length > 0 || invoices.length > 0,
    payments: payments.map(({ data: _data, ...payment }) => payment),
    invoices,
    current_invoice_id: current?.id ?? null,
    accounts,
    attention,
    operation,
    operation_error: operationError,
    history,
    withdrawals,
  })
}
