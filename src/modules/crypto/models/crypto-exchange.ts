import { model } from "@medusajs/framework/utils"

/**
 * One exchange between two coins the merchant asked for from the admin (spec §4.11), recorded
 * BEFORE the gateway is called, like a withdrawal (see crypto-withdrawal.ts).
 *
 * - `idempotency_key` (unique) comes from the admin form: a double click or a retried request finds
 *   this row and never creates a second exchange.
 * - `outcome_unknown`: the request may have reached the gateway (timeout, reset, a malformed answer,
 *   a 5xx). The gateway has no list of exchanges to search (spec §4.11), so the merchant settles it:
 *   `resolution` `exchange` (with the gateway's exchange id, read back to check it) or `not_sent`
 *   (with a note), recorded with who and when.
 * Amounts are decimal strings in their coins (`from_currency`, `to_currency`).
 */
export const CryptoExchange = model
  .define("crypto_exchange", {
    id: model.id({ prefix: "cexc" }).primaryKey(),
    idempotency_key: model.text(),
    provider_id: model.text(),
    from_currency: model.text(),
    to_currency: model.text(),
    from_amount: model.text().nullable(),
    to_amount: model.text().nullable(),
    amount_currency: model.text().nullable(),
    to_address: model.text(),
    /** requested → sending → created | completed | error | rejected | outcome_unknown → created | completed | error | not_sent */
    status: model
      .enum(["requested", "sending", "created", "completed", "error", "rejected", "outcome_unknown", "not_sent"])
      .default("requested"),
    /** The gateway's exchange id and status (spec §4.11). */
    exchange_id: model.text().nullable(),
    gateway_status: model.text().nullable(),
    /** The gateway's answer as sent, amounts as decimal strings. */
    result: model.json().nullable(),
    error_code: model.text().nullable(),
    error_message: model.text().nullable(),
    requested_by: model.text().nullable(),
    requested_at: model.dateTime(),
    sent_at: model.dateTime().nullable(),
    resolved_at: model.dateTime().nullable(),
    resolution: model.enum(["exchange", "not_sent"]).nullable(),
    resolved_by: model.text().nullable(),
    resolution_note: model.text().nullable(),
  })
  .indexes([
    { on: ["idempotency_key"], unique: true },
    { on: ["status"] },
    { on: ["exchange_id"] },
  ])
