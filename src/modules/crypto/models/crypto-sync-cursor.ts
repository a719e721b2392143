import { model } from "@medusajs/framework/utils"

/**
 * How far a reconciliation read of a gateway list got, per provider entry and list: e.g. the
 * `pay_in` operations (spec §4.3), whose `position` is the `created_at_utc` (seconds, a decimal
 * integer string) of the newest one read. Kept in the database, not in process memory, so every
 * instance continues where any of them stopped; it only moves forward (`advanceCryptoSyncCursor`).
 */
export const CryptoSyncCursor = model
  .define("crypto_sync_cursor", {
    id: model.id({ prefix: "ccur" }).primaryKey(),
    provider_id: model.text(),
    /** Which list: `pay_in_operations`. */
    name: model.text(),
    position: model.text(),
  })
  .indexes([{ on: ["provider_id", "name"], unique: true }])
