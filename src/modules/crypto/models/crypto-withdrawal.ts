import { model } from "@medusajs/framework/utils"

/**
 * One withdrawal the merchant asked for from the admin (spec §4.2: `cash_out` / `mass_cash_out`),
 * recorded BEFORE the gateway is called.
 *
 * - `idempotency_key` (unique) comes from the admin form: a double click, a retried request or a
 *   second tab with the same form finds this row and never sends again.
 * - `active_fingerprint` (unique while set) holds a hash of coin + recipients + amounts while the
 *   withdrawal is unresolved (`requested`, `sending`, `outcome_unknown`), so an identical withdrawal
 *   with another key cannot start until this one is settled, on any server instance.
 * - `outcome_unknown`: the request may have reached the gateway (timeout, a malformed answer, a 5xx:
 *   spec §4.2 is not safe to repeat). It is settled by the one operation that provably is it
 *   (spec §4.3), or by the merchant (`resolution`, `resolved_by`, `resolution_note`), never by
 *   sending again and never by the absence of an operation from a search
 *   (docs/money-out.md#operations-matching). Only `not_sent` (the merchant checked the
 *   gateway) frees `active_fingerprint`.
 * - `error`: the gateway answered with status `error` (spec §2.3) and holds an operation for it.
 *   `active_fingerprint` is KEPT: the operation is read back (spec §4.4) and what the read showed
 *   is stored in `gateway_evidence`; only the merchant's `failed` resolution (with a note, who and
 *   when) frees it, so the same payment can be sent again (docs/money-out.md#failed-at-the-gateway).
 *
 * Crypto refunds are withdrawals too (`purpose`): `refund` for a Medusa refund of an order paid in
 * crypto, `overpayment` / `underpayment` for money the callback route recorded on an invoice.
 * Amounts are decimal strings in the coin; `source_*` in the order's fiat for refunds.
 */
export const CryptoWithdrawal = model
  .define("crypto_withdrawal", {
    id: model.id({ prefix: "cwdr" }).primaryKey(),
    idempotency_key: model.text(),
    active_fingerprint: model.text().nullable(),
    fingerprint: model.text(),
    provider_id: model.text(),
    /** `cash_out` (one recipient) or `mass_cash_out` (several). */
    type: model.enum(["cash_out", "mass_cash_out"]),
    psys_cid: model.text(),
    fee_plan: model.enum(["normal", "priority"]).default("normal"),
    /** `[{ address, amount }]`, amounts as decimal strings, in the order sent. */
    recipients: model.json(),
    total_amount: model.text(),
    /**
     * requested → sending → completed | error | rejected | outcome_unknown → completed | error |
     * not_sent (the merchant's explicit resolution). `not_found` is kept for rows an earlier version
     * settled by a search; it is never set any more. `awaiting_approval` (above the money-out
     * policy's approval threshold, docs/money-out.md#money-out-policy) → requested (another admin
     * approved: `approved_by`, `approved_at`) | rejected (resolution `rejected`, with the note).
     */
    status: model
      .enum(["awaiting_approval", "requested", "sending", "completed", "error", "rejected", "outcome_unknown", "not_found", "not_sent"])
      .default("requested"),
    operation_id: model.text().nullable(),
    gateway_status: model.text().nullable(),
    tx_urls: model.array().nullable(),
    fee: model.text().nullable(),
    error_code: model.text().nullable(),
    error_message: model.text().nullable(),
    error_field: model.text().nullable(),
    /**
     * A gateway `error` answer and what reading its operation back showed (`GatewayFailureEvidence`
     * in src/core/money-out/withdrawal.ts): operation id, the answered status and when, each read (status,
     * amount, fee, tx links, or the read's own failure) with its time.
     */
    gateway_evidence: model.json().nullable(),
    /** The admin user who asked, and when (`created_at` is when it was recorded). */
    requested_by: model.text().nullable(),
    requested_at: model.dateTime(),
    sent_at: model.dateTime().nullable(),
    resolved_at: model.dateTime().nullable(),
    /**
     * The merchant's decision: an unknown outcome is this `operation`, or `not_sent`; a withdrawal
     * that failed at the gateway (`error`) is `failed` (allow sending the same payment again); a
     * withdrawal awaiting approval that an admin refused is `rejected` (`resolution_note`: why).
     */
    resolution: model.enum(["operation", "not_sent", "failed", "rejected"]).nullable(),
    /** The admin user who approved it (another than `requested_by`) and when. */
    approved_by: model.text().nullable(),
    approved_at: model.dateTime().nullable(),
    /** What the money-out policy counted it as: its value in the store currency when asked (a decimal string), or null when unknown. */
    value_amount: model.text().nullable(),
    value_currency: model.text().nullable(),
    /** The admin user who resolved it (`resolved_at` is when) and why. */
    resolved_by: model.text().nullable(),
    resolution_note: model.text().nullable(),
    purpose: model.enum(["withdrawal", "refund", "overpayment", "underpayment", "late_payment", "unexplained"]).default("withdrawal"),
    order_id: model.text().nullable(),
    payment_id: model.text().nullable(),
    invoice_id: model.text().nullable(),
    refund_id: model.text().nullable(),
    source_currency: model.text().nullable(),
    source_amount: model.text().nullable(),
    source_rate: model.text().nullable(),
    note: model.text().nullable(),
  })
  .indexes([
    { on: ["idempotency_key"], unique: true },
    { on: ["active_fingerprint"], unique: true },
    { on: ["status"] },
    { on: ["order_id"] },
    { on: ["operation_id"] },
  ])
