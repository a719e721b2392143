import type { IPaymentModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { CRYPTO_REFUND_AUTHORIZATION_KEY, CRYPTO_REFUNDS_KEY, type CryptoRefundAuthorization } from "../../../core/money-out/refund-authorization"
import { resolveCryptoModule } from "../../../modules/crypto"
import { failureReason } from "../../../core/errors"
import { recipientsOf } from "../../../core/money-out/withdrawal"
import type { SentCryptoWithdrawal } from "./send-crypto-withdrawal"

/** The Medusa refund id the provider recorded for a withdrawal (see consumeCryptoRefundAuthorization). */
function refundIdOf(data: Record<string, unknown>, withdrawalId: string): string | null {
  const refunds = data[CRYPTO_REFUNDS_KEY]
  if (!Array.isArray(refunds)) return null
  for (const entry of refunds) {
    if (typeof entry === "object" && entry !== null && (entry as Record<string, unknown>).withdrawal_id === withdrawalId) {
      const id = (entry as Record<string, unknown>).refund_id
      return typeof id === "string" ? id : null
    }
  }
  return null
}

export const recordCryptoRefundStepId = "record-crypto-refund"

/**
 * Records a sent crypto refund as the Medusa refund of the payment (refundPaymentWorkflow, which
 * adds the order transaction). Runs for every completed refund withdrawal not yet recorded, so a
 * replay of the same request finishes a recording that failed earlier; it never sends coins.
 */
export const recordCryptoRefundStep = createStep(recordCryptoRefundStepId, async (sent: SentCryptoWithdrawal, { container }) => {
  const { withdrawal } = sent
  if (withdrawal.purpose !== "refund" || withdrawal.status !== "completed" || withdrawal.refund_id || !withdrawal.payment_id || !withdrawal.source_amount) {
    return new StepResponse(sent)
  }
  const service = resolveCryptoModule(container)
  const paymentModule = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const payment = await paymentModule.retrievePayment(withdrawal.payment_id, { select: ["id", "data"] })
  // Recorded already (a replay after the withdrawal row could not be updated): never refund twice.
  const already = refundIdOf(payment.data ?? {}, withdrawal.id)
  if (already !== null) {
    const updated = await service.updateCryptoWithdrawals({ id: withdrawal.id, refund_id: already, error_message: null })
    return new StepResponse<SentCryptoWithdrawal>({ withdrawal: updated, replayed: sent.replayed })
  }
  const [recipient] = recipientsOf(withdrawal.recipients)
  const authorization: CryptoRefundAuthorization = {
    withdrawal_id: withdrawal.id,
    amount: withdrawal.source_amount,
    psys_cid: withdrawal.psys_cid,
    coin_amount: withdrawal.total_amount,
    rate: withdrawal.source_rate ?? "",
    address: recipient?.address ?? "",
    tx_urls: withdrawal.tx_urls ?? [],
  }
  // UpdatePaymentDTO types only `id`, but the payment module stores `data` as given.
  const update: { id: string } = { id: payment.id, ...{ data: { ...(payment.data ?? {}), [CRYPTO_REFUND_AUTHORIZATION_KEY]: authorization } } }
  await paymentModule.updatePayment(update)
  try {
    await refundPaymentWorkflow(container).run({
      input: { payment_id: payment.id, amount: withdrawal.source_amount, created_by: withdrawal.requested_by ?? undefined, note: withdrawal.note ?? `Crypto refund ${withdrawal.id}` },
    })
    // The provider moved the authorization into the payment's refund list with the refund's id.
    const recorded = await paymentModule.retrievePayment(payment.id, { select: ["id", "data"] })
    // The provider stores the refund id it was called with; without one the refund still happened.
    const refundId = refundIdOf(recorded.data ?? {}, withdrawal.id) ?? `recorded-on-${payment.id}`
    const updated = await service.updateCryptoWithdrawals({ id: withdrawal.id, refund_id: refundId, error_message: null })
    return new StepResponse<SentCryptoWithdrawal>({ withdrawal: updated, replayed: sent.replayed })
  } catch (error) {
    const reason = failureReason(error)
    const updated = await service.updateCryptoWithdrawals({
      id: withdrawal.id,
      error_message: `The coins were sent, but Medusa did not record the refund: ${reason}. Send the same request again to retry the recording (nothing is sent twice).`,
    })
    return new StepResponse<SentCryptoWithdrawal>({ withdrawal: updated, replayed: sent.replayed })
  }
})
