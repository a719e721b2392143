import { Dec, sum } from "./money"
import type { ChainTx, Invoice, InvoiceStatus, SeedCoin } from "./types"

/** Whether a status ends the invoice: only money after the end (`afterEnd`) or `settle` moves it then. */
const TERMINAL: Record<InvoiceStatus, boolean> = {
  new: false,
  pending: false,
  "pending internal": false,
  completed: true,
  mismatch: true,
  expired: true,
  cancelled: true,
  "cancelled duplicate": true,
  error: true,
}

export function isTerminal(status: InvoiceStatus): boolean {
  return TERMINAL[status]
}

export interface InvoiceFigures {
  /** every transaction seen, confirmed or not */
  received: Dec
  /** transactions with at least the coin's expected confirmations */
  confirmed: Dec
  /** mempool amount (spec §2.2 pending_sum) */
  unconfirmed: Dec
  /** what is still due: invoice_total_sum − received, never below 0 (spec §2.1 pending_amount) */
  pendingAmount: Dec
  /** smallest confirmation count among the transactions, 0 when none */
  confirmations: number
}

/** A transaction counts as confirmed once it has the coin's expected confirmations; before, it is mempool money. */
export function isConfirmed(tx: ChainTx, coin: SeedCoin): boolean {
  return tx.confirmations >= coin.expected_confirmations
}

export function figures(invoice: Invoice, coin: SeedCoin): InvoiceFigures {
  const received = sum(invoice.txs.map((t) => t.value))
  const confirmed = sum(invoice.txs.filter((t) => isConfirmed(t, coin)).map((t) => t.value))
  const due = new Dec(invoice.invoice_total_sum).minus(received)
  return {
    received,
    confirmed,
    unconfirmed: received.minus(confirmed),
    pendingAmount: due.isNegative() ? new Dec(0) : due,
    confirmations: invoice.txs.length === 0 ? 0 : Math.min(...invoice.txs.map((t) => t.confirmations)),
  }
}

export interface NextState {
  status: InvoiceStatus
  internalStartedAt: number | null
}

/**
 * Money that arrives after the end of an invoice (docs/gateway-readings.md#money-after-the-end-of-an-invoice):
 * the transaction is recorded and a final status stays final, except `cancelled` with money received
 * becomes `expired` (spec §3: expired = "the amount field shows what was received") and `completed`
 * with more than due confirmed becomes `mismatch`.
 */
export function afterEnd(status: InvoiceStatus, f: InvoiceFigures, due: Dec): InvoiceStatus {
  if (status === "cancelled" && f.received.gt(0)) {
    return "expired"
  }
  if (status === "completed" && f.confirmed.gt(due)) {
    return "mismatch"
  }
  return status
}

/**
 * Where the gateway's `settle` takes an invoice it had reported in `error` (control API; the same
 * reading): every transaction recorded counts; more than due → `mismatch`, the amount due →
 * `completed`, less → `expired` (what arrived is the amount).
 */
export function settledStatus(f: InvoiceFigures, due: Dec): InvoiceStatus {
  if (f.received.gt(due)) {
    return "mismatch"
  }
  return f.received.gte(due) ? "completed" : "expired"
}

/**
 * The invoice state machine (docs/gateway-readings.md#invoice-lifecycle): a pure function of the invoice, its
 * coin and the time. Terminal statuses change only by `afterEnd` (money after the end);
 * `cancelled duplicate` and `error` are set by the core, not derived.
 *
 * - confirmed ≥ due: `completed` (or `mismatch` when confirmed > due); on coins with an internal
 *   transfer, `pending internal` first, for `internalTransferMs`.
 * - past expiry with less than due seen: `cancelled` when nothing arrived, else `expired`.
 *   A fully seen but unconfirmed amount does not expire: it waits for its confirmations.
 * - something seen: `pending`; nothing: `new`.
 */
export function nextState(invoice: Invoice, coin: SeedCoin, nowMs: number, internalTransferMs: number): NextState {
  const f = figures(invoice, coin)
  const due = new Dec(invoice.invoice_total_sum)
  if (isTerminal(invoice.status)) {
    return { status: afterEnd(invoice.status, f, due), internalStartedAt: invoice.internal_started_at }
  }
  if (f.confirmed.gte(due)) {
    const paid: InvoiceStatus = f.confirmed.gt(due) ? "mismatch" : "completed"
    if (!coin.internal_transfer) {
      return { status: paid, internalStartedAt: null }
    }
    const startedAt = invoice.internal_started_at ?? nowMs
    if (nowMs - startedAt >= internalTransferMs) {
      return { status: paid, internalStartedAt: startedAt }
    }
    return { status: "pending internal", internalStartedAt: startedAt }
  }
  if (nowMs >= invoice.expire_at && f.received.lt(due)) {
    return { status: f.received.isZero() ? "cancelled" : "expired", internalStartedAt: null }
  }
  return { status: f.received.isZero() ? "new" : "pending", internalStartedAt: null }
}

/** spec §3 leaves the integers open except 3 = completed; the sandbox's table (never branch on it). */
export const STATUS_CODES: Record<InvoiceStatus, number> = {
  new: 0,
  pending: 1,
  "pending internal": 2,
  completed: 3,
  mismatch: 4,
  expired: 5,
  cancelled: 6,
  "cancelled duplicate": 7,
  error: 8,
}
