import { model } from "@medusajs/framework/utils"

/**
 * The gateway's currency list per fiat (spec §4.8), kept briefly so the storefront's coin picker
 * does not call the gateway on every page view. Stored in the database, not in process memory, so
 * every server instance shares it.
 */
export const CryptoRateCache = model
  .define("crypto_rate_cache", {
    id: model.id({ prefix: "crate" }).primaryKey(),
    fiat: model.text(),
    /** The currency entries as decimal strings (see src/workflows/steps/list-crypto-currencies). */
    entries: model.json(),
    fetched_at: model.dateTime(),
  })
  .indexes([{ on: ["fiat"], unique: true }])
