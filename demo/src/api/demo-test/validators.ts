import { z } from "@medusajs/framework/zod"

export const DemoTestCartsBody = z.object({
  count: z.number().int().min(1).max(500),
  region_id: z.string().min(1),
  sales_channel_id: z.string().min(1),
  variant_id: z.string().min(1),
  shipping_option_id: z.string().min(1),
  /** The payment session's provider; without it the carts get a payment collection and no session. */
  provider_id: z.string().min(1).optional(),
  /** What a storefront sends with the payment session (e.g. `{ psys_cid: "BTC" }`). */
  data: z.record(z.string(), z.unknown()).optional(),
  /** How many carts are made at once. */
  concurrency: z.number().int().min(1).max(32).default(4),
})
export type DemoTestCartsBodyType = z.infer<typeof DemoTestCartsBody>

export const DemoTestProcessPaymentBody = z.object({
  session_id: z.string().min(1),
  /** Decimal string in major units of the session's currency. */
  amount: z.string().regex(/^\d+(\.\d+)?$/, "amount must be a decimal string"),
})
export type DemoTestProcessPaymentBodyType = z.infer<typeof DemoTestProcessPaymentBody>
