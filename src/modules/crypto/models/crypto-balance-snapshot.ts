import { model } from "@medusajs/framework/utils"

/**
 * The gateway balance of one coin as read on one UTC day (docs/books.md#balance-snapshots), written
 * by the daily `snapshot-crypto-balances` job just after midnight (so the close of the day before). Unique on (`provider_id`, `day`,
 * `psys_cid`): a second run of the same day, on this or another instance, finds its row and
 * writes nothing new, so the job is idempotent per day and safe on many instances.
 *
 * - `day` is the UTC calendar day, `YYYY-MM-DD`.
 * - `balance` is a decimal string in the coin `psys_cid`; `fiat_value` is the same amount in
 *   `fiat_currency` at the gateway's rate of that moment (null when the gateway gave no rate).
 */
export const CryptoBalanceSnapshot = model
  .define("crypto_balance_snapshot", {
    id: model.id({ prefix: "cbsn" }).primaryKey(),
    provider_id: model.text(),
    day: model.text(),
    psys_cid: model.text(),
    currency: model.text().nullable(),
    balance: model.text(),
    fiat_currency: model.text().nullable(),
    fiat_value: model.text().nullable(),
    taken_at: model.dateTime(),
  })
  .indexes([
    { on: ["provider_id", "day", "psys_cid"], unique: true },
    { on: ["day"] },
  ])
