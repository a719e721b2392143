/**
 * Response normalizers, one per result shape of spec §2. Each declares, field by field, what the
 * gateway may send and what the client returns: every decimal field a `Decimal` (string or JSON
 * number, spec §1.5), every `*_utc` in seconds, `tx_url` an array; unknown fields kept.
 */
import Decimal from "decimal.js"
import { GatewayResponseError } from "../core/errors"
import { isReceivedDecimal } from "../core/money"
import type { Balance } from "../types/balances"
import type { Currency } from "../types/currencies"
import type { Deposit } from "../types/deposits"
import type { Exchange, ExchangeCurrencies, ExchangeEstimate } from "../types/exchanges"
import type { Invoice } from "../types/invoices"
import type {
  CommissionEstimate,
  FeeEstimate,
  FeePlans,
  Operation,
  OperationList,
  OperationListLinks,
  OperationListMeta,
  Withdrawal,
} from "../types/operations"
import {
  arrayOf,
  boolean,
  decimal,
  decimalMap,
  type FieldParser,
  integer,
  object,
  expectObject,
  passthrough,
  requiredObject,
  type Schema,
  setOwn,
  string,
  stringArray,
  timestamp,
  txUrls,
} from "./fields"
import { isJsonObject, isLosslessNumber } from "./json"
import { redactUrl } from "./redact"

/*
 * The parsers below return `Record<string, unknown>` built from a schema; the casts to the public
 * interfaces are sound because each schema parses exactly the fields its interface declares.
 */

const feeSchema: Schema = {
  conf_target: integer,
  plan: string,
  value: decimal,
  gasLimit: string,
  gasPrice: decimal,
  nonce: string,
  dynamicField: string,
  unit: string,
}

const paramsSchema: Schema = {
  fee: object(feeSchema),
  order_number: string,
  order_name: string,
  description: string,
  source_amount: decimal,
  source_currency: string,
  source_rate: decimal,
  currency: string,
  amount: decimal,
  value: decimal,
}

const txSchema: Schema = {
  url: string,
  wallet_hash: stringArray,
  txid: string,
  value: decimal,
  processed: boolean,
}

const operationSchema: Schema = {
  id: string,
  user_id: integer,
  shop_id: string,
  type: string,
  status: string,
  tx_url: txUrls,
  pending_sum: decimal,
  psys_cid: string,
  currency: string,
  source_currency: string,
  source_rate: decimal,
  fee: decimal,
  wallet_hash: string,
  sendmany: decimalMap,
  expire_at_utc: timestamp,
  created_at_utc: timestamp,
  amount: decimal,
  sum: decimal,
  commission: decimal,
  actual_sum: decimal,
  actual_commission: decimal,
  actual_fee: decimal,
  actual_invoice_sum: decimal,
  tx_id: stringArray,
  tx: arrayOf(requiredObject(txSchema)),
  confirmations: integer,
  status_code: integer,
  parent_id: string,
  child_ids: stringArray,
  params: object(paramsSchema),
  commissionPayment: integer,
  commis_percent: string,
  commis_sum: decimal,
  memo: string,
  finished_at_utc: timestamp,
}

const parseOperationObject = requiredObject(operationSchema, {
  required: ["id", "type", "status"],
  defaults: { tx_url: () => [] },
})

const invoiceSchema: Schema = {
  txn_id: string,
  invoice_url: string,
  invoice_total_sum: decimal,
  amount: decimal,
  pending_amount: decimal,
  wallet_hash: string,
  psys_cid: string,
  currency: string,
  status: string,
  source_currency: string,
  source_rate: decimal,
  expire_utc: timestamp,
  expected_confirmations: string,
  qr_code: string,
  verify_hash: string,
  invoice_commission: decimal,
  invoice_sum: decimal,
}

const withdrawalSchema: Schema = {
  id: string,
  type: string,
  status: string,
  psys_cid: string,
  currency: string,
  source_currency: string,
  source_rate: decimal,
  fee: decimal,
  wallet_hash: string,
  sendmany: decimalMap,
  params: object(paramsSchema),
  created_at_utc: timestamp,
  amount: decimal,
  tx_url: txUrls,
}

const currencySchema: Schema = {
  name: string,
  cid: string,
  currency: string,
  icon: string,
  rate_usd: decimal,
  price_usd: decimal,
  precision: string,
  fiat: string,
  fiat_rate: decimal,
  min_sum_in: decimal,
  invoice_commission_percentage: string,
  hidden: integer,
  maintenance: boolean,
}

const balanceSchema: Schema = { psys_cid: string, currency: string, balance: decimal }

const feePlanSchema: Schema = { conf_target: integer, value: decimal, gasLimit: string, gasPrice: decimal }

const depositSchema: Schema = { uid: string, hash: string, psys_cid: string }

/** Every plan of a fee-plan map (`normal`, `priority`, and any plan the gateway adds). */
const feePlans: FieldParser<FeePlans | null> = (value, path) => {
  if (value === null) return null
  const raw = expectObject(value, path)
  const plans: FeePlans = {}
  const parsePlan = requiredObject(feePlanSchema)
  for (const [key, plan] of Object.entries(raw)) setOwn(plans, key, parsePlan(plan, `${path}.${key}`))
  return plans
}

const feeEstimateSchema: Schema = { fee: decimal, psys_cid: string, currency: string, plan: string }

const commissionSchema: Schema = {
  commission: decimal,
  fee: decimal,
  plan: string,
  useWallet: string,
  useWalletBalance: string,
  plans: feePlans,
}

const DATA = "data"

export function parseInvoice(data: unknown): Invoice {
  return requiredObject(invoiceSchema, { required: ["txn_id"] })(data, DATA) as Invoice
}

