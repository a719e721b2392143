/** Operations, withdrawals, fee and commission estimates, fee plans (spec §2.2, §2.3, §2.6, §4.2–4.7). */
import type Decimal from "decimal.js"
import type { MoneyInput } from "../core/money"
import type {
  FeePlanName,
  KnownOperationType,
  KnownStatus,
  OperationType,
  Status,
  WireDecimal,
  WireDecimalOrNumber,
  WithdrawalStatus,
  WithdrawalType,
} from "./common"

/** `params.fee` of a withdrawal (spec §2.2, §2.3). */
export interface WireOperationFee {
  conf_target?: number
  plan?: string
  value?: WireDecimalOrNumber
  gasLimit?: string
  gasPrice?: string
  nonce?: string
  dynamicField?: string
  unit?: string
}

export interface OperationFee {
  conf_target?: number | null
  plan?: string | null
  value?: Decimal | null
  gasLimit?: string | null
  /** A price per unit of gas: a decimal. */
  gasPrice?: Decimal | null
  nonce?: string | null
  dynamicField?: string | null
  unit?: string | null
  [extra: string]: unknown
}

/** `params` of an operation (spec §2.2). */
export interface WireOperationParams {
  fee?: WireOperationFee
  order_number?: string
  order_name?: string
  description?: string
  source_amount?: WireDecimalOrNumber
  source_currency?: string
  source_rate?: WireDecimalOrNumber
  currency?: string
  amount?: WireDecimalOrNumber
  value?: WireDecimalOrNumber
}

export interface OperationParams {
  fee?: OperationFee | null
  order_number?: string | null
  order_name?: string | null
  description?: string | null
  source_amount?: Decimal | null
  source_currency?: string | null
  source_rate?: Decimal | null
  currency?: string | null
  amount?: Decimal | null
  value?: Decimal | null
  [extra: string]: unknown
}

/** One entry of `tx` (spec §2.2; the detail view adds txid, value, block, processed). */
export interface WireOperationTx {
  url?: string
  wallet_hash?: string[]
  txid?: string
  value?: WireDecimalOrNumber
  block?: unknown
  processed?: boolean
}

export interface OperationTx {
  url?: string | null
  wallet_hash?: string[] | null
  txid?: string | null
  value?: Decimal | null
  block?: unknown
  processed?: boolean | null
  [extra: string]: unknown
}

/** An operation as the gateway sends it (spec §2.2, list and detail views). */
export interface WireOperation {
  id: string
  user_id?: number
  shop_id?: string | null
  type: string
  status: string
  tx_url?: string | string[] | null
  pending_sum?: WireDecimalOrNumber
  psys_cid?: string
  currency?: string
  source_currency?: string
  source_rate?: WireDecimal
  fee?: WireDecimal | null
  wallet_hash?: string
  sendmany?: Record<string, WireDecimalOrNumber> | null
  expire_at_utc?: number | null
  created_at_utc?: number
  amount?: WireDecimal
  sum?: WireDecimalOrNumber
  commission?: WireDecimal | null
  actual_sum?: WireDecimalOrNumber
  actual_commission?: WireDecimal | null
  actual_fee?: WireDecimalOrNumber | null
  actual_invoice_sum?: WireDecimal | null
  tx_id?: string[] | null
  tx?: WireOperationTx[]
  confirmations?: number
  status_code?: number
  parent_id?: string
  child_ids?: string[]
  params?: WireOperationParams
  commissionPayment?: number
  commis_percent?: string
  commis_sum?: WireDecimal
  memo?: string
  finished_at_utc?: number | null
}

/** An operation, parsed: decimals are `Decimal`s, `*_utc` in seconds, `tx_url` an array. */
export interface Operation {
  id: string
  user_id?: number | null
  shop_id?: string | null
  type: OperationType
  status: Status
  /** Always an array (the gateway sends a string, an array or null). */
  tx_url: string[]
  pending_sum?: Decimal | null
  psys_cid?: string | null
  currency?: string | null
  source_currency?: string | null
  source_rate?: Decimal | null
  fee?: Decimal | null
  wallet_hash?: string | null
  sendmany?: Record<string, Decimal> | null
  expire_at_utc?: number | null
  created_at_utc?: number | null
  amount?: Decimal | null
  sum?: Decimal | null
  commission?: Decimal | null
  actual_sum?: Decimal | null
  actual_commission?: Decimal | null
  actual_fee?: Decimal | null
  actual_invoice_sum?: Decimal | null
  tx_id?: string[] | null
  tx?: OperationTx[] | null
  confirmations?: number | null
  /** Undocumented codes (docs/gateway-readings.md#status-codes): never branch on them. */
  status_code?: number | null
  parent_id?: string | null
  child_ids?: string[] | null
  params?: OperationParams | null
  commissionPayment?: number | null
  /** A percentage as text (spec §2.2 gives it as a plain string). */
  commis_percent?: string | null
  commis_sum?: Decimal | null
  memo?: string | null
  finished_at_utc?: number | null
  [extra: string]: unknown
}

