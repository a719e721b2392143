import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { toMedusaError } from "../../../core/errors"
import { resolveCryptoProvider } from "../../../core/config/provider-entry"
import { assessOperation, isUnproven } from "../../../core/money-out/withdrawal"
import { withdrawalToMatch } from "../../../core/money-out/withdrawal-search"
import { resolveCryptoModule } from "../../../modules/crypto"
import { settleWithOperation } from "./reconcile-crypto-withdrawal"
import type { CryptoWithdrawalRecord } from "./reserve-crypto-withdrawal"

/** The merchant's decision on a withdrawal whose outcome the gateway did not prove. */
export type ResolveCryptoWithdrawalInput =
  | { id: string; resolution: "operation"; operation_id: string; note?: string | null; resolved_by: string | null }
  | { id: string; resolution: "not_sent"; note: string; resolved_by: string | null }
  | { id: string; resolution: "failed"; note: string; resolved_by: string | null }

export const resolveCryptoWithdrawalStepId = "resolve-crypto-withdrawal"

/**
 * Records the merchant's resolution of an unknown outcome, with who and when:
 * - `operation`: this operation (read back from the gateway, spec §4.4) is the withdrawal. It must
 *   be of the same type and coin, not created before the request, carry no other recipient or
 *   amount, and belong to no other withdrawal. The withdrawal then follows that operation.
 * - `not_sent`: the merchant checked the gateway and it was not executed (a note is required).
 *   Only this frees the duplicate guard, so the same payment can be sent again.
 * - `failed`: a withdrawal the gateway answered with status `error` (spec §2.3) holds its guard;
 *   the merchant checked the operation and allows the same payment again (a note is required).
 *   Its status stays `error`; the evidence stays (docs/money-out.md#failed-at-the-gateway).
 */
export const resolveCryptoWithdrawalStep = createStep(resolveCryptoWithdrawalStepId, async (input: ResolveCryptoWithdrawalInput, { container }) => {
  const service = resolveCryptoModule(container)
  const [withdrawal] = await service.listCryptoWithdrawals({ id: input.id }, { take: 1 })
  if (withdrawal === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Withdrawal ${input.id} was not found`)
  }
  if (input.resolution === "failed") {
    if (withdrawal.status !== "error" || withdrawal.active_fingerprint === null) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Withdrawal ${withdrawal.id} is ${withdrawal.status.replace("_", " ")}${withdrawal.resolution ? ` (resolved: ${withdrawal.resolution})` : ""}: "failed" is the decision on a withdrawal that failed at the gateway and still blocks the same payment (field: resolution)`
      )
    }
    const updated: CryptoWithdrawalRecord = await service.updateCryptoWithdrawals({
      id: withdrawal.id,
      resolution: "failed",
      resolution_note: input.note,
      resolved_by: input.resolved_by,
      resolved_at: new Date(),
      active_fingerprint: null,
    })
    return new StepResponse(updated)
  }
  if (!isUnproven(withdrawal)) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Withdrawal ${withdrawal.id} is ${withdrawal.status.replace("_", " ")}${withdrawal.operation_id ? ` with operation ${withdrawal.operation_id}` : ""}: only an unknown outcome is resolved by hand (field: resolution)`
    )
  }
  if (input.resolution === "not_sent") {
    const updated: CryptoWithdrawalRecord = await service.updateCryptoWithdrawals({
      id: withdrawal.id,
      status: "not_sent",
      resolution: "not_sent",
      resolution_note: input.note,
      resolved_by: input.resolved_by,
      resolved_at: new Date(),
      active_fingerprint: null,
    })
    return new StepResponse(updated)
  }

  const [owner] = await service.listCryptoWithdrawals({ operation_id: input.operation_id }, { take: 1 })
  if (owner !== undefined && owner.id !== withdrawal.id) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Operation ${input.operation_id} is already withdrawal ${owner.id}'s (field: operation_id)`)
  }
  const { client } = await resolveCryptoProvider(container, withdrawal.provider_id)
  let operation
  try {
    operation = await client.operations.retrieve(input.operation_id)
  } catch (error) {
    throw toMedusaError(error, `Reading operation ${input.operation_id}`)
  }
  const fit = assessOperation(operation, withdrawalToMatch(withdrawal))
  if (fit.fit === "other") {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Operation ${input.operation_id} cannot be this withdrawal: ${fit.reasons.join(", ")} (field: operation_id)`)
  }
  const settled = await settleWithOperation(service, withdrawal, operation, { resolved_by: input.resolved_by, note: input.note ?? null })
  return new StepResponse(settled)
})