export function parseOperation(data: unknown): Operation {
  return parseOperationObject(data, DATA) as Operation
}

export function parseWithdrawal(data: unknown): Withdrawal {
  return requiredObject(withdrawalSchema, {
    required: ["id", "type", "status"],
    defaults: { tx_url: () => [] },
  })(data, DATA) as Withdrawal
}

const metaSchema: Schema = { totalCount: integer, pageCount: integer, currentPage: integer, perPage: integer }

/** One page of the operations list (spec §4.3): operations, `_links` (hrefs masked), `_meta`. */
export function parseOperationList(data: unknown): OperationList {
  const raw = expectObject(data, DATA)
  const operations = arrayOf(parseOperationObject)(raw.operations, `${DATA}.operations`)
  if (operations === null || raw.operations === undefined) {
    throw new GatewayResponseError("Gateway response field data.operations is missing", { field: `${DATA}.operations` })
  }
  const meta =
    raw._meta === undefined || raw._meta === null
      ? null
      : requiredObject(metaSchema, { required: ["totalCount", "pageCount", "currentPage", "perPage"] })(
          raw._meta,
          `${DATA}._meta`
        )
  const page: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(raw)) {
    if (key !== "operations" && key !== "_links" && key !== "_meta") setOwn(page, key, passthrough(value, `${DATA}.${key}`, key))
  }
  return {
    ...page,
    operations: operations as Operation[],
    _links: parseLinks(raw._links),
    _meta: meta as OperationListMeta | null,
  }
}

/**
 * `_links` of a page. The gateway builds these from the request URL, so they may carry the
 * api_key: the value is masked before the links leave the client (spec §5.1).
 */
function parseLinks(value: unknown): OperationListLinks {
  const links: OperationListLinks = {}
  if (value === undefined || value === null) return links
  for (const [rel, link] of Object.entries(expectObject(value, `${DATA}._links`))) {
    const href = isJsonObject(link) ? link.href : undefined
    if (typeof href !== "string") {
      throw new GatewayResponseError(`Gateway response field ${DATA}._links.${rel}.href: expected a string`, {
        field: `${DATA}._links.${rel}.href`,
      })
    }
    setOwn(links, rel, { href: redactUrl(href) })
  }
  return links
}

export function parseCurrencies(data: unknown): Currency[] {
  const list = arrayOf(requiredObject(currencySchema, { required: ["cid"] }))(data, DATA)
  if (list === null) throw new GatewayResponseError("Gateway response field data: expected an array, got null", { field: DATA })
  return list as Currency[]
}

export function parseBalance(data: unknown): Balance {
  return requiredObject(balanceSchema, { required: ["balance"] })(data, DATA) as Balance
}

export function parseFeePlans(data: unknown): FeePlans {
  const plans = feePlans(data, DATA)
  if (plans === null) throw new GatewayResponseError("Gateway response field data: expected an object, got null", { field: DATA })
  return plans
}

export function parseFeeEstimate(data: unknown): FeeEstimate {
  return requiredObject(feeEstimateSchema, { required: ["fee"] })(data, DATA) as FeeEstimate
}

export function parseCommissionEstimate(data: unknown): CommissionEstimate {
  return requiredObject(commissionSchema, { required: ["commission"] })(data, DATA) as CommissionEstimate
}

const parseDepositObject = requiredObject(depositSchema, { required: ["uid", "hash", "psys_cid"] })

export function parseDeposit(data: unknown, path = DATA): Deposit {
  return parseDepositObject(data, path) as Deposit
}

/** Deposits: an array, or a single deposit object where one was expected in an array. */
export function parseDepositArray(data: unknown): Deposit[] {
  if (Array.isArray(data)) return data.map((item, index) => parseDeposit(item, `${DATA}[${index}]`))
  return [parseDeposit(data)]
}

/**
 * Exchange bodies are undocumented (spec §2.8): kept as sent, with JSON numbers lossless, `*_utc`
 * in seconds, and decimal strings under money-like names (`*amount`, `*rate`, `*fee`, `*sum`,
 * `*commission`, `*balance`, `*price`) made `Decimal`s.
 */
const MONEY_NAME = /(amount|rate|fee|sum|commission|balance|price)$/i

export function parseExchangeValue(value: unknown, path = DATA, key = ""): unknown {
  if (typeof value === "string" && MONEY_NAME.test(key) && isReceivedDecimal(value)) return new Decimal(value)
  if (Array.isArray(value)) return value.map((item, index) => parseExchangeValue(item, `${path}[${index}]`))
  if (isJsonObject(value)) {
    const out: Record<string, unknown> = {}
    for (const [name, item] of Object.entries(value)) {
      setOwn(out, name, parseExchangeValue(item, `${path}.${name}`, name))
    }
    return out
  }
  if (isLosslessNumber(value)) return passthrough(value, path, key)
  return value
}

function parseExchangeObject(data: unknown): Record<string, unknown> {
  const raw = expectObject(data, DATA)
  const out: Record<string, unknown> = {}
  for (const [name, item] of Object.entries(raw)) {
    // An id is an identifier, not a quantity: keep a numeric one as its exact text.
    setOwn(out, name, name === "id" ? string(item, `${DATA}.id`) : parseExchangeValue(item, `${DATA}.${name}`, name))
  }
  return out
}

export function parseExchange(data: unknown): Exchange {
  return parseExchangeObject(data)
}

export function parseExchangeEstimate(data: unknown): ExchangeEstimate {
  return parseExchangeObject(data)
}

export function parseExchangeCurrencies(data: unknown): ExchangeCurrencies {
  return parseExchangeValue(data)
}
