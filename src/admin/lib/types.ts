/** The admin API's answers as the UI reads them (amounts are decimal strings, never numbers). */

export interface Balance {
  psys_cid: string
  currency: string | null
  name: string | null
  icon: string | null
  fiat: string
  fiat_rate: string | null
  balance: string | null
  fiat_value: string | null
  error: string | null
}

export interface BalancesResponse {
  fiat: string
  balances: Balance[]
  total_fiat_value: string
  fetched_at: string
}

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

export type WithdrawalStatus = "requested" | "sending" | "completed" | "error" | "rejected" | "outcome_unknown" | "not_found"

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
  requested_by: string | null
  requested_at: string
  resolved_at: string | null
  purpose: "withdrawal" | "refund" | "overpayment" | "underpayment"
  order_id: string | null
  refund_id: string | null
  source_currency: string | null
  source_amount: string | null
  source_rate: string | null
}

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

export interface DepositCallback {
  id: string
  received_at: string
  status: string | null
  txn_id: string | null
  deposit_uid: string | null
  psys_cid: string | null
  currency: string | null
  amount: string | null
  confirmations: string | null
  wallet_hash: string | null
  tx_urls: string[]
}

export interface EffectiveSettings {
  accepted_coins: string[]
  default_coin: string | null
  invoice_lifetime_minutes: number
  order_on_detection: boolean
  underpaid_tolerance_percent: string
}

export interface SettingsResponse {
  settings: {
    provider_id: string
    api_key_set: boolean
    gateway_host: string
    white_label: boolean
    stored: {
      accepted_coins: string[] | null
      default_coin: string | null
      invoice_lifetime_minutes: number | null
      order_on_detection: boolean | null
      underpaid_tolerance_percent: string | null
      updated_by: string | null
      updated_at: string | null
    }
    defaults: EffectiveSettings
    effective: EffectiveSettings
  }
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
export interface CryptoInvoiceAccount {
  invoice_id: string
  order_number: string
  txn_id: string | null
  psys_cid: string | null
  currency: string | null
  holds_order_money: boolean
  superseded: boolean
  expected: string | null
  received: string
  confirmed: string
  overpaid: string | null
  underpaid: string | null
  refund_due: string | null
  sent_back: string
  refunded: string
  in_flight: string
  held: string
}

export interface OrderCryptoPayment {
  payment_id: string
  provider_id: string
  amount: string
  captured: string
  refunded: string
  refundable: string
  currency_code: string
}

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

export interface RefundQuote {
  payment_id: string
  psys_cid: string
  currency: string | null
  fiat: string
  amount: string
  refundable: string
  rate: string
  coin_amount: string
  precision: number
}
