import { model } from "@medusajs/framework/utils"

/**
 * The audit trail of the merchant's crypto settings (Settings → Crypto): one row per saved change,
 * who made it and when, with each changed field's value before and after
 * (`changes: { [field]: { from, to } }`). Written in the same workflow as the settings row; never
 * updated or deleted.
 */
export const CryptoSettingChange = model
  .define("crypto_setting_change", {
    id: model.id({ prefix: "csch" }).primaryKey(),
    provider_id: model.text(),
    changed_by: model.text().nullable(),
    changes: model.json(),
  })
  .indexes([{ on: ["provider_id"] }])
