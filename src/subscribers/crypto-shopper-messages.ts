import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { CryptoEvents, type CryptoInvoiceCreatedEvent, type CryptoMoneyEvent, type CryptoRefundClaimableEvent } from "../core/events"
import { notifyCryptoShopperWorkflow } from "../workflows/notify-crypto-shopper"
import type { NotifyCryptoShopperInput } from "../workflows/steps/notify-crypto-shopper"

/** The message an event asks for, or undefined (an underpayment event without its attention item). */
export function shopperMessageOf(name: string, data: CryptoInvoiceCreatedEvent | CryptoMoneyEvent | CryptoRefundClaimableEvent): NotifyCryptoShopperInput | undefined {
  switch (name) {
    case CryptoEvents.INVOICE_CREATED:
      return { kind: "paymentInstructions", provider_id: data.provider_id, invoice: data as CryptoInvoiceCreatedEvent }
    case CryptoEvents.PAYMENT_RECEIVED:
      return { kind: "paymentReceived", provider_id: data.provider_id, invoice_id: data.id }
    case CryptoEvents.PAYMENT_UNDERPAID:
      return data.id.startsWith("catt_") ? { kind: "underpaid", provider_id: data.provider_id, attention_id: data.id } : undefined
    case CryptoEvents.REFUND_CLAIMABLE:
      return { kind: "refundClaimable", provider_id: data.provider_id, claim: data as CryptoRefundClaimableEvent }
    default:
      return undefined
  }
}

/**
 * The shopper's messages (docs/notifications.md): a new invoice's payment instructions, payment
 * received, pay the rest, a refund to claim → `notifyCryptoShopperWorkflow`, which sends each at most once per invoice.
 */
export default async function cryptoShopperMessages({
  event,
  container,
}: SubscriberArgs<CryptoInvoiceCreatedEvent | CryptoMoneyEvent | CryptoRefundClaimableEvent>): Promise<void> {
  const input = shopperMessageOf(event.name, event.data)
  if (input === undefined) return
  await notifyCryptoShopperWorkflow(container).run({ input })
}

export const config: SubscriberConfig = {
  event: [CryptoEvents.INVOICE_CREATED, CryptoEvents.PAYMENT_RECEIVED, CryptoEvents.PAYMENT_UNDERPAID, CryptoEvents.REFUND_CLAIMABLE],
  context: { subscriberId: "crypto-shopper-messages" },
}
