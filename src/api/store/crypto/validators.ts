import { z } from "@medusajs/framework/zod"

const cartId = z
  .string({ error: "cart_id is required: pass the id of the shopper's cart, e.g. ?cart_id=cart_01..." })
  .trim()
  .min(1, "cart_id is required: pass the id of the shopper's cart, e.g. ?cart_id=cart_01...")

/** GET /store/crypto/currencies?cart_id= */
export const StoreGetCryptoCurrencies = z.object({ cart_id: cartId })
export type StoreGetCryptoCurrenciesType = z.infer<typeof StoreGetCryptoCurrencies>

/** GET /store/crypto/payment-status?cart_id= */
export const StoreGetCryptoPaymentStatus = z.object({ cart_id: cartId })
export type StoreGetCryptoPaymentStatusType = z.infer<typeof StoreGetCryptoPaymentStatus>

/** POST /store/crypto/payment-sessions/refresh: a new invoice for the cart, optionally in another coin. */
export const StorePostCryptoPaymentSessionRefresh = z
  .object({
    cart_id: cartId,
    psys_cid: z
      .string({ error: 'psys_cid must be a coin ID such as "BTC" (see GET /store/crypto/currencies)' })
      .regex(/^[A-Za-z0-9_.-]{1,32}$/, 'psys_cid must be a coin ID such as "BTC" (see GET /store/crypto/currencies)')
      .optional(),
  })
  .strict()
export type StorePostCryptoPaymentSessionRefreshType = z.infer<typeof StorePostCryptoPaymentSessionRefresh>

/** POST /store/crypto/payment-sessions/top-up: pay the rest of an invoice that ended short. */
export const StorePostCryptoTopUp = z.object({ cart_id: cartId }).strict()
export type StorePostCryptoTopUpType = z.infer<typeof StorePostCryptoTopUp>
