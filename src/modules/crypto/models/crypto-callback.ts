import { model } from "@medusajs/framework/utils"

/**
 * One verified callback delivery from the gateway (spec §6.1 invoice, §6.2 pay_in deposit).
 *
 * Only callbacks whose `verify_hash` checked out are stored (spec §6.3), and `pay_in`s read back
 * from the gateway's own answer (`format` = `operation`). `content_hash` is a
 * SHA-256 of the verified fields in a canonical form, unique, so a redelivery of the same content
 * is recognised whatever its transport (JSON or form) and counted in `delivery_count`.
 */
export const CryptoCallback = model
  .define("crypto_callback", {
    id: model.id({ prefix: "ccb" }).primaryKey(),
    provider_id: model.text(),
    content_hash: model.text(),
    /**
     * How it came: a delivery's body (`form`, `json`), or `operation`: a `pay_in` whose callbacks
     * were lost, read back from the gateway's operations list (spec §4.3) by the reconciliation job,
     * with its fields in the callback's shape (spec §6.2).
     */
    format: model.enum(["form", "json", "operation"]),
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
    /** `pay_in` (spec §6.2): the deposit's `deposit_uid`, a column so a customer's deposits are a query. */
    deposit_uid: model.text().nullable(),
  })
  .indexes([
    { on: ["content_hash"], unique: true },
    { on: ["order_number"] },
    { on: ["txn_id"] },
    { on: ["deposit_uid"] },
  ])
