import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Operation } from "../../../gateway"
import { toMedusaError } from "../../../core/errors"
import { resolveCryptoModule, type CryptoModuleService } from "../../../modules/crypto"
import { resolveCryptoProvider } from "../../../core/provider-entry"
import { decideReconciliation, statusOfGatewayResult, type WithdrawalCandidate } from "../../../core/withdrawal"
import { searchOperations, withdrawalToMatch } from "../../../core/withdrawal-search"
import type { CryptoWithdrawalRecord } from "./reserve-crypto-withdrawal"

export const reconcileCryptoWithdrawalStepId = "reconcile-crypto-withdrawal"

export interface ReconciledCryptoWithdrawal {
  withdrawal: CryptoWithdrawalRecord
  /** While the outcome is unknown: the operations that could be it, for the merchant to choose. */
  candidates: WithdrawalCandidate[]
}

/** The withdrawal with the gateway's word on its operation (status, tx links, fee). */
export async function settleWithOperation(
  service: CryptoModuleService,
  withdrawal: CryptoWithdrawalRecord,
  operation: Operation,
  resolution?: { resolved_by: string | null; note: string | null }
): Promise<CryptoWithdrawalRecord> {
  const status = statusOfGatewayResult(operation.status)
  return service.updateCryptoWithdrawals({
    id: withdrawal.id,
    status,
    operation_id: operation.id,
    gateway_status: operation.status,
    tx_urls: [...operation.tx_url],
    fee: operation.fee?.toFixed() ?? withdrawal.fee,
    resolved_at: status === "sending" ? withdrawal.resolved_at : withdrawal.resolved_at ?? new Date(),
    active_fingerprint: status === "sending" ? withdrawal.active_fingerprint : null,
    error_message: status === "sending" ? withdrawal.error_message : null,
    ...(resolution === undefined ? {} : { resolution: "operation" as const, resolved_by: resolution.resolved_by, resolution_note: resolution.note, resolved_at: new Date() }),
  })
}

/**
 * Brings a withdrawal up to date with the gateway, without ever sending it again.
 * - With an operation id: re-reads the operation (spec §4.4) for its status and tx links.
 * - Outcome unknown (or interrupted before an answer): searches the operations (spec §4.3,
 *   filtered by type and coin). Settled only by the one operation that provably is it and no other
 *   withdrawal owns; otherwise it stays `outcome_unknown` with the candidates, however long ago it
 *   was asked: absence from a search is not proof (docs/money-out.md#operations-matching).
 *   The merchant settles it (POST /admin/crypto/withdrawals/:id/resolve).
 */
export const reconcileCryptoWithdrawalStep = createStep(
  reconcileCryptoWithdrawalStepId,
  async (input: { id: string }, { container }) => {
    const service = resolveCryptoModule(container)
    const [withdrawal] = await service.listCryptoWithdrawals({ id: input.id }, { take: 1 })
    if (withdrawal === undefined) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Withdrawal ${input.id} was not found`)
    }
    const { client } = await resolveCryptoProvider(container, withdrawal.provider_id)
    try {
      if (withdrawal.operation_id) {
        const settled = await settleWithOperation(service, withdrawal, await client.operations.retrieve(withdrawal.operation_id))
        return new StepResponse<ReconciledCryptoWithdrawal>({ withdrawal: settled, candidates: [] })
      }
      if (withdrawal.status !== "outcome_unknown" && withdrawal.status !== "sending" && withdrawal.status !== "requested") {
        return new StepResponse<ReconciledCryptoWithdrawal>({ withdrawal, candidates: [] })
      }
      const searched = await searchOperations(service, client, withdrawal)
      const decision = decideReconciliation(withdrawalToMatch(withdrawal), searched)
      if (decision.decision === "settle") {
        return new StepResponse<ReconciledCryptoWithdrawal>({ withdrawal: await settleWithOperation(service, withdrawal, decision.operation), candidates: [] })
      }
      return new StepResponse<ReconciledCryptoWithdrawal>({ withdrawal, candidates: decision.candidates })
    } catch (error) {
      throw toMedusaError(error, "Checking the withdrawal")
    }
  }
)
