import {
  EmptyResponse,
  depositShopNotFound,
  insufficientFunds,
  invalidAttribute,
  ipNotAllowed,
  unauthorized,
  unsupportedCurrency,
  whiteLabelDisabled,
} from "../core/errors"
import { isValidAddress } from "../core/ids"
import { Dec, roundHalfUp, str, sum } from "../core/money"
import { DEFAULT_EXPIRE_MIN, operationId, operationSubject, type OperationRecord } from "../core/sandbox-core"
import type { FeePlanName, SeedCoin, SeedShop } from "../core/types"
import { toPositiveDecimal } from "./params"
import type { Reply, RequestContext, Route } from "./router"
import {
  currencyEntry,
  exchangeView,
  feePlansResult,
  invoiceResult,
  operationView,
  plansObject,
  withdrawalResult,
  type JsonValue,
} from "./views"

export const API_PREFIX = "/api/v1"
const PLANS: readonly FeePlanName[] = ["normal", "priority"]
const OPERATION_TYPES = ["cash_in", "cash_out", "mass_cash_out", "invoice", "pay_in"] as const
const MAX_PAGE_SIZE = 50
const DEFAULT_PAGE_SIZE = 20
const MAX_OUTPUTS = 100
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const success = (data: JsonValue, status = 200): Reply => ({ status, json: { status: "success", data } })

/** spec §5: the key names the shop; missing or unknown → 401. */
function auth(ctx: RequestContext): SeedShop {
  const shop = ctx.core.shopByKey(ctx.params.text("api_key", 512))
  if (shop === undefined) {
    throw unauthorized()
  }
  return shop
}

/** spec §5.3: the caller's IP must be in the shop's Request IP list. */
export function ipAllowed(shop: SeedShop, ip: string): boolean {
  return shop.request_ips.includes(ip)
}

function positiveDecimal(name: string, value: string, coin: SeedCoin): Dec {
  const amount = toPositiveDecimal(name, value)
  if (amount.decimalPlaces() > coin.precision) {
    throw invalidAttribute(name, `At most ${coin.precision} decimal places for ${coin.psys_cid}.`)
  }
  return amount
}

function validAddresses(name: string, addresses: string[], coin: SeedCoin): void {
  for (const address of addresses) {
    if (!isValidAddress(coin.network, address)) {
      throw invalidAttribute(name, `"${address.slice(0, 100)}" is not a valid ${coin.psys_cid} address.`)
    }
  }
}

function fiatCode(value: string, attribute: string, ctx: RequestContext): { code: string; rate: string } {
  const code = value.toUpperCase()
  const rate = ctx.core.fiatPerUsd(code)
  if (rate === undefined) {
    throw unsupportedCurrency(attribute, value.slice(0, 20))
  }
  return { code, rate }
}

// ---- invoices (spec §4.1) ----------------------------------------------------------------------

async function createInvoice(ctx: RequestContext): Promise<Reply> {
  const shop = auth(ctx)
  const p = ctx.params
  const orderNumber = p.required("order_number", 400, 255)
  const orderName = p.required("order_name", 400, 255)
  const amount = p.decimal("amount")
  const sourceAmount = p.decimal("source_amount")
  if (amount !== null && sourceAmount !== null) {
    throw invalidAttribute("amount", "Give amount or source_amount, not both.")
  }
  const sourceCurrencyText = p.text("source_currency", 10)
  const sourceCurrency = sourceCurrencyText === null ? null : fiatCode(sourceCurrencyText, "source_currency", ctx).code
  const email = p.text("email", 255)
  if (email !== null && !EMAIL.test(email)) {
    throw invalidAttribute("email", "\"email\" is not a valid e-mail address.")
  }
  const language = p.text("language", 10) ?? "en_US"
  if (language !== "en_US") {
    throw invalidAttribute("language", "Only en_US is available.")
  }
  const redirect = p.flag("redirect_to_invoice")
  if (redirect && shop.white_label) {
    throw invalidAttribute("redirect_to_invoice", "Redirect to the invoice page is not available for white-label shops.")
  }
  const { invoice } = await ctx.core.createInvoice(shop, {
    order_number: orderNumber,
    order_name: orderName,
    psys_cid: p.text("currency", 32),
    amount,
    source_currency: sourceCurrency,
    source_amount: sourceAmount,
    allowed_psys_cids: [...new Set(p.list("allowed_psys_cids"))],
    description: p.text("description", 1000),
    email,
    language,
    plugin: p.text("plugin", 64),
    version: p.text("version", 64),
    callback_url: p.url("callback_url"),
    success_callback_url: p.url("success_callback_url"),
    fail_callback_url: p.url("fail_callback_url"),
    success_invoice_url: p.url("success_invoice_url"),
    fail_invoice_url: p.url("fail_invoice_url"),
    expire_min: p.integer("expire_min", 1, 43_200) ?? DEFAULT_EXPIRE_MIN,
    return_existing: p.flag("return_existing"),
  })
  if (redirect) {
    return { status: 302, headers: { location: ctx.core.invoiceUrl(invoice.txn_id) } }
  }
  return success(invoiceResult(ctx.core, invoice, shop))
}

