import type { InferTypeOf } from "@medusajs/framework/types"
import type { CryptoInvoice } from "../../modules/crypto/models/crypto-invoice"
import type { CryptoWithdrawal } from "../../modules/crypto/models/crypto-withdrawal"
import type CryptoModuleService from "../../modules/crypto/service"
import { exact, sumAmounts } from "../money"
import { statusFacts } from "../payment/payment-state"
import { SEND_BACK_PURPOSES, withdrawalHoldsMoney } from "./withdrawal"

/**
 * The one account of every crypto amount (docs/attention.md#the-account): for each invoice, what
 * was expected, received, confirmed, sent back and refunded, all in the coin of the invoice that
 * holds the money. Derived, not copied: what left is summed from the withdrawal rows that name
 * the invoice (or, for refunds of an order, its payment), so it can never disagree with them.
 * The order widget, the store's payment-status route, refunds and the attention queue read it.
 */

type InvoiceRow = InferTypeOf<typeof CryptoInvoice>
type WithdrawalRow = InferTypeOf<typeof CryptoWithdrawal>

export interface InvoiceAccount {
  invoice_id: string
  order_number: string
  attempt: number
  /** The invoice of the chain that holds the money (after a currency switch, the switched one). */
  txn_id: string | null
  session_status: string
  gateway_status: string | null
  /** The coin of every amount below. */
  psys_cid: string | null
  currency: string | null
  /** Whether this invoice holds the money of the order (see holdingInvoice). */
  holds_order_money: boolean
  /** Replaced by a new invoice for the same session (a new amount): money on it is unexplained. */
  superseded: boolean
  expected: string | null
  received: string
  /** What the gateway counts as final (received, once the invoice's status is settled). */
  confirmed: string
  overpaid: string | null
  /** The shortfall accepted within the tolerance. */
  underpaid: string | null
  refund_due: string | null
  /** Coins sent back from this invoice (over/underpayment, late payment, unexplained), completed. */
  sent_back: string
  /** Coins of the order's crypto refunds (Medusa refunds paid in this coin), completed. */
  refunded: string
  /** Coins requested, sending, with an unknown outcome, or failed at the gateway and undecided: reserved until resolved. */
  in_flight: string
  /** What the gateway still holds of this invoice: received − sent back − refunded − in flight. */
  held: string
}

const amountOf = (rows: readonly WithdrawalRow[]): string => sumAmounts(rows.map((row) => row.total_amount)).toFixed()

/**
 * The invoice that holds an order's money: the one whose session the order's payment was made
 * from (never a superseded one); else the captured or placed-on-detection one of the latest
 * attempt; else the latest attempt.
 */
export function holdingInvoice<T extends Pick<InvoiceRow, "session_id" | "superseded_by" | "session_status" | "attempt">>(
  invoices: readonly T[],
  paymentSessionIds: readonly (string | null)[] = []
): T | undefined {
  const live = invoices.filter((invoice) => invoice.superseded_by === null)
  const byAttempt = [...live].sort((a, b) => b.attempt - a.attempt)
  return (
    byAttempt.find((invoice) => paymentSessionIds.includes(invoice.session_id) && invoice.session_status !== "canceled") ??
    byAttempt.find((invoice) => invoice.session_status === "captured") ??
    byAttempt.find((invoice) => invoice.session_status === "pending_authorization") ??
    byAttempt[0] ??
    [...invoices].sort((a, b) => b.attempt - a.attempt)[0]
  )
}

/** One invoice's account from its row and the withdrawals that name it (pure). */
export function invoiceAccount(invoice: InvoiceRow, withdrawals: readonly WithdrawalRow[], holds: boolean): InvoiceAccount {
  const coinOk = (row: WithdrawalRow) => invoice.psys_cid === null || row.psys_cid === invoice.psys_cid
  const own = withdrawals.filter((row) => coinOk(row) && ((row.invoice_id === invoice.id && SEND_BACK_PURPOSES.has(row.purpose)) || (holds && row.purpose === "refund")))
  const sentBack = own.filter((row) => row.status === "completed" && SEND_BACK_PURPOSES.has(row.purpose))
  const refunded = own.filter((row) => row.status === "completed" && row.purpose === "refund")
  const inFlight = own.filter(withdrawalHoldsMoney)
  const received = invoice.received_amount ?? "0"
  const held = exact(received).minus(amountOf(sentBack)).minus(amountOf(refunded)).minus(amountOf(inFlight))
  return {
    invoice_id: invoice.id,
    order_number: invoice.order_number,
    attempt: invoice.attempt,
    txn_id: invoice.active_txn_id ?? invoice.txn_id,
    session_status: invoice.session_status,
    gateway_status: invoice.gateway_status,
    psys_cid: invoice.psys_cid,
    currency: invoice.currency,
    holds_order_money: holds,
    superseded: invoice.superseded_by !== null,
    expected: invoice.expected_amount,
    received,
    confirmed: statusFacts(invoice.gateway_status).amountFinal ? received : "0",
    overpaid: invoice.overpaid_amount,
    underpaid: invoice.underpaid_amount,
    refund_due: invoice.refund_due_amount,
    sent_back: amountOf(sentBack),
    refunded: amountOf(refunded),
    in_flight: amountOf(inFlight),
    held: held.isNegative() ? "0" : held.toFixed(),
  }
}

/** The accounts of a set of invoices (an order's, a cart's) with the withdrawals that name them. */
export async function accountOfInvoices(
  cryptoModule: Pick<CryptoModuleService, "listCryptoWithdrawals">,
  invoices: readonly InvoiceRow[],
  options: { order_id?: string | null; payment_session_ids?: readonly (string | null)[] } = {}
): Promise<{ accounts: InvoiceAccount[]; holding: InvoiceAccount | null }> {
  if (invoices.length === 0) {
    return { accounts: [], holding: null }
  }
  const filters: Array<Record<string, unknown>> = [{ invoice_id: invoices.map((invoice) => invoice.id) }]
  if (options.order_id) filters.push({ order_id: options.order_id, purpose: "refund" })
  const withdrawals = await cryptoModule.listCryptoWithdrawals({ $or: filters })
  const holding = holdingInvoice(invoices, options.payment_session_ids ?? [])
  const accounts = invoices.map((invoice) => invoiceAccount(invoice, withdrawals, invoice.id === holding?.id))
  return { accounts, holding: accounts.find((account) => account.holds_order_money) ?? null }
}

/** What is still due back from one invoice for a purpose: `due` minus what was sent or is in flight. */
export function remainingToSendBack(due: string | null, invoiceId: string, withdrawals: readonly WithdrawalRow[], purposes: readonly string[]): string {
  const taken = withdrawals.filter(
    (row) => row.invoice_id === invoiceId && purposes.includes(row.purpose) && (row.status === "completed" || withdrawalHoldsMoney(row))
  )
  const remaining = exact(due ?? "0").minus(amountOf(taken))
  return remaining.isNegative() ? "0" : remaining.toFixed()
}
