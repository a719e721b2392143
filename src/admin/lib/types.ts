/**
 * The admin API's answers as the UI reads them (amounts are decimal strings, never numbers). The
 * answers the server declares come from its type-only module src/api/admin/crypto/types.ts
 * (`import type`, erased from the browser bundle; issue 16, item 7); the rest are declared here.
 */
import type {
  AdminCryptoBalance,
  AdminCryptoBalancesResponse,
  AdminCryptoDepositTotal,
  AdminCryptoEffectiveSettings,
  AdminCryptoGatewayFailureEvidence,
  AdminCryptoGatewayFailureRead,
  AdminCryptoInvoiceAccount,
  AdminCryptoOrderPayment,
  AdminCryptoPayIn,
  AdminCryptoSettings,
  AdminCryptoRefundQuote,
  AdminCryptoWithdrawalCandidate,
} from "../../api/admin/crypto/types"

export type Balance = AdminCryptoBalance
export type BalancesResponse = AdminCryptoBalancesResponse

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

export interface Recipient {
  address: string
  amount: string
}

export type WithdrawalStatus = "requested" | "sending" | "completed" | "error" | "rejected" | "outcome_unknown" | "not_found" | "not_sent"

export interface Withdrawal {
  id: string
  idempotency_key: string
  type: "cash_out" | "mass_cash_out"
  psys_cid: string
  fee_plan: "normal" | "priority"
  recipients: Recipient[]
  total_amount: string
  status: WithdrawalStatus
  operation_id: string | null
  gateway_status: string | null
  tx_urls: string[] | null
  fee: string | null
  error_message: string | null
  error_field: string | null
  /** Set while the same payment is blocked (unresolved, or failed at the gateway undecided). */
  active_fingerprint: string | null
  /** A gateway `error` answer and what reading its operation back showed (docs/money-out.md#failed-at-the-gateway). */
  gateway_evidence: GatewayFailureEvidence | null
  requested_by: string | null
  requested_at: string
  resolved_at: string | null
  purpose: WithdrawalPurpose
  order_id: string | null
  refund_id: string | null
  resolution: "operation" | "not_sent" | "failed" | null
  resolved_by: string | null
  resolution_note: string | null
  source_currency: string | null
  source_amount: string | null
  source_rate: string | null
}

/** One read of a failed withdrawal's operation: what it showed, or why it could not be read. */
export type GatewayFailureRead = AdminCryptoGatewayFailureRead

/** What the plugin knows of a withdrawal the gateway answered with status `error` (spec §2.3). */
export type GatewayFailureEvidence = AdminCryptoGatewayFailureEvidence

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

/** One verified pay_in callback. */
export type DepositCallback = AdminCryptoPayIn

export type EffectiveSettings = AdminCryptoEffectiveSettings

export interface SettingsResponse {
  settings: AdminCryptoSettings
}

export interface CryptoInvoice {
  id: string
  order_number: string
  attempt: number
  txn_id: string | null
  active_txn_id: string | null
  invoice_url: string | null
  psys_cid: string | null
  currency: string | null
  source_currency: string
  source_amount: string
  expected_amount: string | null
  received_amount: string | null
  overpaid_amount: string | null
  underpaid_amount: string | null
  refund_due_amount: string | null
  gateway_status: string | null
  session_status: string
}

/** One invoice's account (src/core/account.ts): every amount in `psys_cid`. */
export type CryptoInvoiceAccount = AdminCryptoInvoiceAccount

export type OrderCryptoPayment = AdminCryptoOrderPayment

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

export type RefundQuote = AdminCryptoRefundQuote

export type WithdrawalPurpose = "withdrawal" | "refund" | "overpayment" | "underpayment" | "late_payment" | "unexplained"

/** An operation that could be a withdrawal of unknown outcome, with why (GET /withdrawals/:id). */
export type WithdrawalCandidate = AdminCryptoWithdrawalCandidate

export interface WithdrawalDetail {
  withdrawal: Withdrawal
  candidates: WithdrawalCandidate[]
}

export type ExchangeStatus = "requested" | "sending" | "created" | "completed" | "error" | "rejected" | "outcome_unknown" | "not_sent"

/** An exchange recorded by the admin (crypto_exchange). Amounts are decimal strings in their coins. */
export interface RecordedExchange {
  id: string
  idempotency_key: string
  from_currency: string
  to_currency: string
  from_amount: string | null
  to_amount: string | null
  to_address: string
  status: ExchangeStatus
  exchange_id: string | null
  gateway_status: string | null
  error_message: string | null
  requested_by: string | null
  requested_at: string
  resolved_at: string | null
  resolution: "exchange" | "not_sent" | null
  resolved_by: string | null
  resolution_note: string | null
}

/** One fee plan of a coin as the gateway gives it (spec §2.6); amounts as decimal strings. */
export interface FeePlanEntry {
  conf_target?: number | null
  value?: string | null
  gasLimit?: string | null
  gasPrice?: string | null
}

export type PayIn = AdminCryptoPayIn

export interface CustomerDeposits {
  customer_id: string
  addresses: Array<{ hash: string; psys_cid: string; uid?: string; currency?: string | null }>
  addresses_error: string | null
  pay_ins: PayIn[]
  pay_in_count: number
  totals: AdminCryptoDepositTotal[]
}
