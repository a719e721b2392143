import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveCryptoModule } from "../../../modules/crypto"
import type { SentCryptoWithdrawal } from "./send-crypto-withdrawal"

export const linkCryptoAttentionRefundStepId = "link-crypto-attention-refund"

/**
 * Ties the refund to its attention item. Only a completed refund resolves it (`refunded`, by who
 * asked, when); one with an unknown outcome keeps it open until the withdrawal is resolved.
 */
export const linkCryptoAttentionRefundStep = createStep(
  linkCryptoAttentionRefundStepId,
  async (input: { attention_id: string; sent: SentCryptoWithdrawal }, { container }) => {
    const service = resolveCryptoModule(container)
    const { withdrawal } = input.sent
    const completed = withdrawal.status === "completed"
    const attention = await service.updateCryptoAttentions({
      id: input.attention_id,
      withdrawal_id: withdrawal.id,
      ...(completed
        ? {
            status: "resolved" as const,
            resolution: "refunded" as const,
            resolution_note: `Refunded in crypto: ${withdrawal.total_amount} ${withdrawal.psys_cid} (${withdrawal.id})`,
            resolved_by: withdrawal.requested_by,
            resolved_at: new Date(),
          }
        : {}),
    })
    return new StepResponse({ attention, withdrawal, replayed: input.sent.replayed })
  }
)
