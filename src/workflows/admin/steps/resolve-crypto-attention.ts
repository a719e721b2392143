import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveCryptoModule } from "../../../modules/crypto"

export interface ResolveCryptoAttentionInput {
  id: string
  resolution: "kept" | "other"
  note: string
  resolved_by: string | null
}

export const resolveCryptoAttentionStepId = "resolve-crypto-attention"

/**
 * The merchant's decision on an attention item: kept (the money stays, e.g. the shopper agreed) or
 * other, always with a note, who and when. An item already decided is refused (the first decision
 * stands); one whose crypto refund is still in flight waits for that refund.
 */
export const resolveCryptoAttentionStep = createStep(resolveCryptoAttentionStepId, async (input: ResolveCryptoAttentionInput, { container }) => {
  const service = resolveCryptoModule(container)
  const [item] = await service.listCryptoAttentions({ id: input.id }, { take: 1 })
  if (item === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Attention item ${input.id} was not found`)
  }
  if (item.status === "resolved") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Attention item ${input.id} was already resolved (${item.resolution ?? "?"}) on ${item.resolved_at?.toISOString() ?? "?"}`)
  }
  if (item.withdrawal_id !== null) {
    const [withdrawal] = await service.listCryptoWithdrawals({ id: item.withdrawal_id }, { take: 1 })
    if (withdrawal !== undefined && ["requested", "sending", "outcome_unknown"].includes(withdrawal.status)) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The crypto refund ${withdrawal.id} of this item is ${withdrawal.status.replace("_", " ")}: resolve the refund first (Crypto → Withdrawals)`
      )
    }
  }
  const resolved = await service.updateCryptoAttentions({
    id: item.id,
    status: "resolved",
    resolution: input.resolution,
    resolution_note: input.note,
    resolved_by: input.resolved_by,
    resolved_at: new Date(),
  })
  return new StepResponse(resolved)
})
