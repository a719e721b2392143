import { MedusaError } from "@medusajs/framework/utils"
import { GatewayUnprocessableEntityError, isDecimalString, type Currency, type GatewayClient } from "../../gateway"
import type CryptoModuleService from "../../modules/crypto/service"
import { toMedusaError } from "../errors"
import { coinPlaces, exact, fiatToCoin, fiatToMinorUnits } from "../money"
import { COIN_ID_PATTERN } from "../coins"
import type { ResolvedCryptoOptions } from "../config/options"

/** How long the currency list of one fiat is reused (rates move; the picker only needs "about"). */
export const CURRENCY_CACHE_TTL_MS = 60_000

/** One coin as cached: every decimal as a string (JSON storage, no float on the way). */
export interface CachedCurrency {
  psys_cid: string
  currency: string | null
  name: string | null
  icon: string | null
  /** Price of one coin in the fiat of the list (spec §2.4 `fiat_rate`). */
  fiat_rate: string | null
  min_sum_in: string | null
  precision: string | null
  maintenance: boolean
  /** The shop disabled this coin in its settings (spec §2.4 `hidden`, non-zero): never offered to shoppers. */
  hidden: boolean
  /** The gateway's commission on an invoice in this coin, in percent (spec §2.4), a decimal string. */
  invoice_commission_percentage: string | null
}

function toCached(currency: Currency): CachedCurrency {
  return {
    psys_cid: currency.cid,
    currency: currency.currency ?? null,
    name: currency.name ?? null,
    icon: currency.icon ?? null,
    fiat_rate: currency.fiat_rate ? currency.fiat_rate.toFixed() : null,
    min_sum_in: currency.min_sum_in ? currency.min_sum_in.toFixed() : null,
    precision: currency.precision ?? null,
    maintenance: currency.maintenance === true,
    hidden: typeof currency.hidden === "number" && currency.hidden !== 0,
    invoice_commission_percentage: commissionPercentage(currency.invoice_commission_percentage),
  }
}

/** A commission percentage as a plain decimal string (spec §2.4 sends a string), else null. */
function commissionPercentage(value: string | null | undefined): string | null {
  const text = typeof value === "string" ? value.trim() : ""
  return isDecimalString(text) ? text : null
}

/** The stored JSON value: `{ currencies: CachedCurrency[] }`. */
function cachedList(value: Record<string, unknown>): CachedCurrency[] | undefined {
  const list = value.currencies
  return Array.isArray(list) && list.every((entry) => typeof entry === "object" && entry !== null && "psys_cid" in entry && "hidden" in entry && "invoice_commission_percentage" in entry)
    ? (list as CachedCurrency[]) // shape checked just above; written only by this file
    : undefined
}

/**
 * The gateway's coins with their rate in `fiat` (spec §4.8), from our module's table when fresh,
 * else from the gateway (then stored). A fiat the gateway does not support (HTTP 422) is a
 * clear `INVALID_DATA` error.
 */
/** The part of our module the cache lives in (table `crypto_rate_cache`). */
export type RateCacheStore = Pick<CryptoModuleService, "listCryptoRateCaches" | "createCryptoRateCaches" | "updateCryptoRateCaches">

export async function listCurrencies(
  client: { currencies: Pick<GatewayClient["currencies"], "list"> },
  cryptoModule: RateCacheStore,
  fiat: string,
  now: Date = new Date()
): Promise<CachedCurrency[]> {
  const code = fiat.toUpperCase()
  const [cached] = await cryptoModule.listCryptoRateCaches({ fiat: code }, { take: 1 })
  const fresh = cached !== undefined && now.getTime() - new Date(cached.fetched_at).getTime() < CURRENCY_CACHE_TTL_MS
  const reusable = fresh ? cachedList(cached.entries) : undefined
  if (reusable !== undefined) {
    return reusable
  }
  let currencies: Currency[]
  try {
    currencies = await client.currencies.list(code)
  } catch (error) {
    if (error instanceof GatewayUnprocessableEntityError) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `The crypto gateway does not accept payments in ${code}: use a region whose currency the gateway supports (${error.message})`,
        undefined,
        `unsupported fiat ${code}`,
        { cause: error }
      )
    }
    throw toMedusaError(error, `Reading the crypto gateway's rates in ${code}`)
  }
  const entries = currencies.map(toCached)
  // Stored as a JSON value; the entries hold only strings, booleans and nulls.
  const stored = { currencies: entries }
  try {
    if (cached === undefined) {
      await cryptoModule.createCryptoRateCaches({ fiat: code, entries: stored, fetched_at: now })
    } else {
      await cryptoModule.updateCryptoRateCaches({ id: cached.id, entries: stored, fetched_at: now })
    }
  } catch {
    // A concurrent request stored the same list first (unique on fiat): the answer stands.
  }
  return entries
}

/**
 * The coins a shopper may pick: those the merchant accepts (`allowed`, empty = all) that the shop
 * has not disabled at the gateway (spec §2.4 `hidden`, spec §4.8).
 */
