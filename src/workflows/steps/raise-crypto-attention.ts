import type { IEventBusModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { CryptoEvents, paymentEventOf, type CryptoMoneyEvent } from "../../core/events"
import { resolveCryptoModule } from "../../modules/crypto"
import type { CryptoAttentionRecord, RaiseCryptoAttentionInput } from "../../modules/crypto/service"

/**
 * Raises attention items (idempotent: one row per kind and subject; an open one takes the latest
 * reading, keeping the coin an earlier one resolved, `openAttentionUpdate`) and, for an item raised
 * now, emits `crypto.attention.raised` and its payment event (docs/events.md). Used by the
 * processing steps that detect each condition.
 */
export async function raiseCryptoAttentions(container: MedusaContainer, items: readonly RaiseCryptoAttentionInput[]): Promise<CryptoAttentionRecord[]> {
  const cryptoModule = resolveCryptoModule(container)
  const raised: CryptoAttentionRecord[] = []
  const events: Array<{ name: string; data: CryptoMoneyEvent }> = []
  for (const item of items) {
    const { attention, created } = await cryptoModule.raiseCryptoAttention(item)
    raised.push(attention)
    if (!created) continue
    const data: CryptoMoneyEvent = {
      id: attention.id,
      provider_id: attention.provider_id,
      order_id: attention.order_id,
      psys_cid: attention.psys_cid,
      currency: attention.currency,
      amount: attention.amount,
      kind: attention.kind,
      subject_id: attention.subject_id,
    }
    events.push({ name: CryptoEvents.ATTENTION_RAISED, data })
    const payment = paymentEventOf(attention.kind)
    if (payment !== undefined) events.push({ name: payment, data })
  }
  if (events.length > 0) {
    await container.resolve<IEventBusModuleService>(Modules.EVENT_BUS).emit(events)
  }
  return raised
}
