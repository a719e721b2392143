import { isDecimalString } from "../../gateway"
import { exact, fiatMinorUnits, fiatToMinorUnits } from "../money"
import { GatewayStatus, isKnownStatus, type KnownStatus } from "../payment/payment-state"
import { fiatAtRate, invoiceRate, type InvoiceRate } from "../payment/invoice-books"

/**
 * What the merchant reads on a Needs-attention item (docs/attention.md#reading-an-item): the order
 * it concerns, the invoice's amounts in its coin and in the store's currency, what the gateway says
 * in words, and when. Pure: the queue reads the rows (src/core/books/attention-queue.ts), this builds the
 * facts, so every rule is unit-tested.
 */

/** A fiat value: a decimal string in `currency` (ISO 4217, upper case). */
export interface FiatValue {
  amount: string
  currency: string
}

/** A crypto amount with its coin, and its value in the store's currency when the invoice says it. */
export interface MoneyFact {
  amount: string
  coin: string
  fiat: FiatValue | null
}

/** The order an item concerns, as the admin's Orders page shows it. */
export interface AttentionOrderFacts {
  id: string
  display_id: number | null
  status: string | null
  email: string | null
  customer_name: string | null
}

/**
 * The invoice's amounts: `expected` (what it asked), `received` (what arrived), `due` (what is to
 * be sent back: the item's amount when it holds money, else null), `shortfall` (an underpayment the
 * order accepted within the tolerance: no money is held for it).
 */
export interface AttentionInvoiceFacts {
  expected: MoneyFact | null
  received: MoneyFact | null
  due: MoneyFact | null
  shortfall: MoneyFact | null
}

export interface AttentionFacts {
  order: AttentionOrderFacts | null
  invoice: AttentionInvoiceFacts | null
  /** Whether the item's amount can be sent back in crypto from the queue (its refund action). */
  refundable: boolean
  /** The gateway's status in words ("expired after a partial payment"), or null when none was seen. */
  gateway_status: string | null
  /** When the item was raised (UTC ISO 8601). */
  when: string
  /**
   * Until when the shopper may still pay the rest of an invoice that ended short, its order placed
   * on detection waiting for it (docs/attention.md#paying-the-rest), UTC ISO 8601; null otherwise.
   * A refund before then sends back money the order may still need.
   */
  rest_due_until: string | null
}

/** The slice of a queue item the facts are built from (src/core/books/attention-queue.ts `AttentionQueueItem`). */
export interface AttentionFactsItem {
  kind: string
  source: "attention" | "withdrawal" | "exchange"
  subject_id: string
  psys_cid: string | null
  amount: string | null
  evidence: Record<string, unknown>
  created_at: Date | string
}

/** The slice of a crypto_invoice row the facts read; `source_rate` may be absent on older rows. */
export interface AttentionFactsInvoice {
  id: string
  psys_cid: string | null
  source_currency: string
  source_amount: string
  expected_amount: string | null
  received_amount: string | null
  gateway_status: string | null
  source_rate?: unknown
  /** How long an order placed on detection waits for the rest (docs/attention.md#paying-the-rest). */
  rest_until?: Date | string | null
}

/** An order as Medusa's Query answers it (`id`, `display_id`, `status`, `email`, `customer`, `shipping_address`). */
export type AttentionFactsOrderRow = Record<string, unknown> & { id: string }

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)
const decimal = (value: unknown): string | null => (typeof value === "string" && isDecimalString(value) ? value : null)
const positive = (value: string | null): value is string => value !== null && exact(value).gt(0)

/**
 * The crypto_invoice an item is about: its subject (invoice kinds), or the invoice named in its
 * evidence (a payment on a sibling of a currency switch: `cinv_…:txn`, docs/attention.md).
 */
export function attentionInvoiceId(item: Pick<AttentionFactsItem, "source" | "subject_id" | "evidence">): string | null {
  if (item.source !== "attention") return null
  const named = text(item.evidence.invoice_id)
  if (named !== null && named.startsWith("cinv_")) return named
  return item.subject_id.startsWith("cinv_") ? item.subject_id : null
}

/**
 * Whether the queue's refund action may send the item's amount back: a stored item with a coin and
 * an amount, except a shortfall accepted within the tolerance (no money is held for it; the refund
 * step refuses it too, docs/attention.md).
 */
export function isRefundableAttention(item: Pick<AttentionFactsItem, "kind" | "source" | "psys_cid" | "amount" | "evidence">): boolean {
  return item.source === "attention" && item.psys_cid !== null && positive(decimal(item.amount)) && !(item.kind === "underpaid" && item.evidence.within_tolerance === true)
}

/**
 * A coin amount with its fiat value at the invoice's rate (src/core/payment/invoice-books.ts), written with
 * all the currency's minor units ("84.90").
 */
export function moneyFact(amount: string, coin: string, rate: InvoiceRate | null, currency: string): MoneyFact {
  if (rate === null) return { amount, coin, fiat: null }
  return { amount, coin, fiat: { amount: fiatAtRate(amount, rate, currency).toFixed(fiatMinorUnits(currency)), currency: currency.toUpperCase() } }
}