export function offeredCoins(all: readonly CachedCurrency[], allowed: readonly string[]): CachedCurrency[] {
  return all.filter((coin) => !coin.hidden && (allowed.length === 0 || allowed.includes(coin.psys_cid)))
}

/** A coin's smallest invoice (spec §2.4 `min_sum_in`), in the coin and in the cart's currency. */
export interface CoinMinimum {
  /** In the coin (`min_sum_in`). */
  minimum: string
  /** The same at the coin's `fiat_rate`, in the cart's currency, rounded up to its minor units. */
  minimum_fiat: string
}

/**
 * The coin's minimum when the cart total, as the gateway will convert it, is below it; else
 * undefined. The gateway converts the fiat `source_amount` we send (the total in the fiat's minor
 * units) at its rate and rounds the coin amount up to the coin's places (spec §2.4 `fiat_rate`,
 * `precision`), then refuses an amount below `min_sum_in` (spec §4.1, errors spec §7); the same
 * conversion here tells the shopper before the gateway refuses. A coin without a minimum or a
 * rate is never judged here (the gateway decides).
 */
export function belowMinimum(total: string, fiat: string, coin: CachedCurrency): CoinMinimum | undefined {
  if (coin.min_sum_in === null || coin.fiat_rate === null || exact(coin.fiat_rate).isZero()) {
    return undefined
  }
  const minimum = exact(coin.min_sum_in)
  if (minimum.lte(0)) return undefined
  const inCoin = fiatToCoin(fiatToMinorUnits(total, fiat), coin.fiat_rate, coinPlaces(coin.precision), "up")
  if (inCoin.gte(minimum)) return undefined
  return {
    minimum: minimum.toFixed(),
    minimum_fiat: fiatToMinorUnits(minimum.times(coin.fiat_rate), fiat, "up").toFixed(),
  }
}

/**
 * The coin ID (psys_cid) of a coin code (`currency`, e.g. "BTC"), for an invoice whose callback
 * names only the code (spec §6.1, shops without white-label). The invoice's own coin wins when it
 * has that code; a code two coins share (a token on two networks) with no such hint stays unknown
 * (null) rather than guessed.
 */
export async function resolveCoinId(
  client: { currencies: Pick<GatewayClient["currencies"], "list"> },
  cryptoModule: RateCacheStore,
  fiat: string,
  code: string | null,
  known: { psys_cid: string | null; currency: string | null }
): Promise<string | null> {
  if (code === null) return null
  const same = (a: string | null, b: string) => a !== null && a.toUpperCase() === b.toUpperCase()
  if (known.psys_cid !== null && (same(known.currency, code) || same(known.psys_cid, code))) {
    return known.psys_cid
  }
  const matches = (await listCurrencies(client, cryptoModule, fiat)).filter((coin) => same(coin.currency, code))
  return matches.length === 1 ? matches[0].psys_cid : null
}

/** Why a coin cannot take an invoice now: the gateway has it under maintenance, or the total is below its minimum. */
export type CoinUnusable = { reason: "maintenance" } | { reason: "below_minimum"; minimum: CoinMinimum }

/**
 * Whether the coin can take an invoice of `total` now: not under maintenance (spec §2.4
 * `maintenance`; the spec shows no meaning beyond the name, and we read it as "the gateway takes no
 * payment in this coin now"), and not above the total's reach (`belowMinimum`).
 */
export function unusableCoin(coin: CachedCurrency, total: { amount: string; currency: string }): CoinUnusable | undefined {
  if (coin.maintenance) {
    return { reason: "maintenance" }
  }
  const minimum = belowMinimum(total.amount, total.currency, coin)
  return minimum === undefined ? undefined : { reason: "below_minimum", minimum }
}

/**
 * The coin for a new invoice: the storefront's choice (`data.psys_cid`), else the default. Never a
 * coin the shop disabled at the gateway (spec §2.4 `hidden`) or one the gateway does not list,
 * whatever the accepted-coin list says; never one outside a non-empty accepted-coin list; never
 * one under maintenance (spec §2.4 `maintenance`) or whose minimum (spec §2.4 `min_sum_in`) the
 * cart total does not reach. The shopper's choice is refused then, naming it; the store's default
 * coin is a preference, not the shopper's word, so it is skipped instead and the gateway picks
 * among the accepted coins (`allowedPsysCids`). Without a coin the gateway picks the shop's (spec §4.1).
 */
