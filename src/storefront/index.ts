/**
 * `medusa-payment-crypto/storefront`: React components and hooks (each file "use client"), and the
 * pure helpers they use. This entry has no directive itself, so a server component may import the
 * pure helpers from it. Framework-agnostic: no `next`, no `@medusajs/ui`.
 */
export { CryptoCoinPicker, type CryptoCoinPickerProps, type CryptoCoinPickerPart } from "./components/crypto-coin-picker.js"
export { CryptoPayButton, type CryptoPayButtonProps } from "./components/crypto-pay-button.js"
export {
  CryptoPaymentPanel,
  type CryptoPaymentPanelProps,
  type CryptoPaymentPanelPart,
  type CryptoSupportContact,
} from "./components/crypto-payment-panel.js"
export { CryptoPaymentResult, type CryptoPaymentResultProps, type CryptoPaymentResultPart } from "./components/crypto-payment-result.js"
export { CryptoPaymentSummary, type CryptoPaymentSummaryProps, type CryptoPaymentSummaryPart } from "./components/crypto-payment-summary.js"
export { CryptoQrCode, type CryptoQrCodeProps } from "./components/crypto-qr-code.js"

export {
  useCryptoPaymentStatus,
  DEFAULT_POLL_INTERVALS_MS,
  type CryptoPaymentCallback,
  type UseCryptoPaymentStatusOptions,
  type UseCryptoPaymentStatusResult,
} from "./hooks/use-crypto-payment-status.js"
export { useCountdown, formatRemaining, type Countdown } from "./hooks/use-countdown.js"
export { useCopyToClipboard, type UseCopyToClipboardResult } from "./hooks/use-copy-to-clipboard.js"
export { useCryptoCurrencies, type UseCryptoCurrenciesOptions, type UseCryptoCurrenciesResult } from "./hooks/use-crypto-currencies.js"

export { describeCoin, coinLabel, type CoinDescription } from "./lib/coins.js"
export { isCryptoProviderId, withCryptoPaymentInfo, DEFAULT_CRYPTO_PROVIDER_ID } from "./lib/providers.js"
export { buildPaymentUri, buildPaymentLink, paymentUriScheme, toSmallestUnits, type PaymentLink, type PaymentUriInput } from "./lib/payment-uri.js"
export {
  walletLinkFor,
  coinNetworkOf,
  networkNameOf,
  WALLET_NETWORKS,
  ETHEREUM_ERC20_TOKENS,
  type WalletLink,
  type WalletNetwork,
  type WalletNetworkId,
  type CoinNetwork,
  type EvmToken,
  type DecimalAmountLink,
  type Eip681NativeLink,
  type Eip681TokenLink,
} from "./lib/wallet-networks.js"
export {
  formatCryptoAmount,
  formatFiatAmount,
  formatFiatAmountWithCode,
  isDecimalString,
  toPlainDecimal,
  compareDecimal,
  type FormatCryptoAmountOptions,
} from "./lib/amount.js"
export { toCryptoPaymentState, isFinalCryptoStatus, FINAL_CRYPTO_STATUSES } from "./lib/status.js"
export { resolveCryptoReturn, type CryptoReturnDecision, type CryptoFailureReason } from "./lib/return.js"
export { readCryptoPaymentData, cryptoPaymentProgress, type CryptoPaymentSummaryData, type CryptoPaymentProgress } from "./lib/payment-data.js"
export {
  resolveCryptoLabels,
  formatLabel,
  cryptoStatusText,
  abandonedPaymentText,
  englishLabels,
  germanLabels,
  cryptoLabelsByLanguage,
  type CryptoLabels,
} from "./lib/labels.js"
export { cx, type ClassNames } from "./lib/class-names.js"
export type * from "./types.js"

export {
  CryptoRefundClaimForm,
  cryptoRefundClaimStatusText,
  type CryptoRefundClaimFormProps,
  type CryptoRefundClaimPart,
} from "./components/crypto-refund-claim.js"
export {
  validateCryptoAddress,
  addressNetworkOf,
  addressNetworkName,
  type AddressNetwork,
  type AddressRefusal,
  type CryptoAddressValidation,
} from "./lib/addresses.js"
export { CRYPTO_REFUND_CLAIM_STATUSES } from "./refund-claim-types.js"