// ---- operations (spec §4.2 – §4.7) -------------------------------------------------------------

function withdraw(ctx: RequestContext): Reply {
  const shop = auth(ctx)
  if (!ipAllowed(shop, ctx.ip)) {
    throw ipNotAllowed(ctx.ip)
  }
  const p = ctx.params
  const coin = ctx.core.requireCoin(p.required("currency", 400, 32), "currency")
  const type = p.oneOf("type", ["cash_out", "mass_cash_out"] as const, "cash_out")
  const plan = p.oneOf("feePlan", PLANS, "normal")
  p.required("to", 400, 20_000)
  p.required("amount", 400, 20_000)
  const to = p.list("to")
  const amounts = p.list("amount")
  if (type === "cash_out" && (to.length !== 1 || amounts.length !== 1)) {
    throw invalidAttribute("to", "cash_out takes exactly one address and one amount.")
  }
  if (to.length !== amounts.length) {
    throw invalidAttribute("amount", "Give one amount per address, in the order of \"to\".")
  }
  if (to.length > MAX_OUTPUTS) {
    throw invalidAttribute("to", `At most ${MAX_OUTPUTS} addresses.`)
  }
  if (new Set(to).size !== to.length) {
    throw invalidAttribute("to", "Each address may appear once.")
  }
  validAddresses("to", to, coin)
  const decimals = amounts.map((a) => positiveDecimal("amount", a, coin))
  const withdrawal = ctx.core.withdraw(shop, { coin, type, to, amounts: decimals, plan })
  return success(withdrawalResult(ctx.core, withdrawal), 201)
}

function matchesSearch(record: OperationRecord, needle: string): boolean {
  const hay: string[] = [operationId(record)]
  if (record.type === "invoice") {
    hay.push(record.invoice.order_number, record.invoice.email ?? "", ...record.invoice.txs.map((t) => t.txid))
  } else if (record.type === "pay_in") {
    hay.push(record.payIn.tx.txid, record.payIn.uid)
  } else if (record.type === "cash_in") {
    hay.push(record.cashIn.txid)
  } else if (record.withdrawal.txid !== null) {
    hay.push(record.withdrawal.txid)
  }
  const lower = needle.toLowerCase()
  return hay.some((h) => h.toLowerCase().includes(lower))
}

