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

const claimToken = z
  .string({ error: "token is required: the token of the refund link" })
  .trim()
  .regex(/^[A-Za-z0-9_-]{43}$/, "token must be the token of the refund link (43 letters, digits, - and _)")

/** GET /store/crypto/refund-claims?token= */
export const StoreGetCryptoRefundClaim = z.object({ token: claimToken })
export type StoreGetCryptoRefundClaimType = z.infer<typeof StoreGetCryptoRefundClaim>

/** POST /store/crypto/refund-claims: the shopper's address for a refund link. */
export const StorePostCryptoRefundClaim = z
  .object({
    token: claimToken,
    address: z
      .string({ error: "address is required: your address for this coin and network" })
      .trim()
      .min(1, "address is required: your address for this coin and network")
      .max(256, "address is too long")
      .regex(/^[^\s,;]+$/, "address must be one address, without spaces, commas or semicolons"),
  })
  .strict()
export type StorePostCryptoRefundClaimType = z.infer<typeof StorePostCryptoRefundClaim>