export function chooseCoin(
  requested: unknown,
  options: Pick<ResolvedCryptoOptions, "allowedCurrencies" | "defaultCurrency">,
  coins: readonly CachedCurrency[],
  total: { amount: string; currency: string }
): string | undefined {
  if (requested !== undefined && requested !== null && requested !== "" && (typeof requested !== "string" || !COIN_ID_PATTERN.test(requested))) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, 'data.psys_cid must be a coin ID such as "BTC" (see GET /store/crypto/currencies)')
  }
  const fromShopper = typeof requested === "string" && requested !== ""
  const psysCid = fromShopper ? requested : options.defaultCurrency
  if (psysCid === undefined) {
    return undefined
  }
  const field = fromShopper ? "data.psys_cid" : "the store's default coin (defaultCurrency)"
  const offered = offeredCoins(coins, options.allowedCurrencies)
  const coin = offered.find((candidate) => candidate.psys_cid === psysCid)
  if (coin === undefined) {
    const accepted = options.allowedCurrencies.length > 0 && !options.allowedCurrencies.includes(psysCid)
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      accepted
        ? `${field} "${psysCid}" is not accepted by this store; choose one of ${options.allowedCurrencies.join(", ")}`
        : `${field} "${psysCid}" is not offered by this store; choose one of ${offered.map((candidate) => candidate.psys_cid).join(", ") || "(none)"} (see GET /store/crypto/currencies)`
    )
  }
  const unusable = unusableCoin(coin, total)
  if (unusable === undefined) {
    return psysCid
  }
  if (!fromShopper) {
    return undefined
  }
  if (unusable.reason === "maintenance") {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `${field} "${psysCid}" is under maintenance at the gateway and takes no payment now; choose another coin (see GET /store/crypto/currencies)`
    )
  }
  const code = coin.currency ?? coin.psys_cid
  throw new MedusaError(
    MedusaError.Types.INVALID_DATA,
    `${field} "${psysCid}": the cart total ${total.amount} ${total.currency} is below the gateway's minimum of ${unusable.minimum.minimum} ${code} (${unusable.minimum.minimum_fiat} ${total.currency}); choose another coin (see GET /store/crypto/currencies)`
  )
}

/**
 * The accepted-coin list a new invoice sends (spec §4.1 `allowed_psys_cids`: the coins the payer
 * may choose on the gateway's page): the coins the store offers (`offeredCoins`) that can take this
 * total now (`unusableCoin`: none under maintenance, none whose minimum the total does not reach),
 * in the gateway's order. Empty means "send no list": the merchant accepts every coin the shop
 * enables and none is left out, so the gateway keeps offering the shop's coins as they are at the
 * gateway. When the merchant accepts every coin but one of them is left out, the list of the others
 * is sent: without it the gateway would offer (or pick, for an invoice without `currency`) the coin
 * that cannot take the payment, and refuse or strand the invoice. No coin left is refused here, with
 * why, before anything is reserved or created.
 */
export function allowedPsysCids(
  coins: readonly CachedCurrency[],
  options: Pick<ResolvedCryptoOptions, "allowedCurrencies">,
  total: { amount: string; currency: string }
): string[] {
  const offered = offeredCoins(coins, options.allowedCurrencies)
  const usable: string[] = []
  const maintenance: string[] = []
  const belowMinimums: Array<{ psys_cid: string; minimum: CoinMinimum }> = []
  for (const coin of offered) {
    const unusable = unusableCoin(coin, total)
    if (unusable === undefined) usable.push(coin.psys_cid)
    else if (unusable.reason === "maintenance") maintenance.push(coin.psys_cid)
    else belowMinimums.push({ psys_cid: coin.psys_cid, minimum: unusable.minimum })
  }
  if (usable.length === 0) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, noCoinLeftMessage(options.allowedCurrencies, total, maintenance, belowMinimums))
  }
  const leftOut = usable.length < offered.length
  return options.allowedCurrencies.length > 0 || leftOut ? usable : []
}

/** Why no coin can take the invoice, in the words of `allowedPsysCids`' refusal. */
function noCoinLeftMessage(
  accepted: readonly string[],
  total: { amount: string; currency: string },
  maintenance: readonly string[],
  belowMinimums: ReadonlyArray<{ psys_cid: string; minimum: CoinMinimum }>
): string {
  if (maintenance.length === 0 && belowMinimums.length === 0) {
    return accepted.length > 0
      ? `No coin can take this payment: none of the coins this store accepts (${accepted.join(", ")}) is enabled in the shop's settings at the gateway`
      : "No coin can take this payment: the gateway offers no coin for this shop (none is enabled in the shop's settings at the gateway)"
  }
  if (belowMinimums.length === 0) {
    return `No coin can take this payment now: every coin this store offers is under maintenance at the gateway (${maintenance.join(", ")}); try again later`
  }
  const lowest = belowMinimums.reduce((low, candidate) => (exact(candidate.minimum.minimum_fiat).lt(low.minimum.minimum_fiat) ? candidate : low))
  const minimums = `(the lowest: ${lowest.minimum.minimum_fiat} ${total.currency}, for ${lowest.psys_cid})`
  if (maintenance.length === 0) {
    return `No coin can take this payment: the cart total ${total.amount} ${total.currency} is below every coin's minimum at the gateway ${minimums}`
  }
  return `No coin can take this payment now: ${maintenance.join(", ")} ${maintenance.length === 1 ? "is" : "are"} under maintenance at the gateway, and the cart total ${total.amount} ${total.currency} is below the other coins' minimum ${minimums}`
}
