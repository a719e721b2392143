import { parseDecimal } from "./money"
import type { FeePlan, Network, Seed, SeedCoin, SeedFiat, SeedShop } from "./types"

const NETWORKS: readonly Network[] = ["bitcoin", "bitcoin-testnet", "litecoin", "ethereum", "tron"]

/** Thrown at start-up when a seed file does not describe a usable gateway; names the field. */
export class SeedError extends Error {
  constructor(path: string, problem: string) {
    super(`seed ${path}: ${problem}`)
    this.name = "SeedError"
  }
}

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

function obj(value: unknown, path: string): Json {
  if (!isObject(value)) {
    throw new SeedError(path, "must be an object")
  }
  return value
}

function text(value: unknown, path: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new SeedError(path, "must be a non-empty string")
  }
  return value
}

function decimalText(value: unknown, path: string): string {
  const raw = text(value, path)
  if (parseDecimal(raw) === null) {
    throw new SeedError(path, "must be a decimal string such as \"0.00002\"")
  }
  return raw
}

function integer(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new SeedError(path, "must be an integer >= 0")
  }
  return value
}

function bool(value: unknown, path: string): boolean {
  if (typeof value !== "boolean") {
    throw new SeedError(path, "must be true or false")
  }
  return value
}

function textList(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) {
    throw new SeedError(path, "must be an array of strings")
  }
  return value.map((item, i) => text(item, `${path}[${i}]`))
}

function nullableUrl(value: unknown, path: string): string | null {
  return value === null || value === undefined ? null : text(value, path)
}

function feePlan(value: unknown, path: string): FeePlan {
  const plan = obj(value, path)
  if ("gasLimit" in plan) {
    return {
      gasLimit: text(plan.gasLimit, `${path}.gasLimit`),
      gasPrice: text(plan.gasPrice, `${path}.gasPrice`),
      value: decimalText(plan.value, `${path}.value`),
    }
  }
  return { conf_target: integer(plan.conf_target, `${path}.conf_target`), value: decimalText(plan.value, `${path}.value`) }
}

function coin(value: unknown, path: string): SeedCoin {
  const c = obj(value, path)
  const network = text(c.network, `${path}.network`)
  if (!NETWORKS.includes(network as Network)) {
    throw new SeedError(`${path}.network`, `must be one of ${NETWORKS.join(", ")}`)
  }
  const plans = obj(c.fee_plans, `${path}.fee_plans`)
  return {
    psys_cid: text(c.psys_cid, `${path}.psys_cid`),
    currency: text(c.currency, `${path}.currency`),
    name: text(c.name, `${path}.name`),
    network: network as Network,
    precision: integer(c.precision, `${path}.precision`),
    rate_usd: decimalText(c.rate_usd, `${path}.rate_usd`),
    expected_confirmations: integer(c.expected_confirmations, `${path}.expected_confirmations`),
    invoice_commission_percentage: decimalText(c.invoice_commission_percentage, `${path}.invoice_commission_percentage`),
    min_sum_in: decimalText(c.min_sum_in, `${path}.min_sum_in`),
    internal_transfer: bool(c.internal_transfer, `${path}.internal_transfer`),
    maintenance: bool(c.maintenance, `${path}.maintenance`),
    explorer_tx_url: text(c.explorer_tx_url, `${path}.explorer_tx_url`),
    fee_plans: {
      normal: feePlan(plans.normal, `${path}.fee_plans.normal`),
      priority: feePlan(plans.priority, `${path}.fee_plans.priority`),
    },
  }
}