/** spec §4.3 with the paging shape of docs/gateway-readings.md#operations-list; unusable paging values fall back to defaults. */
function listOperations(ctx: RequestContext): Reply {
  const shop = auth(ctx)
  const p = ctx.params
  const filters: Record<string, string> = {}
  for (const name of ["shop_id", "type", "status", "currency", "search"]) {
    const value = p.text(name, 255)
    if (value !== null) {
      filters[name] = value
    }
  }
  const records = ctx.core.operations(shop).filter(
    (r) =>
      (filters.shop_id === undefined || filters.shop_id === shop.id) &&
      (filters.type === undefined || (OPERATION_TYPES as readonly string[]).includes(filters.type)) &&
      (filters.type === undefined || r.type === filters.type) &&
      (filters.status === undefined || operationSubject(r).status === filters.status) &&
      (filters.currency === undefined || operationSubject(r).psys_cid === filters.currency) &&
      (filters.search === undefined || matchesSearch(r, filters.search))
  )
  const requested = p.has("per-page") ? p.lenientInteger("per-page", DEFAULT_PAGE_SIZE) : p.lenientInteger("limit", DEFAULT_PAGE_SIZE)
  const perPage = Math.min(MAX_PAGE_SIZE, Math.max(1, requested))
  const pageCount = Math.ceil(records.length / perPage)
  const page = Math.min(Math.max(1, p.lenientInteger("page", 1)), Math.max(1, pageCount))
  const href = (n: number): { href: string } => {
    const q = new URLSearchParams(filters)
    q.set("page", String(n))
    q.set("per-page", String(perPage))
    return { href: `${ctx.core.baseUrl()}${API_PREFIX}/operations?${q.toString()}` }
  }
  const links: Record<string, { href: string }> = {
    self: href(page),
    first: href(1),
    last: href(Math.max(1, pageCount)),
  }
  if (page < pageCount) {
    links.next = href(page + 1)
  }
  if (page > 1) {
    links.prev = href(page - 1)
  }
  return success({
    operations: records.slice((page - 1) * perPage, page * perPage).map((r) => operationView(ctx.core, r, shop, false)),
    _links: links,
    _meta: { totalCount: records.length, pageCount, currentPage: page, perPage },
  })
}

function operationDetail(ctx: RequestContext): Reply {
  const shop = auth(ctx)
  const record = ctx.core.operation(shop, ctx.path.id)
  return success(operationView(ctx.core, record, shop, true))
}

function estimateInput(ctx: RequestContext, coin: SeedCoin): { addresses: string[]; amounts: Dec[]; plan: FeePlanName } {
  const p = ctx.params
  const addresses = p.list("addresses")
  const amounts = p.list("amounts").map((a) => positiveDecimal("amounts", a, coin))
  validAddresses("addresses", addresses, coin)
  if (addresses.length > 0 && amounts.length > 0 && addresses.length !== amounts.length) {
    throw invalidAttribute("amounts", "Give one amount per address.")
  }
  if (addresses.length > MAX_OUTPUTS || amounts.length > MAX_OUTPUTS) {
    throw invalidAttribute("addresses", `At most ${MAX_OUTPUTS} addresses.`)
  }
  return { addresses, amounts, plan: p.oneOf("feePlan", PLANS, "normal") }
}

/** A coin the shop has enabled (the path's `psys_cid` by default), else unsupported. */
function requireSupported(ctx: RequestContext, shop: SeedShop, id = ctx.path.psys_cid): SeedCoin {
  const coin = ctx.core.coin(id)
  if (coin === undefined || !shop.enabled_psys_cids.includes(id)) {
    throw unsupportedCurrency("psys_cid", id.slice(0, 32))
  }
  return coin
}

function commission(ctx: RequestContext): Reply {
  const shop = auth(ctx)
  const coin = requireSupported(ctx, shop)
  const input = estimateInput(ctx, coin)
  const type = ctx.params.oneOf("type", OPERATION_TYPES, "cash_out")
  const total = sum(input.amounts)
  const outgoing = type === "cash_out" || type === "mass_cash_out"
  const fee = outgoing ? ctx.core.networkFee(coin, input.plan, Math.max(input.addresses.length, input.amounts.length)) : new Dec(0)
  const balance = ctx.core.balance(shop, coin.psys_cid)
  if (outgoing && input.amounts.length > 0 && balance.lt(total.plus(fee))) {
    throw insufficientFunds()
  }
  // Withdrawals carry no service commission in the sandbox; incoming operations the coin's percentage.
  const serviceCommission = outgoing ? new Dec(0) : roundHalfUp(total.times(coin.invoice_commission_percentage).div(100), coin.precision)
  return success({
    commission: str(serviceCommission),
    fee: str(fee),
    plan: input.plan,
    useWallet: "0",
    useWalletBalance: str(balance),
    plans: plansObject(coin),
  })
}

function fee(ctx: RequestContext): Reply {
  const shop = auth(ctx)
  const coin = requireSupported(ctx, shop)
  const input = estimateInput(ctx, coin)
  const networkFee = ctx.core.networkFee(coin, input.plan, Math.max(input.addresses.length, input.amounts.length))
  const total = sum(input.amounts)
  if (input.amounts.length > 0 && ctx.core.balance(shop, coin.psys_cid).lt(total.plus(networkFee))) {
    throw insufficientFunds()
  }
  return success({ fee: str(networkFee), psys_cid: coin.psys_cid, currency: coin.currency, plan: input.plan })
}

