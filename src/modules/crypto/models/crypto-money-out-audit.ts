import { model } from "@medusajs/framework/utils"

/** What a money-out audit row records (docs/money-out.md#money-out-policy). */
export const MONEY_OUT_AUDIT_ACTIONS = [
  "address_added",
  "address_removed",
  "policy_changed",
  "policy_change_scheduled",
  "withdrawal_allowed",
  "withdrawal_refused",
  "withdrawal_awaiting_approval",
  "withdrawal_approved",
  "withdrawal_rejected",
  "exchange_allowed",
  "exchange_refused",
  "refund_refused",
] as const

/**
 * Every decision of the money-out policy (docs/money-out.md#money-out-policy): who (`actor`, the
 * admin user), when (`created_at`), what (`action`, the `subject_id` it concerns: a withdrawal, an
 * exchange, an address, a policy change), under which rule (`rule`, for a refusal) and through which
 * address-book entries (`address_ids`). `details` holds the facts shown in History (coin, amounts,
 * addresses, the refusal's words). Written once, never updated or deleted.
 */
export const CryptoMoneyOutAudit = model
  .define("crypto_money_out_audit", {
    id: model.id({ prefix: "cmoa" }).primaryKey(),
    provider_id: model.text(),
    action: model.enum([...MONEY_OUT_AUDIT_ACTIONS]),
    actor: model.text().nullable(),
    subject_id: model.text().nullable(),
    rule: model.text().nullable(),
    address_ids: model.array().nullable(),
    details: model.json().nullable(),
  })
  .indexes([{ on: ["provider_id", "created_at"] }, { on: ["subject_id"] }])
