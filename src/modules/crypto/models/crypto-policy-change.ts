import { model } from "@medusajs/framework/utils"

/**
 * The merchant's money-out policy as saved (docs/money-out.md#money-out-policy): one row per changed
 * field, `change: { from, to }`, who saved it and when it takes effect. A tightening takes effect
 * when saved; a loosening (`loosens`) after the cooling-off in force then. The policy in force is
 * read from these rows over the medusa-config defaults (src/core/config/money-out-policy.ts). A
 * later save of the same field cancels a change still waiting (`cancelled_at`, `cancelled_by`).
 * Never deleted: it is the policy's history too.
 */
export const CryptoPolicyChange = model
  .define("crypto_policy_change", {
    id: model.id({ prefix: "cpch" }).primaryKey(),
    provider_id: model.text(),
    field: model.text(),
    change: model.json(),
    loosens: model.boolean(),
    requested_by: model.text().nullable(),
    effective_at: model.dateTime(),
    cancelled_at: model.dateTime().nullable(),
    cancelled_by: model.text().nullable(),
  })
  .indexes([{ on: ["provider_id", "field"] }])
