import { model } from "@medusajs/framework/utils"

/**
 * A crypto refund the shopper claims with their own address (docs/money-out.md#refunds-the-shopper-claims):
 * the merchant starts it in the admin without an address; the shopper's link carries a random token
 * of which only the SHA-256 is stored (`token_hash`), so the table cannot be used to claim.
 *
 * - `status`: `waiting` for the shopper's address; `claimed` once an address was taken (single use:
 *   one atomic update from `waiting`, `claimCryptoRefundClaim`); `revoked` by the merchant. A
 *   `waiting` claim past `expires_at` is expired (derived, src/core/money-out/refund-claim.ts).
 * - `params`: the refund the merchant asked for (kind, amount, rate, fee plan, note), sent as it is
 *   with the shopper's address through the same once-only refund workflow as a typed-address refund;
 *   `withdrawal_id` then names its withdrawal, whose status tells sent / unknown / failed.
 * - `amount` / `psys_cid`: what the shopper is shown, in the coin, as prepared when the claim was made.
 */
export const CryptoRefundClaim = model
  .define("crypto_refund_claim", {
    id: model.id({ prefix: "crcl" }).primaryKey(),
    provider_id: model.text(),
    order_id: model.text(),
    kind: model.enum(["refund", "overpayment", "underpayment"]),
    params: model.json(),
    psys_cid: model.text(),
    currency: model.text().nullable(),
    amount: model.text(),
    token_hash: model.text(),
    expires_at: model.dateTime(),
    status: model.enum(["waiting", "claimed", "revoked"]).default("waiting"),
    address: model.text().nullable(),
    claimed_at: model.dateTime().nullable(),
    withdrawal_id: model.text().nullable(),
    /** The last refusal of a claimed address, in words (the shopper may give another while waiting). */
    error: model.text().nullable(),
    created_by: model.text().nullable(),
    revoked_by: model.text().nullable(),
    revoked_at: model.dateTime().nullable(),
  })
  .indexes([{ on: ["token_hash"], unique: true }, { on: ["order_id"] }])
