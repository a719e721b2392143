import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { resolveCryptoModule } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import type { CryptoAttentionRecord } from "../../modules/crypto/service"
import { attentionFacts, attentionInvoiceId, type AttentionFacts, type AttentionFactsInvoice, type AttentionFactsOrderRow } from "./attention-facts"
import { isUndecidedGatewayFailure } from "../money-out/withdrawal"

/**
 * The "Needs attention" queue as the admin reads it (docs/attention.md): the open attention rows,
 * plus what is derived from the money-out records: withdrawals, refunds and exchanges whose
 * outcome is unknown, and withdrawals and refunds that failed at the gateway (201 with
 * `status: "error"`, spec §2.3) while their duplicate guard is kept. Those have no row of their
 * own: they leave the queue when the withdrawal or exchange is resolved explicitly (its own
 * resolve action), never by themselves.
 */

export type DerivedAttentionKind = "withdrawal_unknown" | "refund_unknown" | "withdrawal_failed" | "refund_failed" | "exchange_unknown"

export interface AttentionQueueItem {
  id: string
  kind: CryptoAttentionRecord["kind"] | DerivedAttentionKind
  /** `attention`: a crypto_attention row; `withdrawal` / `exchange`: derived from that record. */
  source: "attention" | "withdrawal" | "exchange"
  provider_id: string
  subject_id: string
  order_id: string | null
  cart_id: string | null
  psys_cid: string | null
  currency: string | null
  amount: string | null
  evidence: Record<string, unknown>
  status: "open" | "resolved"
  withdrawal_id: string | null
  created_at: Date | string
}

/** The three list-and-count reads of the module service the queue needs (a fake in unit tests). */
export type AttentionQueueService = Pick<CryptoModuleService, "listAndCountCryptoAttentions" | "listAndCountCryptoWithdrawals" | "listAndCountCryptoExchanges">

const UNKNOWN = "outcome_unknown"
/** Failed at the gateway and undecided (`isUndecidedGatewayFailure` in src/core/money-out/withdrawal.ts, as a filter). */
const FAILED_UNDECIDED = { status: "error", active_fingerprint: { $ne: null } }

type WithdrawalRecord = Awaited<ReturnType<CryptoModuleService["listCryptoWithdrawals"]>>[number]
type ExchangeRecord = Awaited<ReturnType<CryptoModuleService["listCryptoExchanges"]>>[number]

/** One part of the queue, newest first: how many items it holds, and a slice of them. */
interface QueuePart {
  count: number
  read(skip: number, take: number): Promise<AttentionQueueItem[]>
}

/**
 * The queue is the concatenation of its parts in this order — withdrawals and refunds of unknown
 * outcome, those that failed at the gateway and wait for a decision, exchanges of unknown outcome
 * (the most urgent: money may have left or is held), then the stored items — each newest first. A page is one window over that whole list, so every item appears on
 * exactly one page and `count` is the length of the list.
 */
async function parts(service: AttentionQueueService): Promise<QueuePart[]> {
  const [[, withdrawals], [, failed], [, exchanges], [, rows]] = await Promise.all([
    service.listAndCountCryptoWithdrawals({ status: UNKNOWN }, { take: 1, select: ["id"] }),
    service.listAndCountCryptoWithdrawals(FAILED_UNDECIDED, { take: 1, select: ["id"] }),
    service.listAndCountCryptoExchanges({ status: UNKNOWN }, { take: 1, select: ["id"] }),
    service.listAndCountCryptoAttentions({ status: "open" }, { take: 1, select: ["id"] }),
  ])
  return [
    {
      count: withdrawals,
      read: async (skip, take) =>
        (await service.listAndCountCryptoWithdrawals({ status: UNKNOWN }, { order: { requested_at: "DESC", id: "ASC" }, skip, take }))[0].map(withdrawalItem),
    },
    {
      count: failed,
      read: async (skip, take) =>
        (await service.listAndCountCryptoWithdrawals(FAILED_UNDECIDED, { order: { requested_at: "DESC", id: "ASC" }, skip, take }))[0].map(withdrawalItem),
    },
    {
      count: exchanges,
      read: async (skip, take) => (await service.listAndCountCryptoExchanges({ status: UNKNOWN }, { order: { requested_at: "DESC", id: "ASC" }, skip, take }))[0].map(exchangeItem),
    },
    {
      count: rows,
      read: async (skip, take) => (await service.listAndCountCryptoAttentions({ status: "open" }, { order: { created_at: "DESC", id: "ASC" }, skip, take }))[0].map(attentionItem),
    },
  ]
}

export async function listAttentionQueue(
  service: AttentionQueueService,
  page: { limit: number; offset: number } = { limit: 100, offset: 0 }
): Promise<{ items: AttentionQueueItem[]; count: number }> {
  const items: AttentionQueueItem[] = []
  let skip = page.offset
  let count = 0
  for (const part of await parts(service)) {
    count += part.count
    const take = Math.min(page.limit - items.length, part.count - skip)
    if (take > 0) {
      items.push(...(await part.read(skip, take)))
    }
    skip = Math.max(0, skip - part.count)
  }
  return { items, count }
}

/** How many items wait for a decision (the admin's badge). */
export async function countAttentionQueue(service: AttentionQueueService): Promise<number> {
  return (await parts(service)).reduce((total, part) => total + part.count, 0)
}

