import { z } from "@medusajs/framework/zod"
import { moneyOutPolicyPatchSchema } from "../../../../core/config/money-out-policy"
import { address, coin as coinId, offset, pageNumber } from "../validators"

/** The money-out policy routes' input (docs/money-out.md#money-out-policy). */

const providerId = z.string().trim().min(1).optional()
const coin = coinId("psys_cid")

export const AdminCryptoMoneyOutPolicyQuery = z.object({ provider_id: providerId })
export type AdminCryptoMoneyOutPolicyQueryType = z.infer<typeof AdminCryptoMoneyOutPolicyQuery>

/** POST /admin/crypto/money-out/policy: the fields to change; the policy's one schema checks each. */
export const AdminUpdateCryptoMoneyOutPolicy = moneyOutPolicyPatchSchema.extend({ provider_id: providerId })
export type AdminUpdateCryptoMoneyOutPolicyType = z.infer<typeof AdminUpdateCryptoMoneyOutPolicy>

export const AdminCryptoAddressesQuery = z.object({
  provider_id: providerId,
  psys_cid: coin.optional(),
  /** Removed entries too (History names them). */
  include_removed: z
    .enum(["true", "false"], { error: 'include_removed must be "true" or "false"' })
    .transform((value) => value === "true")
    .optional(),
})
export type AdminCryptoAddressesQueryType = z.infer<typeof AdminCryptoAddressesQuery>

export const AdminCreateCryptoAddress = z
  .object({
    provider_id: providerId,
    psys_cid: coin,
    address: address("address"),
    label: z.string().trim().max(200, "label must be at most 200 characters").optional(),
  })
  .strict()
export type AdminCreateCryptoAddressType = z.infer<typeof AdminCreateCryptoAddress>

const note = z.string().trim().max(500, "note must be at most 500 characters")

/** POST /admin/crypto/withdrawals/:id/approve: an optional note. */
export const AdminApproveCryptoWithdrawal = z.object({ note: note.optional() }).strict()
export type AdminApproveCryptoWithdrawalType = z.infer<typeof AdminApproveCryptoWithdrawal>

/** POST /admin/crypto/withdrawals/:id/reject: why, required. */
export const AdminRejectCryptoWithdrawal = z
  .object({ note: z.string({ error: "note is required: say why the withdrawal is rejected" }).trim().min(1, "note is required: say why the withdrawal is rejected").max(500, "note must be at most 500 characters") })
  .strict()
export type AdminRejectCryptoWithdrawalType = z.infer<typeof AdminRejectCryptoWithdrawal>

/** GET /admin/crypto/money-out/audit: the policy's decisions, newest first; `subject_id` for one withdrawal, exchange, address or change. */
export const AdminCryptoMoneyOutAuditQuery = z.object({
  provider_id: providerId,
  subject_id: z.string().trim().min(1).optional(),
  limit: pageNumber("limit", 100).default(20),
  offset: offset.default(0),
})
export type AdminCryptoMoneyOutAuditQueryType = z.infer<typeof AdminCryptoMoneyOutAuditQuery>
