/** Supported cryptocurrencies (spec §2.4, §4.8). */
import type Decimal from "decimal.js"
import type { WireDecimal } from "./common"

export interface WireCurrency {
  name: string
  cid: string
  currency: string
  icon?: string
  rate_usd?: WireDecimal
  price_usd?: WireDecimal
  precision?: string
  fiat?: string
  fiat_rate?: WireDecimal
  min_sum_in?: WireDecimal
  invoice_commission_percentage?: string
  hidden?: number
  maintenance?: boolean
}

export interface Currency {
  name?: string | null
  /** The cryptocurrency ID (psys_cid). */
  cid: string
  currency?: string | null
  icon?: string | null
  rate_usd?: Decimal | null
  price_usd?: Decimal | null
  /** Kept as text (spec §2.4: its meaning is not shown). */
  precision?: string | null
  fiat?: string | null
  fiat_rate?: Decimal | null
  min_sum_in?: Decimal | null
  /** A percentage as text (spec §2.4 gives it as a plain string). */
  invoice_commission_percentage?: string | null
  hidden?: number | null
  maintenance?: boolean | null
  [extra: string]: unknown
}
