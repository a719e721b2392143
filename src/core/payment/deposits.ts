import type { Operation } from "../../gateway"
import { exact, sumAmounts } from "../money"

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
  /** Read back from the gateway's operations list by the reconciliation job (its callbacks were lost). */
  recovered: boolean
}

/** A stored callback row (crypto_callback) as read for deposits. */
export interface StoredCallback {
  id: string
  created_at: Date | string
  delivery_count: number
  status: string | null
  txn_id: string | null
  deposit_uid?: string | null
  /** `operation`: a pay_in read back from the operations list (spec §4.3). */
  format?: string
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
    recovered: row.format === "operation",
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
 * How far a pay_in has come: `completed` is final; every other status (`pending`, `pending
 * internal`: money seen, not yet in the wallet, spec §3) is seen only.
 */
const payInRank = (status: string | null): number => (status === "completed" ? 2 : 1)

/**
 * Totals per coin of a customer's pay_ins. A pay_in may be reported more than once (pending, then
 * completed; delivered again hours later; read back from the operations list when its callbacks
 * were lost): each `txn_id` counts once, by its most advanced report, the newest of those (the
 * callbacks come newest first). A stale `pending` stored after `completed` changes nothing.
 */
export function totalPayIns(payIns: readonly PayInCallback[]): DepositTotal[] {
  const latest = new Map<string, PayInCallback>()
  for (const payIn of payIns) {
    const key = payIn.txn_id ?? payIn.id
    const seen = latest.get(key)
    if (seen === undefined || payInRank(payIn.status) > payInRank(seen.status)) latest.set(key, payIn)
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

/** A pay_in's state as stored (one row per callback or recovery): its txn_id and status. */
export interface StoredPayInState {
  txn_id: string | null
  status: string | null
}

/** Whether an operation is a pay_in the plugin can record: white-label fields present (spec §2.2). */
function isRecordablePayIn(operation: Operation): boolean {
  return operation.type === "pay_in" && (operation.amount ?? operation.actual_sum ?? null) !== null && typeof operation.psys_cid === "string" && operation.psys_cid !== ""
}

/**
 * The pay_ins of an operations list page (spec §4.3, `type=pay_in`) the stored rows do not show
 * yet: a pay_in none of whose callbacks arrived, or that completed while only its pending callback
 * arrived. A state already stored (by a callback or an earlier recovery) or behind one stored is
 * left alone, so a pay_in is recorded once however often it is read.
 */
export function payInsToRecord(operations: readonly Operation[], stored: readonly StoredPayInState[]): Operation[] {
  const best = new Map<string, number>()
  for (const row of stored) {
    if (row.txn_id === null) continue
    best.set(row.txn_id, Math.max(best.get(row.txn_id) ?? 0, payInRank(row.status)))
  }
  const chosen = new Map<string, Operation>()
  for (const operation of operations) {
    if (!isRecordablePayIn(operation)) continue
    if ((best.get(operation.id) ?? 0) >= payInRank(operation.status)) continue
    const already = chosen.get(operation.id)
    if (already === undefined || payInRank(operation.status) > payInRank(already.status)) chosen.set(operation.id, operation)
  }
  return [...chosen.values()]
}

/**
 * A pay_in read back from the operations list in the shape of its callback (spec §6.2: every value
 * a string except `tx_urls`), so the deposits views, totals and the unmatched check read it as
 * they read a delivered one. `uid` is the deposit's uid the deposit list gave for its address
 * (spec §4.10), null when no deposit of the shop has that address. `created_at_utc` is kept (seconds).
 */
export function payInFieldsOfOperation(operation: Operation, uid: string | null): Record<string, unknown> {
  const amount = operation.amount ?? operation.actual_sum ?? null
  return {
    ipn_type: "pay_in",
    txn_id: operation.id,
    status: operation.status,
    amount: amount === null ? null : exact(amount).toFixed(),
    psys_cid: operation.psys_cid ?? null,
    currency: operation.currency ?? null,
    confirmations: typeof operation.confirmations === "number" ? String(operation.confirmations) : null,
    wallet_hash: operation.wallet_hash ?? null,
    deposit_uid: uid,
    tx_urls: operation.tx_url,
    created_at_utc: typeof operation.created_at_utc === "number" ? String(operation.created_at_utc) : null,
  }
}
