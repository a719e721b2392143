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
    /**
     * Both legs' value when the gateway answered (docs/books.md#fiat-values): the store currency
     * (`fiat_currency`), the fiat per coin of `from_currency` and of `to_currency` at that moment
     * (decimal strings), and where they came from (`rate_cache`: the gateway's currency list,
     * spec §4.8). Null when no rate could be read.
     */
    fiat_currency: model.text().nullable(),
    from_rate: model.text().nullable(),
    to_rate: model.text().nullable(),
    rate_source: model.text().nullable(),
  })
  .indexes([
    { on: ["idempotency_key"], unique: true },
    { on: ["status"] },
    { on: ["exchange_id"] },
  ])
