import { z } from "@medusajs/framework/zod"

export const AdminCryptoAttentionQuery = z.object({
  limit: z.coerce.number({ error: "limit must be a whole number" }).int("limit must be a whole number").min(1, "limit must be at least 1").max(200, "limit must be at most 200").default(100),
  offset: z.coerce.number({ error: "offset must be a whole number" }).int("offset must be a whole number").min(0, "offset must be 0 or more").default(0),
})
export type AdminCryptoAttentionQueryType = z.infer<typeof AdminCryptoAttentionQuery>

export const AdminResolveCryptoAttention = z
  .object({
    resolution: z.enum(["kept", "other"], { error: 'resolution must be "kept" or "other" (a refund resolves an item by itself)' }),
    note: z.string({ error: "note is required: say why the money is kept or what was done" }).trim().min(3, "note is required: say why the money is kept or what was done").max(2000, "note is at most 2000 characters"),
  })
  .strict()
export type AdminResolveCryptoAttentionType = z.infer<typeof AdminResolveCryptoAttention>

export const AdminRefundCryptoAttention = z
  .object({
    address: z
      .string({ error: "address must be an address string" })
      .trim()
      .min(1, "address is required")
      .max(256, "address is too long")
      .regex(/^[^\s,;]+$/, "address must be one address, without spaces, commas or semicolons"),
    fee_plan: z.enum(["normal", "priority"], { error: 'fee_plan must be "normal" or "priority"' }).default("normal"),
    idempotency_key: z.string().trim().min(8, "idempotency_key must be 8 to 128 characters").max(128, "idempotency_key must be 8 to 128 characters").optional(),
  })
  .strict()
export type AdminRefundCryptoAttentionType = z.infer<typeof AdminRefundCryptoAttention>
