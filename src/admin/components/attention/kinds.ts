import type { AdminCryptoAttentionItem, AdminCryptoAttentionKind } from "../../../api/admin/crypto/types"

/** How an item names its order in a sentence: "order #12", else what is known of it. */
export function orderName(item: AdminCryptoAttentionItem): string {
  const displayId = item.facts.order?.display_id
  if (displayId !== null && displayId !== undefined) return `order #${displayId}`
  return item.order_id !== null ? "its order" : "a cart with no order"
}

interface KindText {
  /** The item's heading. */
  title: string
  /** What happened, in one sentence, for this item. */
  sentence: (item: AdminCryptoAttentionItem) => string
}

const evidenceText = (item: AdminCryptoAttentionItem, key: string): string | null => {
  const value = item.evidence[key]
  return typeof value === "string" ? value : null
}

const money = "Resolve it in the withdrawals list before sending again: the money may have left."

/**
 * What each kind means for the merchant (docs/attention.md): every kind the server can answer has
 * its text, or the admin does not compile (a kind added on the server fails the build here).
 */
export const KIND_LABELS: Record<AdminCryptoAttentionKind, KindText> = {
  late_payment: {
    title: "Late payment",
    sentence: (item) =>
      item.order_id !== null
        ? `Money arrived for ${orderName(item)} after its payment had ended and the order was canceled.`
        : "Money arrived after a cart's payment had ended: no order was placed, so no order holds this money.",
  },
  underpaid: {
    title: "Underpayment",
    sentence: (item) =>
      item.evidence.within_tolerance === true
        ? `The shopper of ${orderName(item)} sent a little less than asked, within your tolerance: the order was kept.`
        : item.facts.rest_due_until !== null
          ? `The shopper of ${orderName(item)} sent less than asked and may still pay the rest until ${new Date(item.facts.rest_due_until).toLocaleString()}: the order waits for it. If the rest does not come, the money received is due back.`
          : `The shopper of ${orderName(item)} sent less than asked: the order was not paid, the money received is due back.`,
  },
  overpaid: {
    title: "Overpayment",
    sentence: (item) => `The shopper of ${orderName(item)} sent more than asked.`,
  },
  duplicate_invoice_payment: {
    title: "Paid twice",
    sentence: (item) => `The shopper of ${orderName(item)} also paid the invoice of another coin, which the order does not use.`,
  },
  abandoned_invoice_payment: {
    title: "Paid an abandoned invoice",
    sentence: () => "Money arrived on an invoice the cart replaced when its contents changed: no order uses it.",
  },
  invoice_error: {
    title: "Invoice in error",
    sentence: (item) => `The gateway reported an error on the invoice of ${orderName(item)}. It is still checked for 72 hours: a later payment completes the order.`,
  },
  unmatched_pay_in: {
    title: "Unmatched deposit",
    sentence: () => "A deposit arrived at an address whose customer this store does not know.",
  },
  callback_failed: {
    title: "Gateway message not processed",
    sentence: () => "A verified message from the gateway failed processing several times.",
  },
  protected_order: {
    title: "Payment on an order changed by hand",
    sentence: (item) =>
      `A payment arrived for ${orderName(item)}, which a person ${evidenceText(item, "reason") === "edited" ? "edited" : "canceled"} by hand; the order was left as it is.`,
  },
  order_waiting: {
    title: "Order waiting for your decision",
    sentence: (item) =>
      `The invoice of ${orderName(item)} ended ${evidenceText(item, "outcome")?.replace("_", " ") ?? "unresolved"}; your order rules keep the order waiting: capture, cancel or keep it in the order, then mark this resolved.`,
  },
  settlement_failed: {
    title: "Settlement not made",
    sentence: (item) => {
      const coin = item.psys_cid ?? "the coin"
      const received = evidenceText(item, "received")
      const what = evidenceText(item, "part") === "sweep" ? `sweep the ${coin} balance above its threshold` : `convert ${received === null ? "a payment" : `${received} ${coin}`}`
      return `Your settlement rules asked to ${what} after money arrived, and it could not be done: ${evidenceText(item, "reason") ?? "no reason given"}. The coins stay at the gateway; convert or withdraw them yourself, or fix the rule, then mark this resolved.`
    },
  },
  exchange_failed: {
    title: "Exchange did not end as quoted",
    sentence: (item) =>
      `An exchange of ${evidenceText(item, "from_amount") ?? ""} ${item.psys_cid ?? ""} into ${evidenceText(item, "to_currency") ?? "another coin"}${item.evidence.settlement === true ? " (settlement)" : ""}: ${evidenceText(item, "reason") ?? "it failed"}. Check it at the gateway, then mark this resolved.`,
  },
  withdrawal_unknown: {
    title: "Withdrawal: outcome unknown",
    sentence: () => `The gateway did not confirm a withdrawal. ${money}`,
  },
  refund_unknown: {
    title: "Refund: outcome unknown",
    sentence: (item) => `The gateway did not confirm a refund${item.order_id !== null ? ` for ${orderName(item)}` : ""}. ${money}`,
  },
  withdrawal_failed: {
    title: "Withdrawal: failed at the gateway",
    sentence: () => "The gateway answered that a withdrawal failed. It is not sent again until you decide: open it in the withdrawals list, check the operation, then allow sending again.",
  },
  refund_failed: {
    title: "Refund: failed at the gateway",
    sentence: (item) =>
      `The gateway answered that a refund${item.order_id !== null ? ` for ${orderName(item)}` : ""} failed. It is not sent again until you decide: open it in the withdrawals list, check the operation, then allow sending again.`,
  },
  exchange_unknown: {
    title: "Exchange: outcome unknown",
    sentence: () => "The gateway did not confirm an exchange. Resolve it in the exchanges list.",
  },
}
