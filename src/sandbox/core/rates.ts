import { Dec, roundHalfUp, roundUp } from "./money"
import type { SeedCoin } from "./types"

/**
 * Conversion and commission rules (the spec gives the fields, not the arithmetic; see README):
 * - price of a coin in a fiat = rate_usd × (fiat units per USD), exact;
 * - crypto amount for a fiat amount = fiat / price, rounded UP to the coin precision, so the
 *   merchant is never short;
 * - fiat amount for a crypto amount = crypto × price, rounded half-up to the fiat's minor units;
 * - invoice commission = amount × percentage / 100, rounded half-up to the coin precision.
 */
export function priceInFiat(coin: SeedCoin, fiatPerUsd: string): Dec {
  return new Dec(coin.rate_usd).times(fiatPerUsd)
}

export function cryptoForFiat(sourceAmount: Dec, price: Dec, precision: number): Dec {
  return roundUp(sourceAmount.div(price), precision)
}

export function fiatForCrypto(amount: Dec, price: Dec, minorUnits: number): Dec {
  return roundHalfUp(amount.times(price), minorUnits)
}

/** Converts between two coins through their USD rates, rounding UP to the target precision. */
export function convertCoin(amount: Dec, from: SeedCoin, to: SeedCoin): Dec {
  return roundUp(amount.times(from.rate_usd).div(to.rate_usd), to.precision)
}

export interface CommissionSplit {
  commission: Dec
  /** spec §2.1 invoice_sum: shop pays → amount − commission; client pays → amount */
  invoiceSum: Dec
  /** spec §2.1 invoice_total_sum: shop pays → amount; client pays → commission + invoice_sum */
  invoiceTotalSum: Dec
}

export function splitCommission(
  amount: Dec,
  percent: string,
  precision: number,
  payer: "shop" | "client"
): CommissionSplit {
  const commission = roundHalfUp(amount.times(percent).div(100), precision)
  if (payer === "shop") {
    return { commission, invoiceSum: amount.minus(commission), invoiceTotalSum: amount }
  }
  return { commission, invoiceSum: amount, invoiceTotalSum: commission.plus(amount) }
}
