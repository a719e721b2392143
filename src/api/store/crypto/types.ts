/**
 * The store API's answers, as types only: each store route declares `res: MedusaResponse<T>` with its
 * T from here, the output its workflow's step declares. The storefront kit (src/storefront) keeps its
 * own declarations, as it is published alone; each is checked to be one of these
 * (__tests__/storefront-kit.unit.spec.ts).
 */
import type { StoreRefundClaimView } from "../../../core/money-out/refund-claim"

/** GET /store/crypto/currencies?cart_id= */
export type { CryptoCurrenciesForCart as StoreCryptoCurrenciesResponse } from "../../../workflows/steps/list-crypto-currencies"
/** GET /store/crypto/payment-status?cart_id=, and POST …/payment-sessions/refresh and …/top-up, which answer alike. */
export type { StoreCryptoPaymentStatus as StoreCryptoPaymentStatusResponse } from "../../../workflows/steps/read-crypto-payment-status"
/** GET and POST /store/crypto/refund-claims */
export type StoreCryptoRefundClaimResponse = { claim: StoreRefundClaimView }
