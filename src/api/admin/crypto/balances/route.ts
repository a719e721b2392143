import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { Decimal } from "decimal.js"
import { Wide } from "../../../../workflows/admin/lib/withdrawal"
import { toMedusaError } from "../../../../providers/crypto/errors"
import { effectiveOptions, resolveAdminGateway } from "../../../../workflows/admin/lib/gateway"
import type { AdminCryptoBalancesQueryType } from "../validators"

/**
 * GET /admin/crypto/balances?fiat=USD — the balance of every coin the shop uses (the accepted coins
 * of the settings, else the coins enabled in the gateway's shop settings, spec §2.4 `hidden`), with
 * its value in `fiat` at the gateway's current rate (spec §4.8, §4.9). One coin failing does not
 * hide the others: it is listed with its error.
 */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoBalancesQueryType>, res: MedusaResponse) => {
  const { entry, client } = resolveAdminGateway(req.scope, req.validatedQuery.provider_id)
  const fiat = req.validatedQuery.fiat ?? "USD"
  const options = await effectiveOptions(req.scope, entry)
  let currencies
  try {
    currencies = await client.currencies.list(fiat)
  } catch (error) {
    throw toMedusaError(error, "Reading the coins and rates")
  }
  const used = options.allowedCurrencies.length > 0 ? options.allowedCurrencies : currencies.filter((c) => !c.hidden).map((c) => c.cid)
  const balances = await Promise.all(
    used.map(async (psysCid) => {
      const currency = currencies.find((c) => c.cid === psysCid)
      const base = { psys_cid: psysCid, currency: currency?.currency ?? null, name: currency?.name ?? null, icon: currency?.icon ?? null, fiat, fiat_rate: currency?.fiat_rate?.toFixed() ?? null }
      try {
        const balance = await client.balances.retrieve(psysCid)
        const value = currency?.fiat_rate ? new Wide(balance.balance).times(currency.fiat_rate).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2) : null
        return { ...base, balance: balance.balance.toFixed(), fiat_value: value, error: null }
      } catch (error) {
        return { ...base, balance: null, fiat_value: null, error: toMedusaError(error, `Reading the ${psysCid} balance`).message }
      }
    })
  )
  const total = balances.reduce((sum, b) => (b.fiat_value === null ? sum : sum.plus(b.fiat_value)), new Wide(0))
  res.json({ fiat, balances, total_fiat_value: total.toFixed(2), fetched_at: new Date().toISOString() })
}