/** Filters of `operations.list` (spec §4.3). */
export interface OperationListParams {
  page?: number
  limit?: number
  shop_id?: string
  type?: KnownOperationType | (string & {})
  status?: KnownStatus | (string & {})
  currency?: string
  search?: string
}

export interface PageLink {
  /** The gateway's link with any `api_key` value masked as `***`. */
  href: string
}

export interface OperationListLinks {
  self?: PageLink
  first?: PageLink
  last?: PageLink
  next?: PageLink
  [rel: string]: PageLink | undefined
}

export interface OperationListMeta {
  totalCount: number
  pageCount: number
  currentPage: number
  perPage: number
}

export interface WireOperationList {
  operations: WireOperation[]
  _links?: Record<string, { href: string }>
  _meta?: OperationListMeta
}

/** One page of operations (spec §4.3). */
export interface OperationList {
  operations: Operation[]
  _links: OperationListLinks
  _meta: OperationListMeta | null
}

/** Parameters of `operations.withdraw` (spec §4.2). */
export interface WithdrawParams {
  /** Cryptocurrency ID (psys_cid). */
  currency: string
  type: WithdrawalType
  /** Destination address(es); exactly one for cash_out. Joined with commas on the wire. */
  to: string | readonly string[]
  /** Amount(s), in the order of `to`. Joined with commas on the wire. */
  amount: MoneyInput | readonly MoneyInput[]
  feePlan?: FeePlanName
}

/** Withdrawal result as sent (spec §2.3). */
export interface WireWithdrawal {
  id: string
  type: string
  status: string
  psys_cid?: string
  currency?: string
  source_currency?: string
  source_rate?: WireDecimal
  fee?: WireDecimal
  wallet_hash?: string
  sendmany?: Record<string, WireDecimalOrNumber>
  params?: { fee?: WireOperationFee }
  created_at_utc?: number
  amount?: WireDecimal
  tx_url?: string | string[] | null
}

/** A withdrawal result, parsed (spec §2.3): an operation's fields, with the withdrawal's type and status. */
export type Withdrawal = Pick<
  Operation,
  "id" | "psys_cid" | "currency" | "source_currency" | "source_rate" | "fee" | "wallet_hash" | "sendmany" | "params" | "created_at_utc" | "amount" | "tx_url"
> & {
  type: WithdrawalType | (string & {})
  status: WithdrawalStatus
  [extra: string]: unknown
}

/** Parameters of `operations.commission` (spec §4.5). */
export interface CommissionParams {
  addresses: string | readonly string[]
  amounts: MoneyInput | readonly MoneyInput[]
  type?: "cash_in" | "cash_out" | "mass_cash_out" | "invoice"
  feePlan?: FeePlanName
}

/** Parameters of `operations.fee` (spec §4.6). */
export interface FeeParams {
  addresses: string | readonly string[]
  amounts: MoneyInput | readonly MoneyInput[]
  feePlan?: FeePlanName
}

/** One plan of a fee-plan or commission result (spec §2.6). */
export interface WireFeePlan {
  conf_target?: number
  value?: WireDecimalOrNumber
  gasLimit?: string
  gasPrice?: string
}

export interface FeePlan {
  conf_target?: number | null
  value?: Decimal | null
  gasLimit?: string | null
  gasPrice?: Decimal | null
  [extra: string]: unknown
}

/** Fee plans keyed by name (`normal`, `priority`, or a plan the gateway adds). */
export type WireFeePlans = Record<string, WireFeePlan>
export interface FeePlans {
  normal?: FeePlan
  priority?: FeePlan
  [plan: string]: FeePlan | undefined
}

export interface WireFeeEstimate {
  fee: WireDecimal
  psys_cid?: string
  currency?: string
  plan?: string
}

export interface FeeEstimate {
  fee: Decimal
  psys_cid?: string | null
  currency?: string | null
  plan?: string | null
  [extra: string]: unknown
}

export interface WireCommissionEstimate {
  commission: WireDecimal
  fee?: WireDecimal
  plan?: string
  useWallet?: string
  useWalletBalance?: string
  plans?: WireFeePlans
}

export interface CommissionEstimate {
  commission: Decimal
  fee?: Decimal | null
  plan?: string | null
  useWallet?: string | null
  /** Kept as text: spec §2.6 gives it as a string without saying what it holds. */
  useWalletBalance?: string | null
  plans?: FeePlans | null
  [extra: string]: unknown
}
