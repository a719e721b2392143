/**
 * The admin API's answers as the UI reads them (amounts are decimal strings, never numbers): each
 * route's declared answer from src/api/admin/crypto/types.ts (`import type`, erased from the browser
 * bundle) as JSON (`Serialized`), under the names the admin components use.
 */
import type {
  AdminCryptoCommissionEstimateResponse,
  AdminCryptoCurrenciesResponse,
  AdminCryptoCustomerDepositsResponse,
  AdminCryptoDepositCallbacksResponse,
  AdminCryptoDepositsResponse,
  AdminCryptoExchangesResponse,
  AdminCryptoFeeEstimateResponse,
  AdminCryptoFeePlansResponse,
  AdminCryptoAddressesResponse,
  AdminCryptoMoneyOutAuditResponse,
  AdminCryptoMoneyOutPolicyResponse,
  AdminCryptoOperationsResponse,
  AdminCryptoOrderResponse,
  AdminCryptoRefundQuoteResponse,
  AdminCryptoSettingsResponse,
  AdminCryptoSettingsTestResponse,
  AdminCryptoWithdrawalResponse,
  Serialized,
} from "../../api/admin/crypto/types"

export type { AdminCryptoBalancesResponse as BalancesResponse, AdminCryptoSettingsField as SettingsField } from "../../api/admin/crypto/types"

export type CurrenciesResponse = Serialized<AdminCryptoCurrenciesResponse>
export type OperationsResponse = Serialized<AdminCryptoOperationsResponse>
export type Operation = OperationsResponse["operations"][number]
export type DepositsResponse = Serialized<AdminCryptoDepositsResponse>
export type Deposit = DepositsResponse["deposits"][number]
export type DepositCallbacksResponse = Serialized<AdminCryptoDepositCallbacksResponse>
export type CustomerDeposits = Serialized<AdminCryptoCustomerDepositsResponse>
export type FeePlansResponse = Serialized<AdminCryptoFeePlansResponse>
/** One fee plan of a coin as the gateway gives it (spec §2.6); amounts as decimal strings. */
export type FeePlanEntry = NonNullable<FeePlansResponse["plans"][string]>
export type FeeEstimateResponse = Serialized<AdminCryptoFeeEstimateResponse>
export type CommissionEstimateResponse = Serialized<AdminCryptoCommissionEstimateResponse>
export type RecordedExchange = Serialized<AdminCryptoExchangesResponse>["exchanges"][number]
export type WithdrawalDetail = Serialized<AdminCryptoWithdrawalResponse>
export type Withdrawal = WithdrawalDetail["withdrawal"]
export type Recipient = Withdrawal["recipients"][number]
export type RefundQuote = Serialized<AdminCryptoRefundQuoteResponse>["quote"]
export type OrderCryptoResponse = Serialized<AdminCryptoOrderResponse>
export type SettingsResponse = Serialized<AdminCryptoSettingsResponse>
export type SettingsTestResponse = Serialized<AdminCryptoSettingsTestResponse>
/** One order rule as the settings answer it (src/core/config/order-rules.ts): coins (empty = any), an amount limit, where the order is placed. */
export type OrderRule = SettingsResponse["settings"]["effective"]["order_rules"][number]
/** What each invoice outcome does to its order (docs/books.md#order-rules), as the server declares it. */
export type OrderOutcomeRules = SettingsResponse["settings"]["effective"]["order_outcomes"]
export type OrderOutcome = keyof OrderOutcomeRules
/** One save of the settings in the audit trail: who, when, each changed field `{ from, to }`. */
export type SettingsChange = SettingsResponse["settings"]["changes"][number]
/** The money-out policy as the Money out section reads it (docs/money-out.md#money-out-policy). */
export type MoneyOutPolicyView = Serialized<AdminCryptoMoneyOutPolicyResponse>["policy"]
export type MoneyOutPolicy = MoneyOutPolicyView["effective"]
/** A saved change of the policy: a field, `{ from, to }`, who, when it takes effect. */
export type MoneyOutPolicyChange = MoneyOutPolicyView["pending"][number]
/** An address-book entry, with when it is usable. */
export type AddressBookEntry = Serialized<AdminCryptoAddressesResponse>["addresses"][number]
/** One decision of the policy (History). */
export type MoneyOutAuditEntry = Serialized<AdminCryptoMoneyOutAuditResponse>["entries"][number]
