/**
 * The Medusa events this plugin emits through the event bus (docs/events.md), so a store can tell
 * the merchant by e-mail or chat with a subscriber, and the plugin tells the shopper
 * (docs/notifications.md). Payload: `CryptoMoneyEvent`, except `crypto.invoice.created`
 * (`CryptoInvoiceCreatedEvent`) and `crypto.refund.claimable` (`CryptoRefundClaimableEvent`).
 */
export const CryptoEvents = {
  INVOICE_CREATED: "crypto.invoice.created",
  PAYMENT_RECEIVED: "crypto.payment.received",
  PAYMENT_UNDERPAID: "crypto.payment.underpaid",
  PAYMENT_OVERPAID: "crypto.payment.overpaid",
  PAYMENT_LATE: "crypto.payment.late",
  ATTENTION_RAISED: "crypto.attention.raised",
  WITHDRAWAL_OUTCOME_UNKNOWN: "crypto.withdrawal.outcome_unknown",
  REFUND_OUTCOME_UNKNOWN: "crypto.refund.outcome_unknown",
  EXCHANGE_OUTCOME_UNKNOWN: "crypto.exchange.outcome_unknown",
  REFUND_CLAIMABLE: "crypto.refund.claimable",
} as const

export type CryptoEventName = (typeof CryptoEvents)[keyof typeof CryptoEvents]