const KNOWN_STATUS_WORDS: Record<KnownStatus, (paid: "none" | "part" | "all") => string> = {
  [GatewayStatus.New]: () => "waiting for payment",
  [GatewayStatus.Pending]: () => "payment seen, waiting for confirmations",
  [GatewayStatus.PendingInternal]: () => "payment seen, being processed by the gateway",
  [GatewayStatus.Expired]: (paid) => (paid === "part" ? "expired after a partial payment" : paid === "all" ? "expired, then paid after its end" : "expired unpaid"),
  [GatewayStatus.Completed]: () => "paid in full",
  [GatewayStatus.Mismatch]: () => "paid more than asked",
  [GatewayStatus.Error]: () => "in error at the gateway",
  [GatewayStatus.Cancelled]: (paid) => (paid === "none" ? "cancelled unpaid" : "cancelled, then paid"),
  [GatewayStatus.CancelledDuplicate]: (paid) => (paid === "none" ? "replaced by an invoice in another coin" : "replaced by an invoice in another coin, and paid anyway"),
}

/** A gateway invoice status (spec §3) in words, told apart by what arrived; an unknown status as sent. */
export function gatewayStatusWords(status: string | null, received: string | null, expected: string | null): string | null {
  if (status === null) return null
  if (!isKnownStatus(status)) return `"${status}" (a status this plugin does not know)`
  const paid = !positive(received) ? "none" : positive(expected) && exact(received).lt(expected) ? "part" : "all"
  return KNOWN_STATUS_WORDS[status](paid)
}

/** The order's facts from a Query row: the customer's name, else the shipping address's. */
export function orderFacts(row: AttentionFactsOrderRow): AttentionOrderFacts {
  const name = (holder: unknown) => {
    if (typeof holder !== "object" || holder === null) return null
    const { first_name: first, last_name: last } = holder as Record<string, unknown>
    return [text(first), text(last)].filter((part) => part !== null).join(" ") || null
  }
  const display = row.display_id
  return {
    id: row.id,
    display_id: typeof display === "number" ? display : typeof display === "string" && /^\d+$/.test(display) ? Number.parseInt(display, 10) : null,
    status: text(row.status),
    email: text(row.email),
    customer_name: name(row.customer) ?? name(row.shipping_address),
  }
}

/**
 * The invoice facts of an item about a crypto_invoice: expected and received as the item saw them
 * (its evidence, in the item's coin), else as the invoice row holds them now.
 */
function invoiceFacts(item: AttentionFactsItem, invoice: AttentionFactsInvoice): AttentionInvoiceFacts {
  const coin = item.psys_cid ?? invoice.psys_cid
  if (coin === null) return { expected: null, received: null, due: null, shortfall: null }
  const sameCoin = coin === invoice.psys_cid
  const expected = decimal(item.evidence.expected) ?? (sameCoin ? decimal(invoice.expected_amount) : null)
  const received = decimal(item.evidence.received) ?? (sameCoin ? decimal(invoice.received_amount) : null)
  const rate = invoiceRate(invoice, coin, expected)
  const fact = (amount: string | null) => (amount === null ? null : moneyFact(amount, coin, rate, invoice.source_currency))
  const amount = decimal(item.amount)
  const withinTolerance = item.kind === "underpaid" && item.evidence.within_tolerance === true
  return {
    expected: fact(expected),
    received: fact(received),
    due: isRefundableAttention(item) ? fact(amount) : null,
    shortfall: withinTolerance ? fact(amount) : null,
  }
}

/** Everything the merchant reads on one item; `invoice` and `order` are the rows it concerns, when found. */
export function attentionFacts(item: AttentionFactsItem, invoice: AttentionFactsInvoice | null, order: AttentionFactsOrderRow | null, now: Date = new Date()): AttentionFacts {
  const invoiceFactsOf = invoice === null ? null : invoiceFacts(item, invoice)
  const status = text(item.evidence.gateway_status) ?? invoice?.gateway_status ?? null
  const received = decimal(item.evidence.received) ?? invoiceFactsOf?.received?.amount ?? null
  const expected = decimal(item.evidence.expected) ?? invoiceFactsOf?.expected?.amount ?? null
  return {
    order: order === null ? null : orderFacts(order),
    invoice: invoiceFactsOf,
    refundable: isRefundableAttention(item),
    gateway_status: item.source === "attention" ? gatewayStatusWords(status, received, expected) : null,
    when: new Date(item.created_at).toISOString(),
    rest_due_until: restDueUntil(item, invoice, now),
  }
}

/** An underpayment beyond the tolerance whose order still waits for the rest: until when. */
function restDueUntil(item: AttentionFactsItem, invoice: AttentionFactsInvoice | null, now: Date): string | null {
  if (item.kind !== "underpaid" || item.evidence.within_tolerance === true || invoice?.rest_until === null || invoice?.rest_until === undefined) return null
  const until = new Date(invoice.rest_until)
  return Number.isNaN(until.getTime()) || until.getTime() <= now.getTime() ? null : until.toISOString()
}
