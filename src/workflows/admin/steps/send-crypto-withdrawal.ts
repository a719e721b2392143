import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { GatewayApiError } from "../../../gateway"
import { explainGatewayRejection, toMedusaError } from "../../../core/errors"
import { resolveCryptoModule } from "../../../modules/crypto"
import { resolveCryptoProvider } from "../../../core/provider-entry"
import { CryptoOutcomeEvents, emitOutcomeUnknown } from "../../../core/outcome-events"
import { isClearRefusal, recipientsOf, statusOfGatewayResult } from "../../../core/withdrawal"
import type { CryptoWithdrawalRecord, CryptoWithdrawalReservation } from "./reserve-crypto-withdrawal"

export interface SentCryptoWithdrawal {
  withdrawal: CryptoWithdrawalRecord
  /** True when the withdrawal was already recorded under this key (nothing was sent now). */
  replayed: boolean
}

export const sendCryptoWithdrawalStepId = "send-crypto-withdrawal"

/**
 * Sends a freshly reserved withdrawal to the gateway (spec §4.2), once. A replayed reservation is
 * returned as recorded. The result is written back in every case:
 * - an answer: `completed` / `error` with the operation id and tx links;
 * - anything that is not a clear refusal (no answer, a reset, a 5xx, a 2xx whose body is not JSON:
 *   the gateway may have acted): `outcome_unknown`, the duplicate guard kept, an event emitted;
 *   settled later by the operation that provably is it (reconcile) or by the merchant (resolve),
 *   never by sending again;
 * - a clear refusal (a 4xx error answer, spec §7): `rejected` with the merchant's message, which is
 *   then thrown (the route answers 4xx).
 */
export const sendCryptoWithdrawalStep = createStep(
  sendCryptoWithdrawalStepId,
  async (reservation: CryptoWithdrawalReservation, { container }) => {
    const { withdrawal, reserved } = reservation
    if (!reserved) {
      return new StepResponse<SentCryptoWithdrawal>({ withdrawal, replayed: true })
    }
    const service = resolveCryptoModule(container)
    const { client } = await resolveCryptoProvider(container, withdrawal.provider_id)
    const recipients = recipientsOf(withdrawal.recipients)
    await service.updateCryptoWithdrawals({ id: withdrawal.id, status: "sending", sent_at: new Date() })

    try {
      const result = await client.operations.withdraw({
        currency: withdrawal.psys_cid,
        type: withdrawal.type,
        to: recipients.map((r) => r.address),
        amount: recipients.map((r) => r.amount),
        feePlan: withdrawal.fee_plan,
      })
      const status = statusOfGatewayResult(result.status)
      const updated = await service.updateCryptoWithdrawals({
        id: withdrawal.id,
        status,
        operation_id: result.id,
        gateway_status: result.status,
        tx_urls: [...result.tx_url],
        fee: result.fee?.toFixed() ?? result.params?.fee?.value?.toFixed() ?? null,
        resolved_at: status === "sending" ? null : new Date(),
        active_fingerprint: status === "sending" ? withdrawal.active_fingerprint : null,
      })
      return new StepResponse<SentCryptoWithdrawal>({ withdrawal: updated, replayed: false })
    } catch (error) {
      if (!isClearRefusal(error)) {
        const reason = error instanceof Error ? error.message : String(error)
        const updated = await service.updateCryptoWithdrawals({
          id: withdrawal.id,
          status: "outcome_unknown",
          error_message: `The gateway did not confirm the withdrawal (${reason}). It may have been executed; it is not sent again. Use "Check status" to look for it in the operations, or resolve it once you checked the gateway.`,
        })
        await emitOutcomeUnknown(container, updated.purpose === "withdrawal" ? CryptoOutcomeEvents.WITHDRAWAL_OUTCOME_UNKNOWN : CryptoOutcomeEvents.REFUND_OUTCOME_UNKNOWN, {
          id: updated.id,
          provider_id: updated.provider_id,
          order_id: updated.order_id,
          psys_cid: updated.psys_cid,
          amount: updated.total_amount,
        })
        return new StepResponse<SentCryptoWithdrawal>({ withdrawal: updated, replayed: false })
      }
      const translated = toMedusaError(error, "Withdrawal")
      const explained = error instanceof GatewayApiError ? explainGatewayRejection(error) : undefined
      await service.updateCryptoWithdrawals({
        id: withdrawal.id,
        status: "rejected",
        active_fingerprint: null,
        resolved_at: new Date(),
        error_message: translated.message,
        error_code: error instanceof GatewayApiError && error.code !== undefined ? String(error.code) : null,
        error_field: explained?.field ?? null,
      })
      throw translated
    }
  }
)
