/**
 * The store API's answers, as types only: each store route declares `res: MedusaResponse<T>` with its
 * T from here. Their shapes are the storefront kit's (src/storefront/types.ts), declared there once as
 * the kit is built and published alone; the payment status adds each invoice's `account` for the
 * merchant's tools. __tests__/storefront-kit.unit.spec.ts checks that each answer is exactly the kit's.
 */
import type { CryptoRefundClaim } from "../../../storefront/types"

/** GET /store/crypto/currencies?cart_id= */
export type { CryptoCurrenciesResponse as StoreCryptoCurrenciesResponse } from "../../../storefront/types"
/** GET /store/crypto/payment-status?cart_id=, and POST …/payment-sessions/refresh and …/top-up, which answer alike. */
export type { StoreCryptoPaymentStatus as StoreCryptoPaymentStatusResponse } from "../../../workflows/steps/read-crypto-payment-status"
/** GET and POST /store/crypto/refund-claims */
export type StoreCryptoRefundClaimResponse = { claim: CryptoRefundClaim }
