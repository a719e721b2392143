import type { GatewayClient } from "../../gateway"
import { toMedusaError } from "../errors"
import { coinToFiat, sumAmounts } from "../money"
import type { ResolvedCryptoOptions } from "../config/options"

export interface CryptoBalance {
  psys_cid: string
  currency: string | null
  name: string | null
  icon: string | null
  fiat: string
  fiat_rate: string | null
  balance: string | null
  /** The balance in `fiat`, rounded DOWN to cents (never show more than the coins are worth). */
  fiat_value: string | null
  error: string | null
}

export interface CryptoBalances {
  fiat: string
  balances: CryptoBalance[]
  total_fiat_value: string
}

/**
 * The balance of every coin the shop uses (the accepted coins of the settings, else the coins
 * enabled in the gateway's shop settings, spec §2.4 `hidden`), with its value in `fiat` at the
 * gateway's current rate (spec §4.8, §4.9). One coin failing does not hide the others: it is
 * listed with its error.
 */
export async function readCryptoBalances(
  client: GatewayClient,
  options: Pick<ResolvedCryptoOptions, "allowedCurrencies">,
  fiat: string
): Promise<CryptoBalances> {
  let currencies
  try {
    currencies = await client.currencies.list(fiat)
  } catch (error) {
    throw toMedusaError(error, "Reading the coins and rates")
  }
  const used = options.allowedCurrencies.length > 0 ? options.allowedCurrencies : currencies.filter((c) => !c.hidden).map((c) => c.cid)
  const balances = await Promise.all(
    used.map(async (psysCid): Promise<CryptoBalance> => {
      const currency = currencies.find((c) => c.cid === psysCid)
      const base = { psys_cid: psysCid, currency: currency?.currency ?? null, name: currency?.name ?? null, icon: currency?.icon ?? null, fiat, fiat_rate: currency?.fiat_rate?.toFixed() ?? null }
      try {
        const balance = await client.balances.retrieve(psysCid)
        const value = currency?.fiat_rate ? coinToFiat(balance.balance, currency.fiat_rate, "down").toFixed(2) : null
        return { ...base, balance: balance.balance.toFixed(), fiat_value: value, error: null }
      } catch (error) {
        return { ...base, balance: null, fiat_value: null, error: toMedusaError(error, `Reading the ${psysCid} balance`).message }
      }
    })
  )
  const total = sumAmounts(balances.flatMap((b) => (b.fiat_value === null ? [] : [b.fiat_value])))
  return { fiat, balances, total_fiat_value: total.toFixed(2) }
}
