/**
 * Exchanges (spec §2.8, §4.11). The gateway does not document the bodies: results are kept as
 * sent, with JSON numbers and money-named decimal strings made `Decimal`s and `*_utc` in seconds.
 */
import type { MoneyInput } from "../core/money"

export interface ExchangeEstimateParams {
  from_currency: string
  to_currency: string
  from_amount?: MoneyInput
  to_amount?: MoneyInput
  amount_currency?: string
}

export interface ExchangeCreateParams extends ExchangeEstimateParams {
  to_address: string
}

/** An exchange record (created or status): undocumented, kept as sent. */
export interface Exchange {
  id?: string
  status?: string
  [field: string]: unknown
}

export type ExchangeEstimate = Record<string, unknown>

/** The exchange-capable currencies (`/exchanges/list`): undocumented, kept as sent. */
export type ExchangeCurrencies = unknown
