/**
 * `medusa-payment-crypto/storefront/server`: plain async helpers for server actions and route
 * handlers. No React, no `next`, nothing Node-only: `fetch` is the only thing they use, so they run
 * in Node, edge runtimes and browsers alike.
 */
export { getCryptoPaymentStatus, listCryptoCurrencies, openCryptoTopUp, refreshCryptoInvoice, type CartQuery, type RefreshInvoiceQuery } from "./server/payment.js"
export {
  initiateCryptoSession,
  isCryptoProviderId,
  DEFAULT_CRYPTO_PROVIDER_ID,
  type CryptoSessionCart,
  type CryptoSessionPaymentCollection,
  type CryptoSessionSdk,
  type CryptoSessionTransport,
  type InitiateCryptoSessionInput,
  type InitiateCryptoSessionResult,
} from "./server/session.js"
export {
  CryptoStoreError,
  CryptoStoreConfigError,
  CryptoStoreUnreachableError,
  DEFAULT_STORE_TIMEOUT_MS,
  STARTER_BACKEND_URL_VARIABLES,
  STARTER_PUBLISHABLE_KEY_VARIABLE,
  parsePaymentStatus,
  parseCurrencies,
  type StoreConnection,
  type StoreLogger,
  type StoreUnreachableReason,
} from "./server/store-client.js"
export { resolveCryptoReturn, type CryptoReturnDecision, type CryptoFailureReason } from "./lib/return.js"
export { toCryptoPaymentState, isFinalCryptoStatus, FINAL_CRYPTO_STATUSES } from "./lib/status.js"
export type * from "./types.js"
export { getCryptoRefundClaim, claimCryptoRefund, parseRefundClaim, CryptoRefundClaimRefusedError, type RefundClaimQuery, type ClaimRefundInput } from "./server/refund-claim.js"