function shop(value: unknown, path: string, coins: Set<string>): SeedShop {
  const s = obj(value, path)
  const payer = text(s.commission_payer, `${path}.commission_payer`)
  if (payer !== "shop" && payer !== "client") {
    throw new SeedError(`${path}.commission_payer`, "must be \"shop\" or \"client\"")
  }
  const enabled = textList(s.enabled_psys_cids, `${path}.enabled_psys_cids`)
  for (const id of enabled) {
    if (!coins.has(id)) {
      throw new SeedError(`${path}.enabled_psys_cids`, `unknown coin ${id}`)
    }
  }
  const balances: Record<string, string> = {}
  for (const [id, amount] of Object.entries(obj(s.balances, `${path}.balances`))) {
    if (!coins.has(id)) {
      throw new SeedError(`${path}.balances`, `unknown coin ${id}`)
    }
    balances[id] = decimalText(amount, `${path}.balances.${id}`)
  }
  const defaultCid = text(s.default_psys_cid, `${path}.default_psys_cid`)
  if (!enabled.includes(defaultCid)) {
    throw new SeedError(`${path}.default_psys_cid`, "must be one of enabled_psys_cids")
  }
  const userId = s.user_id
  return {
    id: text(s.id, `${path}.id`),
    name: text(s.name, `${path}.name`),
    user_id: integer(userId, `${path}.user_id`),
    secret_key: text(s.secret_key, `${path}.secret_key`),
    white_label: bool(s.white_label, `${path}.white_label`),
    commission_payer: payer,
    status_url: nullableUrl(s.status_url, `${path}.status_url`),
    success_url: nullableUrl(s.success_url, `${path}.success_url`),
    default_psys_cid: defaultCid,
    enabled_psys_cids: enabled,
    request_ips: textList(s.request_ips, `${path}.request_ips`),
    exchange_enabled: bool(s.exchange_enabled, `${path}.exchange_enabled`),
    balances,
  }
}

/**
 * `fiat_currencies`: `{CODE: {rate, minor_units}}`. A seed written before it existed gives
 * `fiat_rates` (`{CODE: rate}`), read with 2 minor units each.
 */
function fiatCurrencies(root: Json): Record<string, SeedFiat> {
  const legacy = root.fiat_currencies === undefined && root.fiat_rates !== undefined
  const field = legacy ? "fiat_rates" : "fiat_currencies"
  const fiat: Record<string, SeedFiat> = {}
  for (const [code, entry] of Object.entries(obj(root[field], field))) {
    const path = `${field}.${code}`
    if (!/^[A-Z]{3}$/.test(code)) {
      throw new SeedError(path, "fiat codes are three upper-case letters")
    }
    if (legacy) {
      fiat[code] = { rate: decimalText(entry, path), minor_units: 2 }
      continue
    }
    const e = obj(entry, path)
    const minorUnits = integer(e.minor_units, `${path}.minor_units`)
    if (minorUnits > 4) {
      throw new SeedError(`${path}.minor_units`, "must be from 0 to 4 (ISO 4217)")
    }
    fiat[code] = { rate: decimalText(e.rate, `${path}.rate`), minor_units: minorUnits }
  }
  if (fiat.USD?.rate !== "1") {
    throw new SeedError(`${field}.USD`, "must have rate \"1\" (rates are per 1 USD)")
  }
  return fiat
}

/** Validates a parsed seed file (see seed/default.json) and returns it typed. */
export function parseSeed(value: unknown): Seed {
  const root = obj(value, "(root)")
  const fiat = fiatCurrencies(root)
  if (!Array.isArray(root.coins)) {
    throw new SeedError("coins", "must be an array")
  }
  const coins = root.coins.map((c, i) => coin(c, `coins[${i}]`))
  const coinIds = new Set(coins.map((c) => c.psys_cid))
  if (coinIds.size !== coins.length) {
    throw new SeedError("coins", "psys_cid values must be unique")
  }
  if (!Array.isArray(root.shops) || root.shops.length === 0) {
    throw new SeedError("shops", "must be a non-empty array")
  }
  const shops = root.shops.map((s, i) => shop(s, `shops[${i}]`, coinIds))
  if (new Set(shops.map((s) => s.secret_key)).size !== shops.length) {
    throw new SeedError("shops", "secret keys must be unique")
  }
  if (new Set(shops.map((s) => s.id)).size !== shops.length) {
    throw new SeedError("shops", "ids must be unique")
  }
  const ex = obj(root.exchange, "exchange")
  const exchangeCids = textList(ex.psys_cids, "exchange.psys_cids")
  for (const id of exchangeCids) {
    if (!coinIds.has(id)) {
      throw new SeedError("exchange.psys_cids", `unknown coin ${id}`)
    }
  }
  return {
    description: typeof root.description === "string" ? root.description : undefined,
    fiat_currencies: fiat,
    coins,
    shops,
    exchange: {
      psys_cids: exchangeCids,
      spread_percent: decimalText(ex.spread_percent, "exchange.spread_percent"),
      processing_seconds: integer(ex.processing_seconds, "exchange.processing_seconds"),
    },
  }
}
