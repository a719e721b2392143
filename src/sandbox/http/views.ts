import { LosslessNumber, stringify } from "lossless-json"

import { signCallback } from "../../gateway/core/callbacks"
import { EXCHANGE_STATUS } from "../core/exchanges"
import { STATUS_CODES, figures } from "../core/invoice-machine"
import { Dec, str, sum } from "../core/money"
import type { OperationRecord, SandboxCore } from "../core/sandbox-core"
import type { CashIn, ChainTx, Exchange, ExchangeStatus, FeePlan, Invoice, SeedCoin, SeedShop, Withdrawal } from "../core/types"

/** A JSON value; `LosslessNumber` is written as its exact number text (never through a float). */
export type JsonValue = string | number | boolean | null | LosslessNumber | JsonValue[] | { [key: string]: JsonValue }
export type JsonObject = { [key: string]: JsonValue }

/** Raw JSON number text for the fields spec §2.2/§2.6 allow as numbers ("string or number"). */
export const num = (value: Dec | string): LosslessNumber => new LosslessNumber(typeof value === "string" ? value : str(value))

export function toJson(value: JsonValue): string {
  return stringify(value) ?? "null"
}

const seconds = (ms: number): number => Math.floor(ms / 1000)

/** spec §2.2 tx_url: null without a transaction, a string for one, an array for several. */
function txUrlField(urls: string[]): JsonValue {
  if (urls.length === 0) {
    return null
  }
  return urls.length === 1 ? urls[0] : urls
}

function txEntries(core: SandboxCore, coin: SeedCoin, txs: ChainTx[], addresses: string[], detail: boolean): JsonValue[] {
  return txs.map((tx): JsonValue => {
    const url = core.txUrl(coin, tx.txid)
    if (!detail) {
      return { url, wallet_hash: addresses }
    }
    return {
      url,
      wallet_hash: addresses,
      txid: tx.txid,
      value: tx.value,
      block: tx.block_height === null ? null : { height: tx.block_height, confirmations: tx.confirmations },
      processed: tx.confirmations >= coin.expected_confirmations,
    }
  })
}

/** spec §2.1: the creation result; white-label shops get every field, signed. */
export function invoiceResult(core: SandboxCore, invoice: Invoice, shop: SeedShop): JsonObject {
  if (!shop.white_label) {
    return {
      txn_id: invoice.txn_id,
      invoice_url: core.invoiceUrl(invoice.txn_id),
      invoice_total_sum: invoice.invoice_total_sum,
    }
  }
  const coin = core.requireCoin(invoice.psys_cid, "currency")
  const f = figures(invoice, coin)
  const data = {
    txn_id: invoice.txn_id,
    invoice_url: core.invoiceUrl(invoice.txn_id),
    amount: invoice.amount,
    pending_amount: str(f.pendingAmount),
    wallet_hash: invoice.wallet_hash,
    psys_cid: invoice.psys_cid,
    currency: coin.currency,
    status: invoice.status,
    source_currency: invoice.source_currency,
    source_rate: invoice.source_rate,
    expire_utc: seconds(invoice.expire_at),
    expected_confirmations: String(coin.expected_confirmations),
    qr_code: invoice.qr_code ?? "",
    invoice_commission: invoice.invoice_commission,
    invoice_sum: invoice.invoice_sum,
    invoice_total_sum: invoice.invoice_total_sum,
  }
  // The sandbox's reading of "signature of the data": the spec §6.3 JSON rule over this object,
  // computed by the one signer the verifier mirrors (docs/gateway-readings.md#invoice-verify-hash).
  const { verifyHash } = signCallback(data, { secretKey: shop.secret_key, format: "json" })
  return { ...data, verify_hash: verifyHash }
}

function planParams(plan: FeePlan, name: string): JsonObject {
  if ("gasLimit" in plan) {
    return { plan: name, gasLimit: plan.gasLimit, gasPrice: plan.gasPrice, value: plan.value, unit: "gwei" }
  }
  return { conf_target: plan.conf_target, plan: name, value: plan.value }
}

