import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { exact, sumAmounts } from "../../../core/money"
import { auditRefusal, refundBoundRefusal } from "../../../core/money-out/policy"
import { listCryptoOrderPayments } from "../../../core/money-out/refund"
import { withdrawalHoldsMoney } from "../../../core/money-out/withdrawal"
import { resolveCryptoModule } from "../../../modules/crypto"
import type { CryptoWithdrawalReservation } from "./reserve-crypto-withdrawal"

export const guardCryptoRefundStepId = "guard-crypto-refund"

/**
 * After a refund is recorded and before it is sent: checks again that the order's refunds, this one
 * included in `reserved`, do not exceed what was captured. Two requests checked at the same moment
 * both passed the quote; once both are recorded, each sees the other here, and an overcommitted
 * one is refused (`rejected`, never sent) instead of paying twice. Safe over available: both may
 * be refused, and the merchant asks again. The same for the coins (the money-out policy's refund
 * bound): the order's refunds and send-backs in the coin, this one included, never exceed what its
 * invoices received in that coin; a refusal is audited (`refund_refused`).
 */
export const guardCryptoRefundStep = createStep(guardCryptoRefundStepId, async (reservation: CryptoWithdrawalReservation, { container }) => {
  const { withdrawal, reserved } = reservation
  if (!reserved || withdrawal.purpose === "withdrawal" || withdrawal.order_id === null) {
    return new StepResponse(reservation)
  }
  const service = resolveCryptoModule(container)
  const { payments, payment_collection_ids } = await listCryptoOrderPayments(container, withdrawal.order_id)
  // The money-out policy's refund bound (docs/money-out.md#money-out-policy): the order's refunds in
  // this coin, this one included, stay within the coins its invoices received.
  const invoices = payment_collection_ids.length > 0 ? await service.listCryptoInvoices({ payment_collection_id: payment_collection_ids, psys_cid: withdrawal.psys_cid }) : []
  const out = (await service.listCryptoWithdrawals({ order_id: withdrawal.order_id, psys_cid: withdrawal.psys_cid })).filter(
    (row) => row.purpose !== "withdrawal" && (row.status === "completed" || row.status === "awaiting_approval" || withdrawalHoldsMoney(row))
  )
  const bound = refundBoundRefusal(withdrawal.order_id, withdrawal.psys_cid, sumAmounts(invoices.map((invoice) => invoice.received_amount ?? "0")).toFixed(), sumAmounts(out.map((row) => row.total_amount)).toFixed(), "amount")
  if (bound !== null) {
    await service.updateCryptoWithdrawals({ id: withdrawal.id, status: "rejected", active_fingerprint: null, resolved_at: new Date(), error_message: bound.message, error_field: "amount" })
    throw await auditRefusal(service, { kind: "refund", provider_id: withdrawal.provider_id, actor: withdrawal.requested_by, details: { withdrawal_id: withdrawal.id, order_id: withdrawal.order_id, psys_cid: withdrawal.psys_cid, total_amount: withdrawal.total_amount } }, bound)
  }
  if (withdrawal.purpose !== "refund" || withdrawal.payment_id === null) {
    return new StepResponse(reservation)
  }
  const payment = payments.find((candidate) => candidate.payment_id === withdrawal.payment_id)
  if (payment !== undefined && exact(payment.captured).minus(payment.refunded).minus(payment.reserved).lt(0)) {
    const message = `Another refund of this payment was recorded at the same time: together they are more than the ${exact(payment.captured).minus(payment.refunded).toFixed()} ${payment.currency_code.toUpperCase()} refundable. Nothing was sent; check the order's refunds and ask again (field: amount)`
    await service.updateCryptoWithdrawals({ id: withdrawal.id, status: "rejected", active_fingerprint: null, resolved_at: new Date(), error_message: message, error_field: "amount" })
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, message)
  }
  return new StepResponse(reservation)
})