function feePlans(ctx: RequestContext): Reply {
  const shop = auth(ctx)
  return success(feePlansResult(requireSupported(ctx, shop)))
}

// ---- currencies, balances (spec §4.8, §4.9) ----------------------------------------------------

function currencies(ctx: RequestContext): Reply {
  const shop = auth(ctx)
  const fiat = ctx.path.fiat === undefined ? { code: "USD", rate: "1" } : fiatCode(ctx.path.fiat, "fiat", ctx)
  return success(ctx.core.seed.coins.map((coin) => currencyEntry(ctx.core, coin, shop, fiat.code, fiat.rate)))
}

function balance(ctx: RequestContext): Reply {
  const shop = auth(ctx)
  const coin = requireSupported(ctx, shop)
  return success({ psys_cid: coin.psys_cid, currency: coin.currency, balance: str(ctx.core.balance(shop, coin.psys_cid)) })
}

// ---- deposits (spec §4.10) ---------------------------------------------------------------------

function depositShop(ctx: RequestContext): SeedShop {
  const shop = ctx.core.shopByKey(ctx.params.text("api_key", 512))
  if (shop === undefined) {
    throw depositShopNotFound()
  }
  if (!shop.white_label) {
    throw whiteLabelDisabled()
  }
  return shop
}

async function createDeposit(ctx: RequestContext): Promise<Reply> {
  const shop = depositShop(ctx)
  const p = ctx.params
  p.required("psys_cid", 400, 1000)
  const uid = p.required("uid", 400, 10_000)
  if (uid.length > 255) {
    throw invalidAttribute("uid", "\"uid\" must be at most 255 characters.")
  }
  const requested = [...new Set(p.list("psys_cid"))]
  const coins = requested.map((id) => requireSupported(ctx, shop, id))
  const view = (d: { uid: string; hash: string; psys_cid: string }): JsonValue => ({ uid: d.uid, hash: d.hash, psys_cid: d.psys_cid })
  const deposits = []
  for (const coin of coins) {
    deposits.push(await ctx.core.deposit(shop, uid, coin))
  }
  const single = requested.length === 1 && !p.text("psys_cid")?.includes(",")
  return success(single ? view(deposits[0]) : deposits.map(view))
}

function listDeposits(ctx: RequestContext): Reply {
  const shop = depositShop(ctx)
  const p = ctx.params
  const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, p.lenientInteger("limit", DEFAULT_PAGE_SIZE)))
  const page = Math.max(1, p.lenientInteger("page", 1))
  const all = ctx.core.deposits(shop, { uid: p.text("uid", 255), psysCids: p.list("psys_cid") })
  return success(
    all.slice((page - 1) * limit, page * limit).map((d) => ({ uid: d.uid, hash: d.hash, psys_cid: d.psys_cid }))
  )
}

// ---- exchanges (spec §4.11; bodies are the sandbox's, see README) -------------------------------

function exchangeShop(ctx: RequestContext): SeedShop {
  const shop = auth(ctx)
  if (!shop.exchange_enabled || !ipAllowed(shop, ctx.ip)) {
    throw new EmptyResponse(404)
  }
  return shop
}

function exchangeCoin(ctx: RequestContext, attribute: string): SeedCoin {
  const id = ctx.params.required(attribute, 422, 32)
  const coin = ctx.core.exchangeCoins().find((c) => c.psys_cid === id)
  if (coin === undefined) {
    throw unsupportedCurrency(attribute, id)
  }
  return coin
}