/** spec §2.6 fee-plan result: UTXO-style `value` is a JSON number, EVM `value` a decimal string. */
export function feePlansResult(coin: SeedCoin): JsonObject {
  const one = (plan: FeePlan): JsonObject =>
    "gasLimit" in plan
      ? { gasLimit: plan.gasLimit, gasPrice: plan.gasPrice, value: plan.value }
      : { conf_target: plan.conf_target, value: num(plan.value) }
  return { normal: one(coin.fee_plans.normal), priority: one(coin.fee_plans.priority) }
}

export function plansObject(coin: SeedCoin): JsonObject {
  return {
    normal: planParams(coin.fee_plans.normal, "normal"),
    priority: planParams(coin.fee_plans.priority, "priority"),
  }
}

/** spec §2.3 */
export function withdrawalResult(core: SandboxCore, w: Withdrawal): JsonObject {
  const coin = core.requireCoin(w.psys_cid, "currency")
  const result: JsonObject = {
    type: w.type,
    status: w.status,
    psys_cid: w.psys_cid,
    currency: coin.currency,
    source_currency: "USD",
    source_rate: coin.rate_usd,
    fee: w.fee,
  }
  if (w.type === "cash_out") {
    result.wallet_hash = w.to[0]
  } else {
    result.sendmany = sendmany(w)
  }
  result.params = { fee: planParams(coin.fee_plans[w.plan], w.plan) }
  result.created_at_utc = seconds(w.created_at)
  result.amount = str(sum(w.amounts))
  // spec §2.3 gives tx_url as a string; a withdrawal in `error` sent nothing, so it has none (null).
  result.tx_url = w.txid === null ? null : core.txUrl(coin, w.txid)
  result.id = w.id
  return result
}

function sendmany(w: Withdrawal): JsonObject {
  const map: JsonObject = {}
  w.to.forEach((address, i) => {
    map[address] = w.amounts[i]
  })
  return map
}

/** spec §2.2: the fields every operation has; a white-label shop gets the rest. */
function operationBase(shop: SeedShop, type: string, status: string, txUrl: JsonValue, id: string): JsonObject {
  return { user_id: shop.user_id, shop_id: shop.id, type, status, tx_url: txUrl, id }
}

/**
 * spec §2.2. The base fields always; the white-label fields only for white-label shops.
 * `created_at_utc` and `finished_at_utc` are milliseconds here (spec §1.5 allows either).
 */
