import type CryptoModuleService from "../modules/crypto/service"
import type { CryptoAttentionRecord } from "../modules/crypto/service"

/**
 * The "Needs attention" queue as the admin reads it (docs/attention.md): the open attention rows,
 * plus what is derived from the money-out records: withdrawals, refunds and exchanges whose
 * outcome is unknown. Those have no row of their own: they leave the queue when the withdrawal or
 * exchange is resolved explicitly (its own resolve action), never by themselves.
 */

export type DerivedAttentionKind = "withdrawal_unknown" | "refund_unknown" | "exchange_unknown"

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

/** Exchanges are recorded by a model that may not exist in this build: read only when it does. */
interface ExchangeReader {
  listCryptoExchanges?: (filters: Record<string, unknown>, config?: Record<string, unknown>) => Promise<Array<Record<string, unknown>>>
}

const UNKNOWN = "outcome_unknown"

export async function listAttentionQueue(
  service: CryptoModuleService,
  page: { limit: number; offset: number } = { limit: 100, offset: 0 }
): Promise<{ items: AttentionQueueItem[]; count: number }> {
  const [rows, rowCount] = await service.listAndCountCryptoAttentions({ status: "open" }, { order: { created_at: "DESC" }, take: page.limit, skip: page.offset })
  const withdrawals = await service.listCryptoWithdrawals({ status: UNKNOWN }, { order: { requested_at: "DESC" } })
  const exchanges = await listUnknownExchanges(service)
  const items: AttentionQueueItem[] = [
    ...withdrawals.map<AttentionQueueItem>((withdrawal) => ({
      id: withdrawal.id,
      kind: withdrawal.purpose === "withdrawal" ? "withdrawal_unknown" : "refund_unknown",
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
      },
      status: "open",
      withdrawal_id: withdrawal.id,
      created_at: withdrawal.requested_at,
    })),
    ...exchanges,
    ...rows.map<AttentionQueueItem>((row) => ({
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
    })),
  ]
  return { items, count: rowCount + withdrawals.length + exchanges.length }
}

/** How many items wait for a decision (the admin's badge). */
export async function countAttentionQueue(service: CryptoModuleService): Promise<number> {
  const [, open] = await service.listAndCountCryptoAttentions({ status: "open" }, { take: 1 })
  const [, unknown] = await service.listAndCountCryptoWithdrawals({ status: UNKNOWN }, { take: 1 })
  return open + unknown + (await listUnknownExchanges(service)).length
}

async function listUnknownExchanges(service: CryptoModuleService): Promise<AttentionQueueItem[]> {
  const reader = service as unknown as ExchangeReader
  if (typeof reader.listCryptoExchanges !== "function") return []
  const rows = await reader.listCryptoExchanges({ status: UNKNOWN })
  const text = (value: unknown) => (typeof value === "string" ? value : null)
  return rows.map((row) => ({
    id: String(row.id),
    kind: "exchange_unknown",
    source: "exchange",
    provider_id: text(row.provider_id) ?? "",
    subject_id: String(row.id),
    order_id: null,
    cart_id: null,
    psys_cid: text(row.from_psys_cid) ?? text(row.psys_cid),
    currency: null,
    amount: text(row.from_amount) ?? text(row.amount),
    evidence: { ...row },
    status: "open",
    withdrawal_id: null,
    created_at: (row.created_at as Date | string | undefined) ?? new Date(0),
  }))
}
