import { model } from "@medusajs/framework/utils"

/**
 * One verified callback delivery from the gateway (spec §6.1 invoice, §6.2 pay_in deposit).
 *
 * Only callbacks whose `verify_hash` checked out are stored (spec §6.3). `content_hash` is a
 * SHA-256 of the verified fields in a canonical form, unique, so a redelivery of the same content
 * is recognised whatever its transport (JSON or form) and counted in `delivery_count`.
 */
export const CryptoCallback = model
  .define("crypto_callback", {
    id: model.id({ prefix: "ccb" }).primaryKey(),
    provider_id: model.text(),
    content_hash: model.text(),
    format: model.enum(["form", "json"]),
    ipn_type: model.text().nullable(),
    txn_id: model.text().nullable(),
    order_number: model.text().nullable(),
    switch_id: model.text().nullable(),
    status: model.text().nullable(),
    /** The verified fields as received (all strings except `tx_urls`), `verify_hash` included. */
    fields: model.json(),
    delivery_count: model.number().default(1),
    processed_at: model.dateTime().nullable(),
    /** What processing did: `applied`, `unchanged`, `recorded`, `unmatched`, `failed`. */
    outcome: model.text().nullable(),
    last_error: model.text().nullable(),
    /** How many times processing this delivery failed (raised as `callback_failed` after a few). */
    failure_count: model.number().default(0),
  })
  .indexes([
    { on: ["content_hash"], unique: true },
    { on: ["order_number"] },
    { on: ["txn_id"] },
  ])