/** Every event's data but `crypto.invoice.created`'s: amounts as decimal strings, always with their coin. */
export interface CryptoMoneyEvent {
  /** The attention item (`catt_…`), withdrawal (`cwdr_…`), exchange, or invoice mirror (`cinv_…`, `crypto.payment.received`) the event is about. */
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

/**
 * `crypto.invoice.created`: an invoice the gateway created for a payment session (spec §4.1), as it
 * answered, with what our invoice mirror does not keep (the address, the expiry).
 */
export interface CryptoInvoiceCreatedEvent {
  /** The invoice mirror (`cinv_…`). */
  id: string
  provider_id: string
  cart_id: string | null
  /** The coin of `amount`; null when the shopper picks it on the hosted page. */
  psys_cid: string | null
  currency: string | null
  /** What to send, commission included (spec §2.1 `invoice_total_sum`), a decimal string in that coin; null when the gateway says it on its page only. */
  amount: string | null
  /** The gateway's payment page (spec §2.1). */
  invoice_url: string | null
  /** The payment address (white-label shops only, spec §2.1 `wallet_hash`). */
  address: string | null
  /** When the invoice expires, ISO 8601 (spec §2.1 `expire_utc`, else `expire_min` from creation). */
  expires_at: string | null
}

/**
 * `crypto.refund.claimable`: the merchant started a refund the shopper claims with their own address
 * (docs/money-out.md#refunds-the-shopper-claims). It carries the claim link, which exists nowhere
 * else (only its token's hash is stored): the shopper's e-mail, or a store's own subscriber, sends it.
 */
export interface CryptoRefundClaimableEvent {
  /** The claim (`crcl_…`). */
  id: string
  provider_id: string
  order_id: string
  psys_cid: string
  /** The refund, a decimal string in that coin. */
  amount: string
  /** The storefront's claim page with the token. */
  link: string
  /** ISO 8601. */
  expires_at: string
}

/**
 * Each event's payload by name, for a store's subscriber (docs/events.md):
 * `SubscriberArgs<CryptoEvents["crypto.payment.underpaid"]>`. Shares its name with the `CryptoEvents`
 * list of names above; one import gives both. Every name of that list is a key here.
 */
export type CryptoEvents = {
  [Name in CryptoEventName]: Name extends typeof CryptoEvents.INVOICE_CREATED
    ? CryptoInvoiceCreatedEvent
    : Name extends typeof CryptoEvents.REFUND_CLAIMABLE
      ? CryptoRefundClaimableEvent
      : CryptoMoneyEvent
}

/**
 * The `crypto.invoice.created` payload from what the gateway answered (spec §2.1): the expiry is
 * the gateway's `expire_utc` (seconds) when it sends one, else `expireMinutes` from `createdAt`.
 */
export function invoiceCreatedEvent(
  input: Omit<CryptoInvoiceCreatedEvent, "expires_at"> & { expire_utc: number | null | undefined; expireMinutes: number; createdAt: Date }
): CryptoInvoiceCreatedEvent {
  const { expire_utc, expireMinutes, createdAt, ...event } = input
  const expires = typeof expire_utc === "number" && expire_utc > 0 ? new Date(expire_utc * 1000) : new Date(createdAt.getTime() + expireMinutes * 60_000)
  return { ...event, expires_at: expires.toISOString() }
}

const PAYMENT_EVENT_OF_KIND = new Map<string, CryptoEventName>([
  ["underpaid", CryptoEvents.PAYMENT_UNDERPAID],
  ["overpaid", CryptoEvents.PAYMENT_OVERPAID],
  ["late_payment", CryptoEvents.PAYMENT_LATE],
])

/** The payment event an attention kind also emits (besides `crypto.attention.raised`). */
export const paymentEventOf = (kind: string): CryptoEventName | undefined => PAYMENT_EVENT_OF_KIND.get(kind)

/**
 * The plugin's internal event: a verified callback delivery is stored and waits for processing.
 * The callback route emits it after the insert; the subscriber `src/subscribers/crypto-callback-received.ts`
 * runs the processing workflow (on a worker instance when the store runs server + worker,
 * docs/production.md). Payload: `CryptoCallbackReceivedEvent`.
 */
export const CRYPTO_CALLBACK_RECEIVED = "crypto.callback.received"

export interface CryptoCallbackReceivedEvent {
  /** The stored delivery (`ccb_…`). */
  id: string
  /** 0 for the route's emit; n for the n-th quick retry of a cart that could not be completed yet. */
  retry?: number
}

/**
 * The plugin's internal event: reconcile now (docs/production.md#reconciliation). The job emits it
 * every minute and the admin's **Reconcile now** at once; the subscriber
 * `src/subscribers/crypto-reconcile-requested.ts` runs the reconciliation on a worker. Payload:
 * `CryptoReconcileRequestedEvent`.
 */
export const CRYPTO_RECONCILE_REQUESTED = "crypto.reconcile.requested"

export interface CryptoReconcileRequestedEvent {
  /** Only invoices untouched (and deliveries unprocessed) for this long: the job's 180, the admin's 0. */
  older_than_seconds: number
  /** The admin user who asked; null for the job. */
  requested_by: string | null
}

/**
 * The plugin's internal event: money in `psys_cid` is confirmed (an invoice's amount final, spec §3;
 * a `pay_in` completed, spec §6.2). The sync emits it once per move; the subscriber
 * `src/subscribers/crypto-settlement-requested.ts` applies the merchant's settlement rules on a
 * worker (docs/money-out.md#settlement), each at most once per trigger. Payload:
 * `CryptoSettlementRequestedEvent`.
 */
export const CRYPTO_SETTLEMENT_REQUESTED = "crypto.settlement.requested"

export interface CryptoSettlementRequestedEvent {
  provider_id: string
  psys_cid: string
  /** The trigger: an invoice mirror (`cinv_…`), or `pay_in:<txn_id>` for a deposit. */
  subject_id: string
  /** What it credited the merchant, a decimal string in `psys_cid`. */
  amount: string
}

/**
 * Retries of a failed processing by the event bus: the Redis event bus passes these to its queue
 * (attempts with exponential backoff: 2 s, 4 s, 8 s, 16 s); the local event bus ignores them and
 * the reconciliation job retries the unprocessed delivery instead (docs/production.md).
 */
export const CALLBACK_EVENT_OPTIONS = { attempts: 5, backoff: { type: "exponential", delay: 2000 } } as const

/** Quick retries of a paid cart that Medusa could not complete yet, before the job's slower pass. */
export const CART_RETRY_DELAYS_MS = [2000, 5000, 15000] as const
