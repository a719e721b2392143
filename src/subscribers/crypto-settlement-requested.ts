import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { failureReason } from "../core/errors"
import { CRYPTO_SETTLEMENT_REQUESTED, type CryptoSettlementRequestedEvent } from "../core/events"
import { raiseCryptoAttentions } from "../workflows/steps/raise-crypto-attention"
import { convertCryptoReceiptWorkflow, sweepCryptoBalanceWorkflow, type SettledCryptoReceipt } from "../workflows/settle-crypto-receipt"

/** Each part's outcome: what it recorded or skipped, or why it failed (raised in Needs attention). */
export type CryptoSettlementResult = Record<"convert" | "sweep", SettledCryptoReceipt | { failed: string }>

/**
 * Applies the merchant's settlement rules to one confirmed amount (docs/money-out.md#settlement):
 * the conversion first (it spends the amount received), then the sweep of what the balance holds
 * above its threshold. Each is its own workflow and transaction; one that fails (a refused
 * estimate, an address not saved, a gateway refusal) is raised in Needs attention as
 * `settlement_failed`, once per trigger and part, and does not hold up the other.
 */
export async function settleCryptoReceipt(container: MedusaContainer, input: CryptoSettlementRequestedEvent): Promise<CryptoSettlementResult> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const attempt = async (part: "convert" | "sweep", run: () => Promise<SettledCryptoReceipt>): Promise<SettledCryptoReceipt | { failed: string }> => {
    try {
      return await run()
    } catch (error) {
      // Our own refusals and the gateway's (translated) in their words; anything else with its code.
      const reason = MedusaError.isMedusaError(error) ? error.message : failureReason(error)
      logger.warn(`crypto settlement: the ${part === "convert" ? "conversion" : "sweep"} of ${input.amount} ${input.psys_cid} (${input.subject_id}) failed: ${failureReason(error)}`)
      await raiseCryptoAttentions(container, [
        {
          kind: "settlement_failed",
          provider_id: input.provider_id,
          subject_id: `${part}:${input.subject_id}`,
          psys_cid: input.psys_cid,
          currency: null,
          // The merchant's own money, not money held for anyone: no amount to refund or count (docs/attention.md).
          amount: null,
          evidence: { part, reason, trigger: input.subject_id, received: input.amount },
        },
      ])
      return { failed: reason }
    }
  }
  const convert = await attempt("convert", async () => {
    const { result } = await convertCryptoReceiptWorkflow(container).run({ input })
    // Answered in error at once (spec §4.11): nothing was exchanged; the merchant decides.
    if (result.status === "error") throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `the gateway answered the exchange ${result.id} in error: nothing was exchanged`)
    return result
  })
  const sweep = await attempt("sweep", async () => (await sweepCryptoBalanceWorkflow(container).run({ input })).result)
  return { convert, sweep }
}

/** `crypto.settlement.requested`: money confirmed in a coin; its rules run on a worker. */
export default async function cryptoSettlementRequested({ event, container }: SubscriberArgs<CryptoSettlementRequestedEvent>): Promise<void> {
  await settleCryptoReceipt(container, event.data)
}

export const config: SubscriberConfig = {
  event: CRYPTO_SETTLEMENT_REQUESTED,
  context: { subscriberId: "crypto-settlement-requested" },
}
