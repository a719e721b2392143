import { model } from "@medusajs/framework/utils"

/**
 * The merchant's crypto settings, edited in Admin → Settings → Crypto. One row per provider entry
 * (`provider_id`, e.g. `pp_crypto_crypto`). A null column means "use the medusa-config option".
 *
 * Stored in the database so every server instance sees a change on its next checkout without a
 * restart. The secret key is never stored here: it stays in the server's configuration.
 */
export const CryptoSetting = model
  .define("crypto_setting", {
    id: model.id({ prefix: "cset" }).primaryKey(),
    provider_id: model.text(),
    /** Coin IDs (psys_cid) the shopper may pay with; an empty array means every coin of the shop. */
    accepted_coins: model.array().nullable(),
    default_coin: model.text().nullable(),
    invoice_lifetime_minutes: model.number().nullable(),
    order_on_detection: model.boolean().nullable(),
    /** A percentage as a decimal string ("0.5"). */
    underpaid_tolerance_percent: model.text().nullable(),
    /**
     * The merchant's order rules (docs/books.md#order-rules): which detected payments place the order
     * before confirmation, per coin and amount. Validated by src/core/config/order-rules.ts; null = none.
     */
    order_rules: model.json().nullable(),
    /**
     * What an expired unpaid, underpaid, overpaid or `error` invoice does to its order
     * (docs/books.md#order-rules), e.g. { "underpaid": "wait" }. Validated by
     * src/core/config/order-rules.ts; null = today's behaviour.
     */
    order_outcomes: model.json().nullable(),
    /** Protect order status: a callback never changes an order a person canceled or edited by hand. */
    protect_order_status: model.boolean().nullable(),
    updated_by: model.text().nullable(),
  })
  .indexes([{ on: ["provider_id"], unique: true }])
