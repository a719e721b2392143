import { model } from "@medusajs/framework/utils"

/** What needs the merchant's decision (docs/attention.md). */
export const CRYPTO_ATTENTION_KINDS = [
  "late_payment",
  "underpaid",
  "overpaid",
  "duplicate_invoice_payment",
  "abandoned_invoice_payment",
  "invoice_error",
  "unmatched_pay_in",
  "callback_failed",
  "protected_order",
  "order_waiting",
  "settlement_failed",
  "exchange_failed",
] as const
export type CryptoAttentionKind = (typeof CRYPTO_ATTENTION_KINDS)[number]

/**
 * One item of the "Needs attention" queue: money the gateway holds that no order explains, or a
 * state no code path may settle on its own (docs/attention.md).
 *
 * - Unique on (`kind`, `subject_id`): the processing step that detects a condition raises it as
 *   often as it sees it, and it stays one row (`raiseCryptoAttention`).
 * - `amount` is a decimal string in the coin `psys_cid` / `currency`: the coin of the invoice (or
 *   pay_in) that holds the money, never the coin the invoice was created in.
 * - Nothing leaves the queue without a recorded decision: `resolution` (`paid_rest` when the shopper
 *   paid the rest with a top-up invoice, docs/attention.md#paying-the-rest; `refunded` once the crypto
 *   refund `withdrawal_id` completed; `kept` / `other` with a note), `resolved_by` (the admin
 *   user), `resolved_at`.
 */
export const CryptoAttention = model
  .define("crypto_attention", {
    id: model.id({ prefix: "catt" }).primaryKey(),
    kind: model.enum([...CRYPTO_ATTENTION_KINDS]),
    provider_id: model.text(),
    /** The crypto_invoice id (invoice kinds) or crypto_callback id (pay_in, callback_failed). */
    subject_id: model.text(),
    order_id: model.text().nullable(),
    cart_id: model.text().nullable(),
    psys_cid: model.text().nullable(),
    currency: model.text().nullable(),
    amount: model.text().nullable(),
    /** What was seen: gateway status, txn ids, amounts as decimal strings, the callback fields' summary. */
    evidence: model.json(),
    status: model.enum(["open", "resolved"]).default("open"),
    resolution: model.enum(["refunded", "kept", "other", "paid_rest"]).nullable(),
    resolution_note: model.text().nullable(),
    resolved_by: model.text().nullable(),
    resolved_at: model.dateTime().nullable(),
    /** The crypto refund sent for this item (a crypto_withdrawal id). */
    withdrawal_id: model.text().nullable(),
  })
  .indexes([
    { on: ["kind", "subject_id"], unique: true },
    { on: ["status"] },
    { on: ["order_id"] },
  ])
