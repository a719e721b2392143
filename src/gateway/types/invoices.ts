/** Invoices (spec §2.1, §4.1). */
import type Decimal from "decimal.js"
import type { MoneyInput } from "../core/money"
import type { Status, WireDecimal } from "./common"

/** Parameters of `invoices.create` (spec §4.1). Money as `Decimal` or a plain decimal string. */
export interface InvoiceCreateParams {
  order_name: string
  order_number: string
  /** Cryptocurrency ID (psys_cid); when omitted the gateway picks an active one. */
  currency?: string
  amount?: MoneyInput
  source_currency?: string
  source_amount?: MoneyInput
  /** Cryptocurrency IDs the payer may choose from; joined with commas on the wire. */
  allowed_psys_cids?: string | readonly string[]
  description?: string
  callback_url?: string
  success_callback_url?: string
  fail_callback_url?: string
  success_invoice_url?: string
  fail_invoice_url?: string
  email?: string
  language?: string
  plugin?: string
  version?: string
  /** Minutes until the invoice expires. */
  expire_min?: number
  /** Return the existing invoice for this order_number instead of an error. Makes the call retryable. */
  return_existing?: boolean
}

/** The query of `GET /invoices/new` as sent (all strings; api_key added by the client). */
export type WireInvoiceCreateQuery = { [K in keyof InvoiceCreateParams]?: string } & { api_key: string }

/** Invoice creation result as the gateway sends it (spec §2.1). */
export interface WireInvoice {
  txn_id: string
  invoice_url?: string
  invoice_total_sum?: WireDecimal
  amount?: WireDecimal
  pending_amount?: WireDecimal
  wallet_hash?: string
  psys_cid?: string
  currency?: string
  status?: string
  source_currency?: string
  source_rate?: WireDecimal
  expire_utc?: number
  expected_confirmations?: string
  qr_code?: string
  verify_hash?: string
  invoice_commission?: WireDecimal
  invoice_sum?: WireDecimal
}

/** Invoice creation result, parsed: decimals are `Decimal`s, `expire_utc` in seconds. */
export interface Invoice {
  txn_id: string
  invoice_url?: string | null
  invoice_total_sum?: Decimal | null
  amount?: Decimal | null
  pending_amount?: Decimal | null
  wallet_hash?: string | null
  psys_cid?: string | null
  currency?: string | null
  status?: Status | null
  source_currency?: string | null
  source_rate?: Decimal | null
  expire_utc?: number | null
  expected_confirmations?: string | null
  qr_code?: string | null
  verify_hash?: string | null
  invoice_commission?: Decimal | null
  invoice_sum?: Decimal | null
  /** Fields the spec does not list are kept (numbers as number or Decimal, never a float). */
  [extra: string]: unknown
}