export function operationView(core: SandboxCore, record: OperationRecord, shop: SeedShop, detail: boolean): JsonObject {
  switch (record.type) {
    case "invoice":
      return invoiceOperation(core, record.invoice, shop, detail)
    case "pay_in": {
      const p = record.payIn
      const coin = core.requireCoin(p.psys_cid, "currency")
      const base = operationBase(shop, "pay_in", p.status, core.txUrl(coin, p.tx.txid), p.id)
      if (!shop.white_label) {
        return base
      }
      const confirmed = p.status === "completed"
      const view: JsonObject = {
        ...base,
        pending_sum: num(confirmed ? "0" : p.amount),
        psys_cid: p.psys_cid,
        currency: coin.currency,
        source_currency: "USD",
        source_rate: coin.rate_usd,
        fee: null,
        wallet_hash: p.hash,
        sendmany: null,
        expire_at_utc: null,
        created_at_utc: p.created_at,
        amount: p.amount,
        sum: num(p.amount),
        commission: p.commission,
        actual_sum: num(confirmed ? p.amount : "0"),
        actual_commission: confirmed ? p.commission : null,
        actual_fee: confirmed ? num("0") : null,
        actual_invoice_sum: confirmed ? str(new Dec(p.amount).minus(p.commission)) : null,
        tx_id: [p.tx.txid],
        tx: txEntries(core, coin, [p.tx], [p.hash], detail),
        confirmations: p.tx.confirmations,
        status_code: confirmed ? 3 : 1,
        child_ids: [],
        params: { value: p.amount, source_currency: "USD", source_rate: coin.rate_usd, deposit_uid: p.uid },
      }
      return detail ? { ...view, ...detailExtras(0, coin.invoice_commission_percentage, p.commission, "", p.finished_at) } : view
    }
    case "cash_in":
      return cashInOperation(core, record.cashIn, shop, detail)
    default: {
      const w = record.withdrawal
      const coin = core.requireCoin(w.psys_cid, "currency")
      const sent = w.txid !== null
      const base = operationBase(shop, w.type, w.status, w.txid === null ? null : core.txUrl(coin, w.txid), w.id)
      if (!shop.white_label) {
        return base
      }
      const amount = sum(w.amounts)
      const view: JsonObject = {
        ...base,
        pending_sum: num("0"),
        psys_cid: w.psys_cid,
        currency: coin.currency,
        source_currency: "USD",
        source_rate: coin.rate_usd,
        fee: w.fee,
        wallet_hash: w.type === "cash_out" ? w.to[0] : null,
        sendmany: w.type === "mass_cash_out" ? sendmany(w) : null,
        expire_at_utc: null,
        created_at_utc: w.created_at,
        amount: str(amount),
        sum: num(amount.plus(w.fee)),
        commission: "0",
        actual_sum: num(sent ? amount.plus(w.fee) : "0"),
        actual_commission: "0",
        actual_fee: sent ? num(w.fee) : null,
        actual_invoice_sum: null,
        tx_id: w.txid === null ? null : [w.txid],
        tx:
          w.txid === null
            ? []
            : txEntries(
                core,
                coin,
                [{ txid: w.txid, value: str(amount), confirmations: coin.expected_confirmations, block_height: null, seen_at: w.created_at }],
                w.to,
                detail
              ),
        confirmations: sent ? coin.expected_confirmations : 0,
        status_code: STATUS_CODES[w.status],
        child_ids: [],
        params: {
          fee: planParams(coin.fee_plans[w.plan], w.plan),
          source_currency: "USD",
          source_rate: coin.rate_usd,
        },
      }
      return detail ? { ...view, ...detailExtras(0, "0", "0", "", w.created_at) } : view
    }
  }
}

function detailExtras(
  commissionPayment: number,
  percent: string,
  commission: string,
  memo: string,
  finishedAt: number | null
): JsonObject {
  return {
    commissionPayment,
    commis_percent: percent,
    commis_sum: commission,
    memo,
    finished_at_utc: finishedAt,
  }
}

/** spec §2.2 `cash_in`: the received amount is `sum` and `params.value`. */
function cashInOperation(core: SandboxCore, c: CashIn, shop: SeedShop, detail: boolean): JsonObject {
  const coin = core.requireCoin(c.psys_cid, "currency")
  const base = operationBase(shop, "cash_in", c.status, core.txUrl(coin, c.txid), c.id)
  if (!shop.white_label) {
    return base
  }
  const view: JsonObject = {
    ...base,
    pending_sum: num("0"),
    psys_cid: c.psys_cid,
    currency: coin.currency,
    source_currency: "USD",
    source_rate: coin.rate_usd,
    fee: null,
    wallet_hash: null,
    sendmany: null,
    expire_at_utc: null,
    created_at_utc: c.created_at,
    amount: c.amount,
    sum: num(c.amount),
    commission: "0",
    actual_sum: num(c.amount),
    actual_commission: "0",
    actual_fee: num("0"),
    actual_invoice_sum: c.amount,
    tx_id: [c.txid],
    tx: txEntries(
      core,
      coin,
      [{ txid: c.txid, value: c.amount, confirmations: coin.expected_confirmations, block_height: null, seen_at: c.created_at }],
      [],
      detail
    ),
    confirmations: coin.expected_confirmations,
    status_code: STATUS_CODES[c.status],
    child_ids: [],
    params: { value: c.amount, source_currency: "USD", source_rate: coin.rate_usd },
  }
  return detail ? { ...view, ...detailExtras(0, "0", "0", "", c.created_at) } : view
}

