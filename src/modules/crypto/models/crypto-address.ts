import { model } from "@medusajs/framework/utils"

/**
 * The merchant's address book (docs/money-out.md#money-out-policy): an address a withdrawal, a mass
 * payout line or an exchange payout may go to, for one coin (`psys_cid`) of one provider entry. The
 * withdrawal parameters of the gateway carry no tag or memo (spec §4.2), so an entry has none.
 *
 * `usable_from` is `added_at` plus the cooling-off in force when it was saved. A removed entry keeps
 * its row (`removed_at`, `removed_by`): the audit names the entry a payment went to. At most one
 * entry per provider, coin and address is not removed (the partial unique index).
 */
export const CryptoAddress = model
  .define("crypto_address", {
    id: model.id({ prefix: "cadr" }).primaryKey(),
    provider_id: model.text(),
    psys_cid: model.text(),
    address: model.text(),
    label: model.text().nullable(),
    /** The admin user who saved it. */
    added_by: model.text().nullable(),
    added_at: model.dateTime(),
    usable_from: model.dateTime(),
    removed_at: model.dateTime().nullable(),
    removed_by: model.text().nullable(),
  })
  .indexes([
    { on: ["provider_id", "psys_cid", "address"], unique: true, where: { removed_at: null } },
    { on: ["provider_id", "psys_cid"] },
  ])
