import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { exact } from "../../../core/money"
import { listCryptoOrderPayments } from "../../../core/money-out/refund"
import { resolveCryptoModule } from "../../../modules/crypto"
import type { CryptoWithdrawalReservation } from "./reserve-crypto-withdrawal"

export const guardCryptoRefundStepId = "guard-crypto-refund"

/**
 * After a refund is recorded and before it is sent: checks again that the order's refunds, this one
 * included in `reserved`, do not exceed what was captured. Two requests checked at the same moment
 * both passed the quote; once both are recorded, each sees the other here, and an overcommitted
 * one is refused (`rejected`, never sent) instead of paying twice. Safe over available: both may
 * be refused, and the merchant asks again.
 */
export const guardCryptoRefundStep = createStep(guardCryptoRefundStepId, async (reservation: CryptoWithdrawalReservation, { container }) => {
  const { withdrawal, reserved } = reservation
  if (!reserved || withdrawal.purpose !== "refund" || withdrawal.order_id === null || withdrawal.payment_id === null) {
    return new StepResponse(reservation)
  }
  const { payments } = await listCryptoOrderPayments(container, withdrawal.order_id)
  const payment = payments.find((candidate) => candidate.payment_id === withdrawal.payment_id)
  if (payment !== undefined && exact(payment.captured).minus(payment.refunded).minus(payment.reserved).lt(0)) {
    const message = `Another refund of this payment was recorded at the same time: together they are more than the ${exact(payment.captured).minus(payment.refunded).toFixed()} ${payment.currency_code.toUpperCase()} refundable. Nothing was sent; check the order's refunds and ask again (field: amount)`
    await resolveCryptoModule(container).updateCryptoWithdrawals({ id: withdrawal.id, status: "rejected", active_fingerprint: null, resolved_at: new Date(), error_message: message, error_field: "amount" })
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, message)
  }
  return new StepResponse(reservation)
})