function quote(ctx: RequestContext): ReturnType<RequestContext["core"]["quoteExchange"]> {
  const from = exchangeCoin(ctx, "from_currency")
  const to = exchangeCoin(ctx, "to_currency")
  if (from.psys_cid === to.psys_cid) {
    throw invalidAttribute("to_currency", "from_currency and to_currency must differ.")
  }
  const p = ctx.params
  const fromText = p.text("from_amount", 64)
  const toText = p.text("to_amount", 64)
  if ((fromText === null) === (toText === null)) {
    throw invalidAttribute("from_amount", "Give exactly one of from_amount and to_amount.")
  }
  const amountCurrency = p.text("amount_currency", 32)
  const side = fromText !== null ? from : to
  if (amountCurrency !== null && amountCurrency !== side.psys_cid) {
    throw invalidAttribute("amount_currency", `amount_currency must be ${side.psys_cid}, the currency of the amount given.`)
  }
  return fromText !== null
    ? ctx.core.quoteExchange(from, to, { from: positiveDecimal("from_amount", fromText, from) })
    : ctx.core.quoteExchange(from, to, { to: positiveDecimal("to_amount", toText ?? "", to) })
}

function exchangeList(ctx: RequestContext): Reply {
  exchangeShop(ctx)
  return success(
    ctx.core.exchangeCoins().map((coin) => {
      const limits = ctx.core.exchangeLimits(coin)
      return {
        psys_cid: coin.psys_cid,
        currency: coin.currency,
        name: coin.name,
        precision: String(coin.precision),
        min_amount: str(limits.min),
        max_amount: str(limits.max),
      }
    })
  )
}

function exchangeEstimate(ctx: RequestContext): Reply {
  exchangeShop(ctx)
  const q = quote(ctx)
  return success({
    from_currency: q.from.psys_cid,
    to_currency: q.to.psys_cid,
    from_amount: str(q.fromAmount),
    to_amount: str(q.toAmount),
    rate: str(q.rate),
    fee: str(q.fee),
    fee_currency: q.from.psys_cid,
    expires_at_utc: ctx.core.clock.nowSeconds() + 60,
  })
}

function exchangeCreate(ctx: RequestContext): Reply {
  const shop = exchangeShop(ctx)
  const q = quote(ctx)
  const toAddress = ctx.params.required("to_address", 422, 255)
  validAddresses("to_address", [toAddress], q.to)
  return success(exchangeView(ctx.core, ctx.core.createExchange(shop, q, toAddress)), 201)
}

function exchangeStatus(ctx: RequestContext): Reply {
  const shop = exchangeShop(ctx)
  return success(exchangeView(ctx.core, ctx.core.exchange(shop, ctx.path.id)))
}

const depositRoutes = (prefix: string): Route[] => [
  { method: "GET", pattern: `${API_PREFIX}/${prefix}/deposit/new`, handler: createDeposit },
  { method: "GET", pattern: `${API_PREFIX}/${prefix}/deposit`, handler: listDeposits },
]

/** Every endpoint of spec §4, in match order (fixed paths before `:id`). */
export const apiRoutes: Route[] = [
  { method: "GET", pattern: `${API_PREFIX}/invoices/new`, handler: createInvoice },
  { method: "GET", pattern: `${API_PREFIX}/operations`, handler: listOperations },
  { method: "GET", pattern: `${API_PREFIX}/operations/withdraw`, handler: withdraw },
  { method: "GET", pattern: `${API_PREFIX}/operations/commission/:psys_cid`, handler: commission },
  { method: "GET", pattern: `${API_PREFIX}/operations/fee/:psys_cid`, handler: fee },
  { method: "GET", pattern: `${API_PREFIX}/operations/fee-plan/:psys_cid`, handler: feePlans },
  { method: "GET", pattern: `${API_PREFIX}/operations/:id`, handler: operationDetail },
  { method: "GET", pattern: `${API_PREFIX}/currencies`, handler: currencies },
  { method: "GET", pattern: `${API_PREFIX}/currencies/:fiat`, handler: currencies },
  { method: "GET", pattern: `${API_PREFIX}/balances/:psys_cid`, handler: balance },
  ...depositRoutes("shops"),
  ...depositRoutes("shop"),
  { method: "GET", pattern: `${API_PREFIX}/exchanges/list`, handler: exchangeList },
  { method: "GET", pattern: `${API_PREFIX}/exchanges/estimate`, handler: exchangeEstimate },
  { method: "GET", pattern: `${API_PREFIX}/exchanges/new`, handler: exchangeCreate },
  { method: "GET", pattern: `${API_PREFIX}/exchanges/:id`, handler: exchangeStatus },
]
