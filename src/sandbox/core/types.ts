/**
 * Seed (read from a JSON file) and state (in memory, savable as JSON) of the sandbox.
 * Every amount, rate and balance is a decimal string here: computation goes through decimal.js
 * (see money.ts), storage stays exact text.
 */

import type { KnownStatus } from "../../gateway/types/common"

export type Network = "bitcoin" | "bitcoin-testnet" | "litecoin" | "ethereum" | "tron"

/** spec §2.6: UTXO networks plan with conf_target + value, EVM networks with gasLimit + gasPrice + value. */
export type FeePlan =
  | { conf_target: number; value: string }
  | { gasLimit: string; gasPrice: string; value: string }

export type FeePlanName = "normal" | "priority"

export interface SeedCoin {
  psys_cid: string
  currency: string
  name: string
  network: Network
  precision: number
  rate_usd: string
  expected_confirmations: number
  invoice_commission_percentage: string
  min_sum_in: string
  internal_transfer: boolean
  maintenance: boolean
  explorer_tx_url: string
  fee_plans: Record<FeePlanName, FeePlan>
}

export interface SeedShop {
  id: string
  name: string
  user_id: number
  secret_key: string
  white_label: boolean
  commission_payer: "shop" | "client"
  status_url: string | null
  success_url: string | null
  default_psys_cid: string
  enabled_psys_cids: string[]
  request_ips: string[]
  exchange_enabled: boolean
  balances: Record<string, string>
}

export interface SeedExchange {
  psys_cids: string[]
  spread_percent: string
  processing_seconds: number
}

/** A fiat currency the gateway converts from (spec §4.1 `source_currency`). */
export interface SeedFiat {
  /** units of this currency per 1 USD */
  rate: string
  /** ISO 4217 minor units: the decimals a `source_amount` in it may carry (0, 2 or 3) */
  minor_units: number
}

export interface Seed {
  description?: string
  /** by ISO 4217 code */
  fiat_currencies: Record<string, SeedFiat>
  coins: SeedCoin[]
  shops: SeedShop[]
  exchange: SeedExchange
}

/**
 * An invoice status: the gateway client's vocabulary (spec §3), the same declaration the plugin
 * maps, so a status added there fails the sandbox's build until its state machine handles it.
 */
export type InvoiceStatus = KnownStatus

export interface ChainTx {
  txid: string
  value: string
  confirmations: number
  /** block height once it has at least one confirmation */
  block_height: number | null
  seen_at: number
}

export interface Invoice {
  txn_id: string
  shop_id: string
  order_number: string
  order_name: string
  description: string | null
  email: string | null
  language: string
  plugin: string | null
  version: string | null
  psys_cid: string
  /** params.amount: the invoice amount in the coin, before client-paid commission */
  amount: string
  invoice_commission: string
  invoice_sum: string
  /** what the payer must send (spec §2.1) */
  invoice_total_sum: string
  commission_percent: string
  commission_payer: "shop" | "client"
  source_currency: string
  source_amount: string
  source_rate: string
  wallet_hash: string
  /** base64 PNG; made at creation for white-label shops, on first view otherwise */
  qr_code: string | null
  status: InvoiceStatus
  txs: ChainTx[]
  created_at: number
  expire_at: number
  finished_at: number | null
  internal_started_at: number | null
  error_reason: string | null
  callback_url: string | null
  success_callback_url: string | null
  fail_callback_url: string | null
  success_invoice_url: string | null
  fail_invoice_url: string | null
  allowed_psys_cids: string[]
  parent_id: string | null
  child_ids: string[]
  /** txn_id of the first invoice of a switch chain, null when never switched */
  switch_id: string | null
  credited: string | null
}

export interface Withdrawal {
  id: string
  shop_id: string
  type: "cash_out" | "mass_cash_out"
  status: "completed" | "error"
  psys_cid: string
  to: string[]
  amounts: string[]
  fee: string
  plan: FeePlanName
  /** null for a withdrawal that ended in `error`: nothing was sent */
  txid: string | null
  created_at: number
}

/** Money that arrives at the shop's wallet directly (spec §2.2 `cash_in`, `params.value`). */
export interface CashIn {
  id: string
  shop_id: string
  psys_cid: string
  amount: string
  status: "completed"
  txid: string
  created_at: number
}

export interface Deposit {
  shop_id: string
  uid: string
  psys_cid: string
  hash: string
  /** QR of the address, base64 PNG (spec §6.2 qr_code) */
  qr_code: string
  created_at: number
}

export interface PayIn {
  id: string
  shop_id: string
  uid: string
  psys_cid: string
  hash: string
  amount: string
  commission: string
  tx: ChainTx
  status: "pending" | "completed"
  created_at: number
  finished_at: number | null
}

/** An exchange's status: `processing` until it ends, `completed` (sent) or `error` (the from coins returned). */
export type ExchangeStatus = "processing" | "completed" | "error"

export interface Exchange {
  id: string
  shop_id: string
  from_currency: string
  to_currency: string
  from_amount: string
  to_amount: string
  rate: string
  fee: string
  to_address: string
  status: ExchangeStatus
  /** the transaction of a `completed` exchange (unused otherwise: an exchange in `error` sent nothing) */
  txid: string
  created_at: number
  completes_at: number
  finished_at: number | null
}

export interface SandboxState {
  version: 1
  clock_offset_ms: number
  balances: Record<string, Record<string, string>>
  invoices: Record<string, Invoice>
  withdrawals: Record<string, Withdrawal>
  deposits: Deposit[]
  pay_ins: Record<string, PayIn>
  exchanges: Record<string, Exchange>
  cash_ins: Record<string, CashIn>
  /** per shop id: how many of its next withdrawals end in `error` (control API `withdrawals/fail-next`) */
  withdrawal_failures: Record<string, number>
  block_height: number
}
