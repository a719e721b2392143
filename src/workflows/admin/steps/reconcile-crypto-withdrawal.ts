import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Operation } from "../../../gateway"
import { toMedusaError, failureReason } from "../../../core/errors"
import { resolveCryptoModule, type CryptoModuleService } from "../../../modules/crypto"
import { resolveCryptoProvider } from "../../../core/config/provider-entry"
import {
  decideReconciliation,
  failedAtGatewayMessage,
  failureEvidenceOf,
  readOfOperation,
  releasesGuard,
  statusOfGatewayResult,
  toEvidenceJson,
  withFailureRead,
  type GatewayFailureRead,
  type WithdrawalCandidate,
} from "../../../core/money-out/withdrawal"
import { searchOperations, withdrawalToMatch } from "../../../core/money-out/withdrawal-search"
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
  const now = new Date()
  // An operation in `error` keeps the guard and adds this read to the evidence
  // (docs/money-out.md#failed-at-the-gateway); a guard the merchant released stays released.
  const evidence =
    status === "error" ? withFailureRead(failureEvidenceOf(withdrawal.gateway_evidence), { operation_id: operation.id, status: operation.status, at: now }, readOfOperation(operation, now)) : null
  return service.updateCryptoWithdrawals({
    id: withdrawal.id,
    status,
    operation_id: operation.id,
    gateway_status: operation.status,
    tx_urls: [...operation.tx_url],
    fee: operation.fee?.toFixed() ?? withdrawal.fee,
    resolved_at: status === "completed" ? withdrawal.resolved_at ?? now : withdrawal.resolved_at,
    active_fingerprint: releasesGuard(status) ? null : withdrawal.active_fingerprint,
    error_message: status === "sending" ? withdrawal.error_message : evidence !== null ? failedAtGatewayMessage(evidence) : null,
    ...(evidence !== null ? { gateway_evidence: toEvidenceJson(evidence) } : {}),
    ...(resolution === undefined ? {} : { resolution: "operation" as const, resolved_by: resolution.resolved_by, resolution_note: resolution.note, resolved_at: now }),
  })
}

/** A failed read of an `error` withdrawal's operation, added to its evidence (never thrown). */
async function recordFailedRead(service: CryptoModuleService, withdrawal: CryptoWithdrawalRecord, read: GatewayFailureRead): Promise<CryptoWithdrawalRecord> {
  const operationId = withdrawal.operation_id ?? ""
  const evidence = withFailureRead(failureEvidenceOf(withdrawal.gateway_evidence), { operation_id: operationId, status: withdrawal.gateway_status ?? "error", at: new Date() }, read)
  return service.updateCryptoWithdrawals({ id: withdrawal.id, gateway_evidence: toEvidenceJson(evidence), error_message: failedAtGatewayMessage(evidence) })
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
      if (withdrawal.operation_id && withdrawal.status === "error") {
        // Failed at the gateway: each "Check status" is one more read, recorded even when it fails.
        let operation: Operation
        try {
          operation = await client.operations.retrieve(withdrawal.operation_id)
        } catch (error) {
          const read: GatewayFailureRead = { at: new Date().toISOString(), ok: false, error: failureReason(error) }
          return new StepResponse<ReconciledCryptoWithdrawal>({ withdrawal: await recordFailedRead(service, withdrawal, read), candidates: [] })
        }
        return new StepResponse<ReconciledCryptoWithdrawal>({ withdrawal: await settleWithOperation(service, withdrawal, operation), candidates: [] })
      }
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
