/**
 * The admin API's answers as the UI reads them (amounts are decimal strings, never numbers). The
 * answers the server declares come from its type-only module src/api/admin/crypto/types.ts
 * (`import type`, erased from the browser bundle); the rest are declared here.
 */
import type {
  AdminCryptoExchange as RecordedExchange,
  AdminCryptoInvoice as CryptoInvoice,
  AdminCryptoInvoiceAccount as CryptoInvoiceAccount,
  AdminCryptoOrderPayment as OrderCryptoPayment,
  AdminCryptoPayIn as PayIn,
  AdminCryptoDepositTotal,
  AdminCryptoSettings,
  AdminCryptoSettingsField,
  AdminCryptoWithdrawal as Withdrawal,
  AdminCryptoWithdrawalCandidate as WithdrawalCandidate,
} from "../../api/admin/crypto/types"

// The server's answers under the names the admin components use.
export type {
  AdminCryptoBalance as Balance,
  AdminCryptoBalancesResponse as BalancesResponse,
  AdminCryptoInvoice as CryptoInvoice,
  AdminCryptoInvoiceAccount as CryptoInvoiceAccount,
  AdminCryptoPayIn as DepositCallback,
  AdminCryptoEffectiveSettings as EffectiveSettings,
  AdminCryptoGatewayFailureEvidence as GatewayFailureEvidence,
  AdminCryptoGatewayFailureRead as GatewayFailureRead,
  AdminCryptoOrderPayment as OrderCryptoPayment,
  AdminCryptoPayIn as PayIn,
  AdminCryptoExchange as RecordedExchange,
  AdminCryptoRefundQuote as RefundQuote,
  AdminCryptoWithdrawal as Withdrawal,
  AdminCryptoWithdrawalCandidate as WithdrawalCandidate,
} from "../../api/admin/crypto/types"

export interface CurrencyEntry {
  cid: string
  name?: string | null
  currency?: string | null
  icon?: string | null
  fiat?: string | null
  fiat_rate?: string | null
  rate_usd?: string | null
  precision?: string | null
  hidden?: number | null
  maintenance?: boolean | null
}

export type Recipient = Withdrawal["recipients"][number]
export type WithdrawalStatus = Withdrawal["status"]

export interface Operation {
  id: string
  type: string
  status: string
  tx_url: string[]
  psys_cid?: string | null
  currency?: string | null
  amount?: string | null
  sum?: string | null
  fee?: string | null
  commission?: string | null
  pending_sum?: string | null
  wallet_hash?: string | null
  sendmany?: Record<string, string> | null
  confirmations?: number | null
  created_at_utc?: number | null
  finished_at_utc?: number | null
  source_currency?: string | null
  source_rate?: string | null
  params?: Record<string, unknown> | null
  tx?: Array<{ url?: string | null; txid?: string | null; value?: string | null }> | null
  [field: string]: unknown
}

export interface OperationsResponse {
  operations: Operation[]
  meta: { totalCount: number; pageCount: number; currentPage: number; perPage: number }
  has_next: boolean
}

export interface Deposit {
  uid: string
  hash: string
  psys_cid: string
}

export interface SettingsResponse {
  settings: AdminCryptoSettings
}

/** One order rule as the settings answer it (src/core/config/order-rules.ts): coins (empty = any), an amount limit, where the order is placed. */
export type OrderRule = AdminCryptoSettings["effective"]["order_rules"][number]

/** A field a merchant saves on the settings page. */
export type SettingsField = AdminCryptoSettingsField

/** One save of the settings in the audit trail: who, when, each changed field `{ from, to }`. */
export type SettingsChange = AdminCryptoSettings["changes"][number]

export interface OrderCryptoResponse {
  order_id: string
  currency_code: string
  is_crypto: boolean
  payments: OrderCryptoPayment[]
  invoices: CryptoInvoice[]
  current_invoice_id: string | null
  accounts: CryptoInvoiceAccount[]
  attention: Array<{ id: string; kind: string; status: string; amount: string | null; psys_cid: string | null; currency: string | null }>
  operation: Operation | null
  operation_error: string | null
  history: Array<{ id: string; status: string | null; amount: string | null; currency: string | null; confirmations: string | null; received_at: string; tx_urls: string[]; order_number: string | null }>
  withdrawals: Withdrawal[]
}

export type WithdrawalPurpose = Withdrawal["purpose"]

export interface WithdrawalDetail {
  withdrawal: Withdrawal
  candidates: WithdrawalCandidate[]
}

export type ExchangeStatus = RecordedExchange["status"]

/** One fee plan of a coin as the gateway gives it (spec §2.6); amounts as decimal strings. */
export interface FeePlanEntry {
  conf_target?: number | null
  value?: string | null
  gasLimit?: string | null
  gasPrice?: string | null
}

export interface CustomerDeposits {
  customer_id: string
  addresses: Array<{ hash: string; psys_cid: string; uid?: string; currency?: string | null }>
  addresses_error: string | null
  pay_ins: PayIn[]
  pay_in_count: number
  totals: AdminCryptoDepositTotal[]
}
