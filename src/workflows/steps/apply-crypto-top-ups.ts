import { MedusaError } from "@medusajs/framework/utils"
import type { RaiseCryptoAttentionInput } from "../../modules/crypto/service"
import type CryptoModuleService from "../../modules/crypto/service"
import { invoiceAttentions } from "../../core/books/attention"
import { isCryptoInvoiceSessionState, type CryptoInvoiceSessionState } from "../../core/payment/payment-state"
import type { TopUpAssessment } from "../../core/payment/top-up"
import type { AppliedCryptoInvoice } from "./apply-crypto-invoice"
import type { CryptoInvoiceState } from "./assess-crypto-invoice"

/** The part of our module the top-ups' apply writes (and the root's open `underpaid` item it reads). */
export type TopUpRows = Pick<CryptoModuleService, "updateCryptoInvoices" | "listCryptoAttentions" | "updateCryptoAttentions">

/**
 * After the root of a group was applied with the group's verdict (docs/attention.md#paying-the-rest):
 * each top-up keeps its own reading (status, amounts, coin) and follows the root's session status
 * and order; the attention items each one's money needs are returned for raising. When the group
 * captured the session, the root's `underpaid` item is resolved `paid_rest`: the shopper paid the
 * rest, the order explains the money. Runs under the root's lock (the sync workflow), so running it
 * twice writes the same rows again and resolves nothing twice. The root and the top-ups' rows are
 * the ones the assess step read under that lock; none is read again.
 */
export async function applyCryptoTopUps(
  rows: TopUpRows,
  root: Pick<CryptoInvoiceState, "id" | "order_number">,
  topUps: readonly TopUpAssessment[],
  topUpRows: readonly CryptoInvoiceState[],
  applied: AppliedCryptoInvoice
): Promise<RaiseCryptoAttentionInput[]> {
  const items: RaiseCryptoAttentionInput[] = []
  const now = new Date()
  for (const topUp of topUps) {
    const row = topUpRows.find((candidate) => candidate.id === topUp.invoice_id)
    if (row === undefined) {
      // The assess step assessed the top-ups it listed: one without its row is a broken hand-over.
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `crypto top-up ${topUp.invoice_id} was assessed without its row`)
    }
    const current: CryptoInvoiceSessionState = isCryptoInvoiceSessionState(row.session_status) ? row.session_status : "pending"
    const seen = topUp.fields
    // A top-up whose session went (cart changed) or that a new invoice superseded holds money of no
    // order: it keeps its state and its money is raised as the root's would be.
    const sessionStatus = row.superseded_by !== null || current === "abandoned" ? current : applied.session_status
    await rows.updateCryptoInvoices({
      id: row.id,
      gateway_status: seen.gateway_status,
      active_txn_id: seen.active_txn_id,
      received_amount: seen.received_amount,
      expected_amount: seen.expected_amount ?? row.expected_amount,
      overpaid_amount: seen.overpaid_amount,
      underpaid_amount: seen.underpaid_amount,
      refund_due_amount: current === "canceled" ? row.refund_due_amount : seen.refund_due_amount,
      ...(seen.psys_cid !== null ? { psys_cid: seen.psys_cid } : {}),
      ...(seen.currency !== null ? { currency: seen.currency } : {}),
      session_status: sessionStatus,
      order_id: applied.order_id ?? row.order_id,
      last_synced_at: now,
    })
    items.push(
      ...invoiceAttentions(
        {
          id: row.id,
          provider_id: row.provider_id,
          cart_id: row.cart_id,
          order_id: row.order_id,
          order_number: row.order_number,
          session_status: current,
          refund_due_amount: row.refund_due_amount,
        },
        seen,
        { outcome: row.superseded_by !== null ? "superseded" : applied.outcome, session_status: sessionStatus, order_id: applied.order_id }
      )
    )
  }
  if (applied.session_status === "captured" && topUps.length > 0) {
    const [item] = await rows.listCryptoAttentions({ kind: "underpaid", subject_id: root.id, status: "open" }, { take: 1 })
    if (item !== undefined) {
      const paidWith = topUps.map((topUp) => topUp.fields.active_txn_id).join(", ")
      await rows.updateCryptoAttentions({
        id: item.id,
        status: "resolved",
        resolution: "paid_rest",
        resolution_note: `The shopper paid the rest with ${topUps.length === 1 ? "top-up invoice" : "top-up invoices"} ${paidWith}; order ${applied.order_id ?? "placed"} holds the money of invoice ${root.order_number}.`,
        resolved_by: null,
        resolved_at: now,
        order_id: applied.order_id ?? item.order_id,
      })
    }
  }
  return items
}