function withdrawalItem(withdrawal: WithdrawalRecord): AttentionQueueItem {
  return {
    id: withdrawal.id,
    kind: isUndecidedGatewayFailure(withdrawal)
      ? withdrawal.purpose === "withdrawal"
        ? "withdrawal_failed"
        : "refund_failed"
      : withdrawal.purpose === "withdrawal"
        ? "withdrawal_unknown"
        : "refund_unknown",
    source: "withdrawal",
    provider_id: withdrawal.provider_id,
    subject_id: withdrawal.id,
    order_id: withdrawal.order_id,
    cart_id: null,
    psys_cid: withdrawal.psys_cid,
    currency: null,
    amount: withdrawal.total_amount,
    evidence: {
      purpose: withdrawal.purpose,
      type: withdrawal.type,
      recipients: withdrawal.recipients,
      requested_at: withdrawal.requested_at,
      requested_by: withdrawal.requested_by,
      invoice_id: withdrawal.invoice_id,
      error_message: withdrawal.error_message,
      operation_id: withdrawal.operation_id,
      gateway_status: withdrawal.gateway_status,
      gateway_evidence: withdrawal.gateway_evidence,
    },
    status: "open",
    withdrawal_id: withdrawal.id,
    created_at: withdrawal.requested_at,
  }
}

/**
 * An exchange of unknown outcome, with the amount the merchant asked for in its coin: the amount to
 * send (`from_amount` in `from_currency`), or, when the exchange was asked by the amount to
 * receive, that amount in `to_currency` (spec §4.11).
 */
function exchangeItem(exchange: ExchangeRecord): AttentionQueueItem {
  const bySent = exchange.from_amount !== null
  return {
    id: exchange.id,
    kind: "exchange_unknown",
    source: "exchange",
    provider_id: exchange.provider_id,
    subject_id: exchange.id,
    order_id: null,
    cart_id: null,
    psys_cid: bySent ? exchange.from_currency : exchange.to_currency,
    currency: null,
    amount: bySent ? exchange.from_amount : exchange.to_amount,
    evidence: {
      from_currency: exchange.from_currency,
      to_currency: exchange.to_currency,
      from_amount: exchange.from_amount,
      to_amount: exchange.to_amount,
      to_address: exchange.to_address,
      requested_at: exchange.requested_at,
      requested_by: exchange.requested_by,
      error_message: exchange.error_message,
    },
    status: "open",
    withdrawal_id: null,
    created_at: exchange.requested_at,
  }
}

function attentionItem(row: CryptoAttentionRecord): AttentionQueueItem {
  return {
    id: row.id,
    kind: row.kind,
    source: "attention",
    provider_id: row.provider_id,
    subject_id: row.subject_id,
    order_id: row.order_id,
    cart_id: row.cart_id,
    psys_cid: row.psys_cid,
    currency: row.currency,
    amount: row.amount,
    evidence: (row.evidence ?? {}) as Record<string, unknown>,
    status: row.status,
    withdrawal_id: row.withdrawal_id,
    created_at: row.created_at,
  }
}

/** An item with what the merchant reads on it (src/core/books/attention-facts.ts). */
export type AttentionQueueItemWithFacts = AttentionQueueItem & { facts: AttentionFacts }

/** The two reads the facts of a page need, each once for the whole page (fakes in unit tests). */
export interface AttentionFactsReaders {
  invoices(ids: string[]): Promise<AttentionFactsInvoice[]>
  orders(ids: string[]): Promise<AttentionFactsOrderRow[]>
}

/** The order fields the facts show (`orderFacts`): one Query read for a whole page. */
const ORDER_FIELDS = ["id", "display_id", "status", "email", "customer.first_name", "customer.last_name", "shipping_address.first_name", "shipping_address.last_name"]

/** The readers over our module (crypto_invoice) and Medusa's Query (orders). */
export function attentionFactsReaders(scope: Pick<MedusaContainer, "resolve">): AttentionFactsReaders {
  return {
    invoices: async (ids) => (await resolveCryptoModule(scope).listCryptoInvoices({ id: ids }, { take: ids.length })) as AttentionFactsInvoice[],
    orders: async (ids) => {
      const { data } = await scope.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ORDER_FIELDS, filters: { id: ids } })
      return (data as Array<Record<string, unknown>>).filter((row): row is AttentionFactsOrderRow => typeof row.id === "string")
    },
  }
}

/** A page of items with their facts: the invoices and orders of the whole page read once each. */
export async function withAttentionFacts(items: AttentionQueueItem[], readers: AttentionFactsReaders): Promise<AttentionQueueItemWithFacts[]> {
  const unique = (values: Array<string | null>) => [...new Set(values.filter((value): value is string => value !== null))]
  const invoiceIds = unique(items.map(attentionInvoiceId))
  const orderIds = unique(items.map((item) => item.order_id))
  const [invoices, orders] = await Promise.all([
    invoiceIds.length === 0 ? [] : readers.invoices(invoiceIds),
    orderIds.length === 0 ? [] : readers.orders(orderIds),
  ])
  const invoiceById = new Map(invoices.map((invoice) => [invoice.id, invoice]))
  const orderById = new Map(orders.map((order) => [order.id, order]))
  return items.map((item) => {
    const invoiceId = attentionInvoiceId(item)
    const invoice = invoiceId === null ? null : (invoiceById.get(invoiceId) ?? null)
    const order = item.order_id === null ? null : (orderById.get(item.order_id) ?? null)
    return { ...item, facts: attentionFacts(item, invoice, order) }
  })
}
