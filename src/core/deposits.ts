import { exact, sumAmounts } from "./money"

/** One verified `pay_in` callback as the admin shows it (spec §6.2; every value a string). */
export interface PayInCallback {
  id: string
  received_at: Date | string
  delivery_count: number
  status: string | null
  txn_id: string | null
  deposit_uid: string | null
  psys_cid: string | null
  currency: string | null
  amount: string | null
  confirmations: string | null
  wallet_hash: string | null
  tx_urls: string[]
}

/** A stored callback row (crypto_callback) as read for deposits. */
export interface StoredCallback {
  id: string
  created_at: Date | string
  delivery_count: number
  status: string | null
  txn_id: string | null
  deposit_uid?: string | null
  fields: unknown
}

/** The admin view of a stored pay_in callback: its verified fields picked by name. */
export function payInOf(row: StoredCallback): PayInCallback {
  const fields = typeof row.fields === "object" && row.fields !== null ? (row.fields as Record<string, unknown>) : {}
  const pick = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : null)
  return {
    id: row.id,
    received_at: row.created_at,
    delivery_count: row.delivery_count,
    status: row.status,
    txn_id: row.txn_id,
    deposit_uid: row.deposit_uid ?? pick("deposit_uid"),
    psys_cid: pick("psys_cid"),
    currency: pick("currency"),
    amount: pick("amount"),
    confirmations: pick("confirmations"),
    wallet_hash: pick("wallet_hash"),
    tx_urls: Array.isArray(fields.tx_urls) ? fields.tx_urls.filter((u): u is string => typeof u === "string") : [],
  }
}

/** What a customer's deposits hold, per coin: amounts as decimal strings in that coin. */
export interface DepositTotal {
  psys_cid: string
  currency: string | null
  /** pay_ins whose latest callback says `completed`. */
  confirmed: string
  /** pay_ins seen but not completed yet. */
  pending: string
  count: number
}

/**
 * Totals per coin of a customer's pay_ins. A pay_in may be reported more than once (pending, then
 * completed): each `txn_id` counts once, by its latest callback (the callbacks come newest first).
 */
export function totalPayIns(payIns: readonly PayInCallback[]): DepositTotal[] {
  const latest = new Map<string, PayInCallback>()
  for (const payIn of payIns) {
    const key = payIn.txn_id ?? payIn.id
    if (!latest.has(key)) latest.set(key, payIn)
  }
  const byCoin = new Map<string, { currency: string | null; confirmed: string[]; pending: string[]; count: number }>()
  for (const payIn of latest.values()) {
    if (payIn.psys_cid === null || payIn.amount === null) continue
    const entry = byCoin.get(payIn.psys_cid) ?? { currency: payIn.currency, confirmed: [], pending: [], count: 0 }
    ;(payIn.status === "completed" ? entry.confirmed : entry.pending).push(exact(payIn.amount).toFixed())
    entry.count += 1
    byCoin.set(payIn.psys_cid, entry)
  }
  return [...byCoin.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([psys_cid, entry]) => ({ psys_cid, currency: entry.currency, confirmed: sumAmounts(entry.confirmed).toFixed(), pending: sumAmounts(entry.pending).toFixed(), count: entry.count }))
}
