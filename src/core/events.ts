/**
 * The Medusa events this plugin emits through the event bus (docs/events.md), so a store can tell
 * the merchant by e-mail or chat with a subscriber. Payload: `CryptoMoneyEvent`.
 */
export const CryptoEvents = {
  PAYMENT_UNDERPAID: "crypto.payment.underpaid",
  PAYMENT_OVERPAID: "crypto.payment.overpaid",
  PAYMENT_LATE: "crypto.payment.late",
  ATTENTION_RAISED: "crypto.attention.raised",
  WITHDRAWAL_OUTCOME_UNKNOWN: "crypto.withdrawal.outcome_unknown",
  REFUND_OUTCOME_UNKNOWN: "crypto.refund.outcome_unknown",
  EXCHANGE_OUTCOME_UNKNOWN: "crypto.exchange.outcome_unknown",
} as const

export type CryptoEventName = (typeof CryptoEvents)[keyof typeof CryptoEvents]

/** Every event's data: amounts as decimal strings, always with their coin. */
export interface CryptoMoneyEvent {
  /** The attention item (`catt_…`), withdrawal (`cwdr_…`) or exchange the event is about. */
  id: string
  provider_id: string
  order_id?: string | null
  psys_cid: string | null
  currency: string | null
  amount: string | null
  /** The attention kind (attention and payment events). */
  kind?: string
  /** The invoice mirror (`cinv_…`) or callback (`ccb_…`) the money was seen on. */
  subject_id?: string
}

/** The payment event an attention kind also emits (besides `crypto.attention.raised`). */
export function paymentEventOf(kind: string): CryptoEventName | undefined {
  switch (kind) {
    case "underpaid":
      return CryptoEvents.PAYMENT_UNDERPAID
    case "overpaid":
      return CryptoEvents.PAYMENT_OVERPAID
    case "late_payment":
      return CryptoEvents.PAYMENT_LATE
    default:
      return undefined
  }
}
