import type { IEventBusModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { CryptoEvents, paymentEventOf, type CryptoMoneyEvent } from "../../core/events"
import { resolveCryptoModule } from "../../modules/crypto"
import type { CryptoAttentionRecord, RaiseCryptoAttentionInput } from "../../modules/crypto/service"

/**
 * Raises attention items (idempotent: one row per kind and subject; an open one takes the latest
 * reading) and, for an item raised now, emits `crypto.attention.raised` and its payment event
 * (docs/events.md). Used by the processing steps that detect each condition.
 *
 * A coin once resolved is kept: a later reading that names only a coin code two coins share (a
 * plain shop's `currency`, spec §6.1, e.g. BTC on two networks) with no hint left to tell them apart
 * (the invoice's own coin moved on after a currency switch) raises the item again with the coin the
 * earlier reading resolved for that code, never with none.
 */
export async function raiseCryptoAttentions(container: MedusaContainer, items: readonly RaiseCryptoAttentionInput[]): Promise<CryptoAttentionRecord[]> {
  const cryptoModule = resolveCryptoModule(container)
  const raised: CryptoAttentionRecord[] = []
  const events: Array<{ name: string; data: CryptoMoneyEvent }> = []
  for (const item of items) {
    const { attention, created } = await cryptoModule.raiseCryptoAttention(await withKnownCoin(cryptoModule, item))
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

/** The item, with the coin an open earlier raise resolved for its code when it names none itself. */
async function withKnownCoin(
  cryptoModule: Pick<ReturnType<typeof resolveCryptoModule>, "listCryptoAttentions">,
  item: RaiseCryptoAttentionInput
): Promise<RaiseCryptoAttentionInput> {
  if ((item.psys_cid ?? null) !== null || (item.currency ?? null) === null) {
    return item
  }
  const [existing] = await cryptoModule.listCryptoAttentions({ kind: item.kind, subject_id: item.subject_id, status: "open" }, { take: 1 })
  const sameCode = existing?.currency !== null && existing?.currency !== undefined && existing.currency.toUpperCase() === item.currency?.toUpperCase()
  return sameCode && existing.psys_cid !== null ? { ...item, psys_cid: existing.psys_cid } : item
}
