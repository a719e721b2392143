import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { GatewayApiError, type GatewayClient } from "../../../gateway"
import { explainGatewayRejection, toMedusaError, failureReason } from "../../../core/errors"
import { resolveCryptoModule } from "../../../modules/crypto"
import { resolveCryptoProvider } from "../../../core/config/provider-entry"
import { CryptoOutcomeEvents, emitOutcomeUnknown } from "../../../core/money-out/outcome-events"
import {
  failedAtGatewayMessage,
  isClearRefusal,
  readBackFailedOperation,
  recipientsOf,
  releasesGuard,
  statusOfGatewayResult,
  toEvidenceJson,
  withFailureRead,
} from "../../../core/money-out/withdrawal"
import type { CryptoWithdrawalRecord, CryptoWithdrawalReservation } from "./reserve-crypto-withdrawal"

export interface SentCryptoWithdrawal {
  withdrawal: CryptoWithdrawalRecord
  /** True when the withdrawal was already recorded under this key (nothing was sent now). */
  replayed: boolean
}

/** A change to a recorded withdrawal (the module service's update, one row). */
export type CryptoWithdrawalPatch = { id: string } & Partial<Omit<CryptoWithdrawalRecord, "id" | "created_at" | "updated_at" | "deleted_at">>

/** What sending needs: the row's update, the gateway client, the outcome-unknown event, the clock. */
export interface SendWithdrawalDeps {
  update: (patch: CryptoWithdrawalPatch) => Promise<CryptoWithdrawalRecord>
  client: { operations: Pick<GatewayClient["operations"], "withdraw" | "retrieve"> }
  emitOutcomeUnknown: (withdrawal: CryptoWithdrawalRecord) => Promise<void>
  now: () => Date
}

/** The outcome of sending: the updated row, or the merchant's error to throw after recording a refusal. */
export type SendWithdrawalOutcome = { withdrawal: CryptoWithdrawalRecord } | { refused: Error }

/**
 * Sends one reserved withdrawal (spec §4.2) and writes the result back in every case (see
 * {@link sendCryptoWithdrawalStep}). Never throws for the gateway's answer: a refusal is returned.
 */
export async function sendReservedWithdrawal(deps: SendWithdrawalDeps, withdrawal: CryptoWithdrawalRecord): Promise<SendWithdrawalOutcome> {
  const recipients = recipientsOf(withdrawal.recipients)
  await deps.update({ id: withdrawal.id, status: "sending", sent_at: deps.now() })
  try {
    const result = await deps.client.operations.withdraw({
      currency: withdrawal.psys_cid,
      type: withdrawal.type,
      to: recipients.map((r) => r.address),
      amount: recipients.map((r) => r.amount),
      feePlan: withdrawal.fee_plan,
    })
    const status = statusOfGatewayResult(result.status)
    const answered = {
      id: withdrawal.id,
      status,
      operation_id: result.id,
      gateway_status: result.status,
      tx_urls: [...result.tx_url],
      fee: result.fee?.toFixed() ?? result.params?.fee?.value?.toFixed() ?? null,
      resolved_at: status === "completed" ? deps.now() : null,
      // Only `completed` frees the guard: an `error` answer leaves an operation at the gateway.
      active_fingerprint: releasesGuard(status) ? null : withdrawal.active_fingerprint,
    }
    if (status !== "error") {
      return { withdrawal: await deps.update(answered) }
    }
    // Failed at the gateway (spec §2.3): keep the guard, read the operation back (spec §4.4) and
    // store what it showed; a failed read is recorded too (docs/money-out.md#failed-at-the-gateway).
    const answeredAt = deps.now()
    const read = await readBackFailedOperation(deps.client, result.id, deps.now())
    const evidence = withFailureRead(null, { operation_id: result.id, status: result.status, at: answeredAt }, read)
    return { withdrawal: await deps.update({ ...answered, gateway_evidence: toEvidenceJson(evidence), error_message: failedAtGatewayMessage(evidence) }) }
  } catch (error) {
    if (!isClearRefusal(error)) {
      const reason = failureReason(error)
      const updated = await deps.update({
        id: withdrawal.id,
        status: "outcome_unknown",
        error_message: `The gateway did not confirm the withdrawal (${reason}). It may have been executed; it is not sent again. Use "Check status" to look for it in the operations, or resolve it once you checked the gateway.`,
      })
      await deps.emitOutcomeUnknown(updated)
      return { withdrawal: updated }
    }
    const translated = toMedusaError(error, "Withdrawal")
    const explained = error instanceof GatewayApiError ? explainGatewayRejection(error) : undefined
    await deps.update({
      id: withdrawal.id,
      status: "rejected",
      active_fingerprint: null,
      resolved_at: deps.now(),
      error_message: translated.message,
      error_code: error instanceof GatewayApiError && error.code !== undefined ? String(error.code) : null,
      error_field: explained?.field ?? null,
    })
    return { refused: translated }
  }
}

export const sendCryptoWithdrawalStepId = "send-crypto-withdrawal"

/**
 * Sends a freshly reserved withdrawal to the gateway (spec §4.2), once. A replayed reservation, or
 * one awaiting approval, is returned as recorded. The result is written back in every case:
 * - an answer: `completed` (the duplicate guard released) with the operation id and tx links;
 * - an `error` answer (HTTP 201, spec §2.3): `error` with the operation id, the guard KEPT, the
 *   operation read back (spec §4.4) and what the read showed stored as `gateway_evidence` (a failed
 *   read too); the same payment waits for the merchant's `failed` decision
 *   (docs/money-out.md#failed-at-the-gateway);
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
    // A withdrawal waiting for another admin's approval is sent by the approval (docs/money-out.md#money-out-policy).
    if (!reserved || withdrawal.status === "awaiting_approval") {
      return new StepResponse<SentCryptoWithdrawal>({ withdrawal, replayed: !reserved })
    }
    const service = resolveCryptoModule(container)
    const { client } = await resolveCryptoProvider(container, withdrawal.provider_id)
    const outcome = await sendReservedWithdrawal(
      {
        update: (patch) => service.updateCryptoWithdrawals(patch),
        client,
        emitOutcomeUnknown: (updated) =>
          emitOutcomeUnknown(container, updated.purpose === "withdrawal" ? CryptoOutcomeEvents.WITHDRAWAL_OUTCOME_UNKNOWN : CryptoOutcomeEvents.REFUND_OUTCOME_UNKNOWN, {
            id: updated.id,
            provider_id: updated.provider_id,
            order_id: updated.order_id,
            psys_cid: updated.psys_cid,
            amount: updated.total_amount,
          }),
        now: () => new Date(),
      },
      withdrawal
    )
    if ("refused" in outcome) throw outcome.refused
    return new StepResponse<SentCryptoWithdrawal>({ withdrawal: outcome.withdrawal, replayed: false })
  }
)
