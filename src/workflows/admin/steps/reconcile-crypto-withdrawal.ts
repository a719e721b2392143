import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Operation } from "../../../gateway"
import { toMedusaError } from "../../../core/errors"
import { resolveCryptoModule } from "../../../modules/crypto"
import { resolveCryptoProvider } from "../../../core/provider-entry"
import { OUTCOME_UNKNOWN_GRACE_MS, operationMatches, recipientsOf, statusOfGatewayResult } from "../../../core/withdrawal"
import type { CryptoWithdrawalRecord } from "./reserve-crypto-withdrawal"

export const reconcileCryptoWithdrawalStepId = "reconcile-crypto-withdrawal"

/** Pages of the operations list searched for an unsure withdrawal (50 per page, newest first). */
const SEARCH_PAGES = 4

/**
 * Brings a withdrawal up to date with the gateway, without ever sending it again.
 * - With an operation id: re-reads the operation (spec §4.4) for its status and tx links.
 * - Outcome unknown (or interrupted before an answer): looks for the operation in the list
 *   (spec §4.3, filtered by type and coin) by destination, amount and time, skipping operations
 *   another withdrawal already owns. Found: settled with it. Not found after a grace period: the
 *   gateway never executed it (`not_found`), and the same payment may be made again.
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
    const settle = async (operation: Operation): Promise<CryptoWithdrawalRecord> => {
      const status = statusOfGatewayResult(operation.status)
      return service.updateCryptoWithdrawals({
        id: withdrawal.id,
        status,
        operation_id: operation.id,
        gateway_status: operation.status,
        tx_urls: [...operation.tx_url],
        fee: operation.fee?.toFixed() ?? withdrawal.fee,
        resolved_at: status === "sending" ? null : withdrawal.resolved_at ?? new Date(),
        active_fingerprint: status === "sending" ? withdrawal.active_fingerprint : null,
        error_message: status === "sending" ? withdrawal.error_message : null,
      })
    }

    try {
      if (withdrawal.operation_id) {
        return new StepResponse(await settle(await client.operations.retrieve(withdrawal.operation_id)))
      }
      if (withdrawal.status !== "outcome_unknown" && withdrawal.status !== "sending" && withdrawal.status !== "requested") {
        return new StepResponse(withdrawal)
      }
      const recipients = recipientsOf(withdrawal.recipients)
      const requestedAt = new Date(withdrawal.requested_at)
      for (let page = 1; page <= SEARCH_PAGES; page++) {
        const list = await client.operations.list({ type: withdrawal.type, currency: withdrawal.psys_cid, page, limit: 50 })
        for (const operation of list.operations) {
          if (!operationMatches(operation, { type: withdrawal.type, psys_cid: withdrawal.psys_cid, recipients, requested_at: requestedAt })) {
            continue
          }
          const [owner] = await service.listCryptoWithdrawals({ operation_id: operation.id }, { take: 1 })
          if (owner === undefined || owner.id === withdrawal.id) {
            return new StepResponse(await settle(operation))
          }
        }
        const meta = list._meta
        if (list.operations.length === 0 || (meta !== null && meta.currentPage >= meta.pageCount)) {
          break
        }
      }
      if (Date.now() - requestedAt.getTime() > OUTCOME_UNKNOWN_GRACE_MS) {
        const updated = await service.updateCryptoWithdrawals({
          id: withdrawal.id,
          status: "not_found",
          active_fingerprint: null,
          resolved_at: new Date(),
          error_message: "The gateway has no operation for this withdrawal: it was not executed. You may send it again as a new withdrawal.",
        })
        return new StepResponse(updated)
      }
      return new StepResponse(withdrawal)
    } catch (error) {
      throw toMedusaError(error, "Checking the withdrawal")
    }
  }
)