function invoiceOperation(core: SandboxCore, invoice: Invoice, shop: SeedShop, detail: boolean): JsonObject {
  const coin = core.requireCoin(invoice.psys_cid, "currency")
  const f = figures(invoice, coin)
  const base = operationBase(shop, "invoice", invoice.status, txUrlField(invoice.txs.map((t) => core.txUrl(coin, t.txid))), invoice.txn_id)
  if (!shop.white_label) {
    return base
  }
  const finished = invoice.finished_at !== null
  const actualCommission = core.actualCommission(invoice, coin)
  const view: JsonObject = {
    ...base,
    pending_sum: num(f.unconfirmed),
    psys_cid: invoice.psys_cid,
    currency: coin.currency,
    source_currency: invoice.source_currency,
    source_rate: invoice.source_rate,
    fee: null,
    wallet_hash: invoice.wallet_hash,
    sendmany: null,
    expire_at_utc: seconds(invoice.expire_at),
    created_at_utc: invoice.created_at,
    amount: str(f.received),
    sum: num(invoice.invoice_total_sum),
    commission: invoice.invoice_commission,
    actual_sum: num(f.confirmed),
    actual_commission: finished ? str(actualCommission) : null,
    actual_fee: finished ? num("0") : null,
    actual_invoice_sum: finished ? str(f.confirmed.minus(actualCommission)) : null,
    tx_id: invoice.txs.length === 0 ? null : invoice.txs.map((t) => t.txid),
    tx: txEntries(core, coin, invoice.txs, [invoice.wallet_hash], detail),
    confirmations: f.confirmations,
    status_code: STATUS_CODES[invoice.status],
    ...(invoice.parent_id === null ? {} : { parent_id: invoice.parent_id }),
    child_ids: invoice.child_ids,
    params: {
      order_number: invoice.order_number,
      order_name: invoice.order_name,
      description: invoice.description,
      source_amount: invoice.source_amount,
      source_currency: invoice.source_currency,
      source_rate: invoice.source_rate,
      currency: invoice.psys_cid,
      amount: invoice.amount,
    },
  }
  if (!detail) {
    return view
  }
  return {
    ...view,
    ...detailExtras(
      invoice.commission_payer === "client" ? 1 : 0,
      invoice.commission_percent,
      invoice.invoice_commission,
      invoice.description ?? "",
      invoice.finished_at
    ),
  }
}

/** spec §2.4 */
export function currencyEntry(core: SandboxCore, coin: SeedCoin, shop: SeedShop, fiat: string, fiatPerUsd: string): JsonObject {
  return {
    name: coin.name,
    cid: coin.psys_cid,
    currency: coin.currency,
    icon: `${core.baseUrl()}/icons/${encodeURIComponent(coin.psys_cid)}.svg`,
    rate_usd: coin.rate_usd,
    price_usd: coin.rate_usd,
    precision: String(coin.precision),
    fiat,
    fiat_rate: str(new Dec(coin.rate_usd).times(fiatPerUsd)),
    min_sum_in: coin.min_sum_in,
    invoice_commission_percentage: coin.invoice_commission_percentage,
    hidden: shop.enabled_psys_cids.includes(coin.psys_cid) ? 0 : 1,
    maintenance: coin.maintenance,
  }
}

/** An exchange as `GET /exchanges/{id}` (and the control API's `finish`) answers it. */
export type ExchangeBody = {
  id: string
  status: ExchangeStatus
  from_currency: string
  to_currency: string
  from_amount: string
  to_amount: string
  rate: string
  fee: string
  fee_currency: string
  to_address: string
  /** set once the to coins went out (`completed`); null while `processing` and in `error` */
  tx_url: string | null
  created_at_utc: number
  finished_at_utc: number | null
}

/** The sandbox's exchange bodies (spec §2.8 shows none; see README). */
export function exchangeView(core: SandboxCore, e: Exchange): ExchangeBody {
  const to = core.requireCoin(e.to_currency, "to_currency")
  return {
    id: e.id,
    status: e.status,
    from_currency: e.from_currency,
    to_currency: e.to_currency,
    from_amount: e.from_amount,
    to_amount: e.to_amount,
    rate: e.rate,
    fee: e.fee,
    fee_currency: e.from_currency,
    to_address: e.to_address,
    tx_url: EXCHANGE_STATUS[e.status].sent ? core.txUrl(to, e.txid) : null,
    created_at_utc: seconds(e.created_at),
    finished_at_utc: e.finished_at === null ? null : seconds(e.finished_at),
  }
}
