import { SandboxClock } from "./clock"
import {
  CallbackDispatcher,
  DEFAULT_RETRY,
  type CallbackFields,
  type CallbackSigner,
  type Delivery,
  type RetryPolicy,
} from "./dispatcher"
import { feeCannotBeEstimated, insufficientFunds, invalidAttribute, notFound, unsupportedCurrency } from "./errors"
import { ids } from "./ids"
import { STATUS_CODES, figures, isTerminal, nextState } from "./invoice-machine"
import { Dec, roundDown, roundHalfUp, roundUp, str, sum } from "./money"
import { paymentUri, qrBase64 } from "./qr"
import { cryptoForFiat, fiatForCrypto, priceInFiat, splitCommission } from "./rates"
import type {
  ChainTx,
  Deposit,
  Exchange,
  FeePlanName,
  Invoice,
  InvoiceStatus,
  PayIn,
  SandboxState,
  Seed,
  SeedCoin,
  SeedShop,
  Withdrawal,
} from "./types"

export interface SandboxCoreOptions {
  seed: Seed
  sign: CallbackSigner
  clock?: SandboxClock
  retry?: RetryPolicy
  /** base URL the hosted invoice pages are served from (known once the server listens) */
  publicUrl: () => string
  /** how long `pending internal` lasts on coins with an internal transfer (default 60 s) */
  internalTransferSeconds?: number
  /** called after every change of state (the CLI saves the state file) */
  onChange?: () => void
}

export interface CreateInvoiceInput {
  order_number: string
  order_name: string
  psys_cid: string | null
  amount: Dec | null
  source_currency: string | null
  source_amount: Dec | null
  allowed_psys_cids: string[]
  description: string | null
  email: string | null
  language: string
  plugin: string | null
  version: string | null
  callback_url: string | null
  success_callback_url: string | null
  fail_callback_url: string | null
  success_invoice_url: string | null
  fail_invoice_url: string | null
  expire_min: number
  return_existing: boolean
}

export interface PayInput {
  amount: Dec | null
  confirmations: number | null
  error: boolean
}

export type OperationRecord =
  | { type: "invoice"; created_at: number; invoice: Invoice }
  | { type: "cash_out" | "mass_cash_out"; created_at: number; withdrawal: Withdrawal }
  | { type: "pay_in"; created_at: number; payIn: PayIn }

export interface ExchangeQuote {
  from: SeedCoin
  to: SeedCoin
  fromAmount: Dec
  toAmount: Dec
  rate: Dec
  fee: Dec
}

export const DEFAULT_EXPIRE_MIN = 600
const PAID: readonly InvoiceStatus[] = ["completed", "mismatch"]
const FAILED: readonly InvoiceStatus[] = ["expired", "cancelled", "error"]

function emptyState(seed: Seed): SandboxState {
  const balances: Record<string, Record<string, string>> = {}
  for (const shop of seed.shops) {
    balances[shop.id] = {}
    for (const coin of seed.coins) {
      balances[shop.id][coin.psys_cid] = shop.balances[coin.psys_cid] ?? "0"
    }
  }
  return {
    version: 1,
    clock_offset_ms: 0,
    balances,
    invoices: {},
    withdrawals: {},
    deposits: [],
    pay_ins: {},
    exchanges: {},
    block_height: 840_000,
  }
}

/**
 * The emulated gateway: shops, balances, invoices and their state machine, withdrawals, deposits,
 * exchanges, and the callbacks each change sends. Transport-free: the HTTP layer validates the wire
 * parameters and renders the results.
 */
export class SandboxCore {
  readonly seed: Seed
  readonly clock: SandboxClock
  readonly dispatcher: CallbackDispatcher
  private state: SandboxState
  private readonly publicUrl: () => string
  private readonly internalTransferMs: number
  private readonly onChange: () => void

  constructor(options: SandboxCoreOptions) {
    this.seed = options.seed
    this.clock = options.clock ?? new SandboxClock()
    this.dispatcher = new CallbackDispatcher(options.sign, options.retry ?? DEFAULT_RETRY, ids.delivery, (shopId) =>
      this.seed.shops.find((s) => s.id === shopId)?.secret_key
    )
    this.state = emptyState(options.seed)
    this.publicUrl = options.publicUrl
    this.internalTransferMs = (options.internalTransferSeconds ?? 60) * 1000
    this.onChange = options.onChange ?? (() => undefined)
  }

  // ---- shops, coins, rates -------------------------------------------------------------------

  get shops(): readonly SeedShop[] {
    return this.seed.shops
  }

  shopByKey(apiKey: string | null): SeedShop | undefined {
    return apiKey === null ? undefined : this.seed.shops.find((s) => s.secret_key === apiKey)
  }

  shopById(id: string): SeedShop | undefined {
    return this.seed.shops.find((s) => s.id === id)
  }

  coin(psysCid: string): SeedCoin | undefined {
    return this.seed.coins.find((c) => c.psys_cid === psysCid)
  }

  /** The coin or a 105 naming the attribute (spec §7). */
  requireCoin(psysCid: string, attribute: string): SeedCoin {
    const coin = this.coin(psysCid)
    if (coin === undefined) {
      throw unsupportedCurrency(attribute, psysCid)
    }
    return coin
  }

  fiatPerUsd(code: string): string | undefined {
    return this.seed.fiat_rates[code]
  }

  balance(shop: SeedShop, psysCid: string): Dec {
    return new Dec(this.state.balances[shop.id]?.[psysCid] ?? "0")
  }

  baseUrl(): string {
    return this.publicUrl()
  }

  invoiceUrl(txnId: string): string {
    return `${this.publicUrl()}/invoice/${encodeURIComponent(txnId)}`
  }

  txUrl(coin: SeedCoin, txid: string): string {
    return coin.explorer_tx_url.replace("{txid}", txid)
  }

  private addBalance(shopId: string, psysCid: string, delta: Dec): void {
    const balances = this.state.balances[shopId] ?? (this.state.balances[shopId] = {})
    balances[psysCid] = str(new Dec(balances[psysCid] ?? "0").plus(delta))
  }

  // ---- invoices ------------------------------------------------------------------------------

  invoice(txnId: string): Invoice | undefined {
    return this.state.invoices[txnId]
  }

  /** The invoice of this shop, or 111 (another shop's invoice does not exist for this key). */
  requireInvoice(shop: SeedShop, txnId: string): Invoice {
    const invoice = this.state.invoices[txnId]
    if (invoice === undefined || invoice.shop_id !== shop.id) {
      throw notFound()
    }
    return invoice
  }

  async createInvoice(shop: SeedShop, input: CreateInvoiceInput): Promise<{ invoice: Invoice; existing: boolean }> {
    this.tick()
    const existing = Object.values(this.state.invoices).find(
      (i) => i.shop_id === shop.id && i.order_number === input.order_number && i.parent_id === null
    )
    if (existing !== undefined) {
      if (input.return_existing) {
        return { invoice: existing, existing: true }
      }
      throw invalidAttribute("order_number", `Order number "${input.order_number}" has already been taken.`)
    }
    for (const id of input.allowed_psys_cids) {
      if (!shop.enabled_psys_cids.includes(id)) {
        throw unsupportedCurrency("allowed_psys_cids", id)
      }
    }
    const psysCid = input.psys_cid ?? input.allowed_psys_cids[0] ?? shop.default_psys_cid
    const coin = this.requireCoin(psysCid, "currency")
    if (!shop.enabled_psys_cids.includes(psysCid)) {
      throw unsupportedCurrency("currency", psysCid)
    }
    if (input.allowed_psys_cids.length > 0 && !input.allowed_psys_cids.includes(psysCid)) {
      throw invalidAttribute("allowed_psys_cids", `The list must contain the invoice currency "${psysCid}".`)
    }
    const sourceCurrency = input.source_currency ?? "USD"
    const fiatRate = this.fiatPerUsd(sourceCurrency)
    if (fiatRate === undefined) {
      throw unsupportedCurrency("source_currency", sourceCurrency)
    }
    const price = priceInFiat(coin, fiatRate)
    let amount: Dec
    let sourceAmount: Dec
    if (input.amount !== null) {
      amount = input.amount
      sourceAmount = fiatForCrypto(amount, price)
    } else if (input.source_amount !== null) {
      sourceAmount = input.source_amount
      amount = cryptoForFiat(sourceAmount, price, coin.precision)
    } else {
      throw invalidAttribute("amount", "Either amount or source_amount is required.")
    }
    if (amount.decimalPlaces() > coin.precision) {
      throw invalidAttribute("amount", `At most ${coin.precision} decimal places for ${coin.psys_cid}.`)
    }
    if (amount.lt(coin.min_sum_in)) {
      throw invalidAttribute("amount", `The amount must be at least ${coin.min_sum_in} ${coin.currency}.`)
    }
    const now = this.clock.now()
    const invoice = await this.buildInvoice(shop, coin, {
      txn_id: ids.invoice(),
      order_number: input.order_number,
      order_name: input.order_name,
      description: input.description,
      email: input.email,
      language: input.language,
      plugin: input.plugin,
      version: input.version,
      amount,
      source_currency: sourceCurrency,
      source_amount: sourceAmount,
      source_rate: price,
      created_at: now,
      expire_at: now + input.expire_min * 60_000,
      callback_url: input.callback_url,
      success_callback_url: input.success_callback_url,
      fail_callback_url: input.fail_callback_url,
      success_invoice_url: input.success_invoice_url,
      fail_invoice_url: input.fail_invoice_url,
      allowed_psys_cids: input.allowed_psys_cids,
      parent_id: null,
      switch_id: null,
    })
    this.state.invoices[invoice.txn_id] = invoice
    this.onChange()
    return { invoice, existing: false }
  }

  private async buildInvoice(
    shop: SeedShop,
    coin: SeedCoin,
    base: Pick<
      Invoice,
      | "txn_id"
      | "order_number"
      | "order_name"
      | "description"
      | "email"
      | "language"
      | "plugin"
      | "version"
      | "source_currency"
      | "created_at"
      | "expire_at"
      | "callback_url"
      | "success_callback_url"
      | "fail_callback_url"
      | "success_invoice_url"
      | "fail_invoice_url"
      | "allowed_psys_cids"
      | "parent_id"
      | "switch_id"
    > & { amount: Dec; source_amount: Dec; source_rate: Dec }
  ): Promise<Invoice> {
    const split = splitCommission(base.amount, coin.invoice_commission_percentage, coin.precision, shop.commission_payer)
    const wallet = ids.address(coin.network)
    return {
      ...base,
      shop_id: shop.id,
      psys_cid: coin.psys_cid,
      amount: str(base.amount),
      source_amount: str(base.source_amount),
      source_rate: str(base.source_rate),
      invoice_commission: str(split.commission),
      invoice_sum: str(split.invoiceSum),
      invoice_total_sum: str(split.invoiceTotalSum),
      commission_percent: coin.invoice_commission_percentage,
      commission_payer: shop.commission_payer,
      wallet_hash: wallet,
      qr_code: shop.white_label ? await qrBase64(paymentUri(coin.network, wallet, str(split.invoiceTotalSum))) : null,
      status: "new",
      txs: [],
      finished_at: null,
      internal_started_at: null,
      error_reason: null,
      child_ids: [],
      credited: null,
    }
  }

  /** The invoice's QR code, made on first use (PNG encoding is the slow part of creating one). */
  async qrCode(invoice: Invoice): Promise<string> {
    if (invoice.qr_code === null) {
      const coin = this.requireCoin(invoice.psys_cid, "psys_cid")
      invoice.qr_code = await qrBase64(paymentUri(coin.network, invoice.wallet_hash, invoice.invoice_total_sum))
    }
    return invoice.qr_code
  }

  /** Every invoice of the switch chain the invoice belongs to, the first one first. */
  chain(invoice: Invoice): Invoice[] {
    if (invoice.switch_id === null) {
      return [invoice]
    }
    const root = this.state.invoices[invoice.switch_id]
    if (root === undefined) {
      return [invoice]
    }
    return [root, ...root.child_ids.map((id) => this.state.invoices[id]).filter((i): i is Invoice => i !== undefined)]
  }

  /** A payment seen on the chain (control API `pay`, the hosted page's buttons). */
  pay(invoice: Invoice, input: PayInput): Invoice {
    this.tick()
    if (isTerminal(invoice.status)) {
      throw invalidAttribute("txn_id", `The invoice is ${invoice.status}: it accepts no payment.`)
    }
    const coin = this.requireCoin(invoice.psys_cid, "psys_cid")
    const before = this.fingerprint(invoice, coin)
    if (input.error) {
      invoice.status = "error"
      invoice.error_reason = "The network rejected the payment transaction."
      this.finish(invoice, coin)
      this.notifyInvoice(invoice, coin, before)
      this.onChange()
      return invoice
    }
    const amount = input.amount ?? figures(invoice, coin).pendingAmount
    if (amount.lte(0)) {
      throw invalidAttribute("amount", "Nothing is due on this invoice: give an amount.")
    }
    if (amount.decimalPlaces() > coin.precision) {
      throw invalidAttribute("amount", `At most ${coin.precision} decimal places for ${coin.psys_cid}.`)
    }
    const confirmations = input.confirmations ?? coin.expected_confirmations
    invoice.txs.push(this.newTx(coin, amount, confirmations))
    this.advance(invoice, coin, before)
    this.onChange()
    return invoice
  }

  /** Confirmations arrive for every transaction of the invoice; also ends a `pending internal`. */
  confirm(invoice: Invoice, confirmations: number | null): Invoice {
    this.tick()
    const coin = this.requireCoin(invoice.psys_cid, "psys_cid")
    if (isTerminal(invoice.status)) {
      return invoice
    }
    if (invoice.txs.length === 0) {
      throw invalidAttribute("txn_id", "The invoice has no transaction to confirm.")
    }
    const before = this.fingerprint(invoice, coin)
    const target = confirmations ?? coin.expected_confirmations
    for (const tx of invoice.txs) {
      this.setConfirmations(tx, Math.max(tx.confirmations, target))
    }
    if (invoice.status === "pending internal" && confirmations === null) {
      invoice.internal_started_at = this.clock.now() - this.internalTransferMs
    }
    this.advance(invoice, coin, before)
    this.onChange()
    return invoice
  }

  /**
   * The shopper switches the coin: a new invoice linked to the first one of the chain
   * (parent_id / child_ids / switch_id, spec §2.1). An unpaid sibling in that coin is reused.
   */
  async switchInvoice(invoice: Invoice, psysCid: string): Promise<Invoice> {
    this.tick()
    const shop = this.shopById(invoice.shop_id)
    if (shop === undefined) {
      throw notFound()
    }
    if (invoice.status !== "new") {
      throw invalidAttribute("txn_id", `The invoice is ${invoice.status}: only a new invoice can switch currency.`)
    }
    const coin = this.requireCoin(psysCid, "psys_cid")
    const allowed = invoice.allowed_psys_cids.length > 0 ? invoice.allowed_psys_cids : shop.enabled_psys_cids
    if (!allowed.includes(psysCid) || !shop.enabled_psys_cids.includes(psysCid)) {
      throw unsupportedCurrency("psys_cid", psysCid)
    }
    const chain = this.chain(invoice)
    const reusable = chain.find((i) => i.psys_cid === psysCid && i.status === "new")
    if (reusable !== undefined) {
      return reusable
    }
    const root = chain[0]
    const fiatRate = this.fiatPerUsd(root.source_currency) ?? "1"
    const price = priceInFiat(coin, fiatRate)
    const child = await this.buildInvoice(shop, coin, {
      txn_id: ids.invoice(),
      order_number: root.order_number,
      order_name: root.order_name,
      description: root.description,
      email: root.email,
      language: root.language,
      plugin: root.plugin,
      version: root.version,
      amount: cryptoForFiat(new Dec(root.source_amount), price, coin.precision),
      source_currency: root.source_currency,
      source_amount: new Dec(root.source_amount),
      source_rate: price,
      created_at: this.clock.now(),
      expire_at: root.expire_at,
      callback_url: root.callback_url,
      success_callback_url: root.success_callback_url,
      fail_callback_url: root.fail_callback_url,
      success_invoice_url: root.success_invoice_url,
      fail_invoice_url: root.fail_invoice_url,
      allowed_psys_cids: root.allowed_psys_cids,
      parent_id: root.txn_id,
      switch_id: root.txn_id,
    })
    root.switch_id = root.txn_id
    root.child_ids.push(child.txn_id)
    this.state.invoices[child.txn_id] = child
    this.onChange()
    return child
  }

  private newTx(coin: SeedCoin, amount: Dec, confirmations: number): ChainTx {
    const tx: ChainTx = {
      txid: ids.txid(coin.network),
      value: str(amount),
      confirmations: 0,
      block_height: null,
      seen_at: this.clock.now(),
    }
    this.setConfirmations(tx, confirmations)
    return tx
  }

  private setConfirmations(tx: ChainTx, confirmations: number): void {
    tx.confirmations = confirmations
    if (confirmations > 0 && tx.block_height === null) {
      this.state.block_height += 1
      tx.block_height = this.state.block_height - (confirmations - 1)
    }
  }

  private fingerprint(invoice: Invoice, coin: SeedCoin): string {
    const f = figures(invoice, coin)
    return `${invoice.status}|${str(f.received)}|${f.confirmations}`
  }

  /** Applies the state machine, then the side effects of the move (callbacks, credits, duplicates). */
  private advance(invoice: Invoice, coin: SeedCoin, before: string): void {
    const next = nextState(invoice, coin, this.clock.now(), this.internalTransferMs)
    invoice.internal_started_at = next.internalStartedAt
    const wasTerminal = isTerminal(invoice.status)
    invoice.status = next.status
    if (!wasTerminal && isTerminal(next.status)) {
      this.finish(invoice, coin)
    }
    this.notifyInvoice(invoice, coin, before)
    if (PAID.includes(next.status) && !wasTerminal) {
      this.cancelDuplicates(invoice)
    }
  }

  private finish(invoice: Invoice, coin: SeedCoin): void {
    invoice.finished_at = this.clock.now()
    const confirmed = figures(invoice, coin).confirmed
    if (confirmed.gt(0) && invoice.credited === null) {
      const credit = confirmed.minus(this.actualCommission(invoice, coin))
      this.addBalance(invoice.shop_id, invoice.psys_cid, credit)
      invoice.credited = str(credit)
    }
  }

  /** Commission taken on what arrived: the full commission once the total arrived, else pro rata. */
  actualCommission(invoice: Invoice, coin: SeedCoin): Dec {
    const received = figures(invoice, coin).confirmed
    const total = new Dec(invoice.invoice_total_sum)
    if (received.gte(total)) {
      return new Dec(invoice.invoice_commission)
    }
    return roundHalfUp(new Dec(invoice.invoice_commission).times(received).div(total), coin.precision)
  }

  private cancelDuplicates(paid: Invoice): void {
    for (const sibling of this.chain(paid)) {
      if (sibling.txn_id === paid.txn_id || isTerminal(sibling.status)) {
        continue
      }
      const coin = this.requireCoin(sibling.psys_cid, "psys_cid")
      const before = this.fingerprint(sibling, coin)
      sibling.status = "cancelled duplicate"
      this.finish(sibling, coin)
      this.notifyInvoice(sibling, coin, before)
    }
  }

  /** Expiry, the end of `pending internal`, exchanges completing: whatever the clock has made due. */
  tick(): void {
    const now = this.clock.now()
    let changed = false
    for (const invoice of Object.values(this.state.invoices)) {
      if (isTerminal(invoice.status)) {
        continue
      }
      const coin = this.coin(invoice.psys_cid)
      if (coin === undefined) {
        continue
      }
      const before = this.fingerprint(invoice, coin)
      this.advance(invoice, coin, before)
      changed = changed || this.fingerprint(invoice, coin) !== before
    }
    for (const exchange of Object.values(this.state.exchanges)) {
      if (exchange.status === "processing" && now >= exchange.completes_at) {
        exchange.status = "completed"
        exchange.finished_at = now
        changed = true
      }
    }
    if (changed) {
      this.onChange()
    }
  }

  advanceClock(seconds: number): void {
    this.clock.advance(seconds)
    this.state.clock_offset_ms = this.clock.offset
    this.tick()
    this.onChange()
  }

  // ---- callbacks -----------------------------------------------------------------------------

  /** spec §6.1 invoice callback fields (white-label extras for white-label shops). */
  invoiceCallbackFields(invoice: Invoice, coin: SeedCoin, shop: SeedShop): CallbackFields {
    const f = figures(invoice, coin)
    const fields: CallbackFields = {
      txn_id: invoice.txn_id,
      ipn_type: "invoice",
      merchant: shop.name,
      merchant_id: shop.id,
      amount: str(f.received),
      currency: coin.currency,
      order_number: invoice.order_number,
      order_name: invoice.order_name,
      confirmations: String(f.confirmations),
      status: invoice.status,
      source_currency: invoice.source_currency,
      source_amount: invoice.source_amount,
      source_rate: invoice.source_rate,
      comment: this.comment(invoice),
      invoice_commission: invoice.invoice_commission,
      invoice_sum: invoice.invoice_sum,
      invoice_total_sum: invoice.invoice_total_sum,
    }
    if (invoice.switch_id !== null) {
      fields.switch_id = invoice.switch_id
    }
    if (shop.white_label) {
      fields.psys_cid = invoice.psys_cid
      fields.pending_amount = str(f.pendingAmount)
      fields.expire_utc = String(Math.floor(invoice.expire_at / 1000))
      fields.qr_code = invoice.qr_code ?? ""
      fields.tx_urls = invoice.txs.map((t) => this.txUrl(coin, t.txid))
    }
    return fields
  }

  private comment(invoice: Invoice): string {
    switch (invoice.status) {
      case "new":
        return "Waiting for payment"
      case "pending":
        return "Payment seen, waiting for confirmations"
      case "pending internal":
        return "Moving the funds to the merchant wallet"
      case "completed":
        return "Paid in full"
      case "mismatch":
        return "Overpaid"
      case "expired":
        return "Expired, partly paid"
      case "cancelled":
        return "No payment received before expiry"
      case "cancelled duplicate":
        return "Paid in another currency"
      case "error":
        return invoice.error_reason ?? "Error"
    }
  }

  private notifyInvoice(invoice: Invoice, coin: SeedCoin, before: string): void {
    if (this.fingerprint(invoice, coin) === before) {
      return
    }
    const shop = this.shopById(invoice.shop_id)
    if (shop === undefined) {
      return
    }
    const targets = new Set<string>()
    const main = invoice.callback_url ?? shop.status_url
    if (main !== null) {
      targets.add(main)
    }
    if (PAID.includes(invoice.status) && invoice.success_callback_url !== null) {
      targets.add(invoice.success_callback_url)
    }
    if (FAILED.includes(invoice.status) && invoice.fail_callback_url !== null) {
      targets.add(invoice.fail_callback_url)
    }
    const fields = this.invoiceCallbackFields(invoice, coin, shop)
    for (const url of targets) {
      this.dispatcher.enqueue({ shopId: shop.id, event: "invoice", ref: invoice.txn_id, url, fields })
    }
  }

  deliveries(shop: SeedShop, ref?: string): Delivery[] {
    return this.dispatcher.list({ shopId: shop.id, ref })
  }

  // ---- operations ----------------------------------------------------------------------------

  operations(shop: SeedShop): OperationRecord[] {
    this.tick()
    const records: OperationRecord[] = [
      ...Object.values(this.state.invoices)
        .filter((i) => i.shop_id === shop.id)
        .map((invoice): OperationRecord => ({ type: "invoice", created_at: invoice.created_at, invoice })),
      ...Object.values(this.state.withdrawals)
        .filter((w) => w.shop_id === shop.id)
        .map((withdrawal): OperationRecord => ({ type: withdrawal.type, created_at: withdrawal.created_at, withdrawal })),
      ...Object.values(this.state.pay_ins)
        .filter((p) => p.shop_id === shop.id)
        .map((payIn): OperationRecord => ({ type: "pay_in", created_at: payIn.created_at, payIn })),
    ]
    return records.sort((a, b) => b.created_at - a.created_at)
  }

  operation(shop: SeedShop, id: string): OperationRecord {
    const found = this.operations(shop).find((r) => operationId(r) === id)
    if (found === undefined) {
      throw notFound()
    }
    return found
  }

  // ---- fees and withdrawals ------------------------------------------------------------------

  /** UTXO networks pay one fee per transaction (many outputs); account networks one per address. */
  networkFee(coin: SeedCoin, plan: FeePlanName, addressCount: number): Dec {
    const value = new Dec(coin.fee_plans[plan].value)
    const perAddress = coin.network === "ethereum" || coin.network === "tron"
    return perAddress ? value.times(Math.max(1, addressCount)) : value
  }

  /** 115 when the balance cannot even pay the fee, 116 when it cannot pay amount + fee (spec §7). */
  checkFunds(shop: SeedShop, coin: SeedCoin, amounts: Dec[], fee: Dec): void {
    const balance = this.balance(shop, coin.psys_cid)
    if (balance.lt(fee)) {
      throw feeCannotBeEstimated()
    }
    if (balance.lt(amounts.reduce((a, b) => a.plus(b), new Dec(0)).plus(fee))) {
      throw insufficientFunds()
    }
  }

  withdraw(
    shop: SeedShop,
    input: { coin: SeedCoin; type: "cash_out" | "mass_cash_out"; to: string[]; amounts: Dec[]; plan: FeePlanName }
  ): Withdrawal {
    const fee = this.networkFee(input.coin, input.plan, input.to.length)
    this.checkFunds(shop, input.coin, input.amounts, fee)
    const total = input.amounts.reduce((a, b) => a.plus(b), new Dec(0)).plus(fee)
    this.addBalance(shop.id, input.coin.psys_cid, total.negated())
    const withdrawal: Withdrawal = {
      id: ids.withdrawal(),
      shop_id: shop.id,
      type: input.type,
      status: "completed",
      psys_cid: input.coin.psys_cid,
      to: input.to,
      amounts: input.amounts.map(str),
      fee: str(fee),
      plan: input.plan,
      txid: ids.txid(input.coin.network),
      created_at: this.clock.now(),
    }
    this.state.withdrawals[withdrawal.id] = withdrawal
    this.onChange()
    return withdrawal
  }

  // ---- deposits (white-label) ----------------------------------------------------------------

  /** The address stays tied to (uid, coin) for good: asking again returns the same one (spec §4.10). */
  async deposit(shop: SeedShop, uid: string, coin: SeedCoin): Promise<Deposit> {
    const existing = this.state.deposits.find((d) => d.shop_id === shop.id && d.uid === uid && d.psys_cid === coin.psys_cid)
    if (existing !== undefined) {
      return existing
    }
    const hash = ids.address(coin.network)
    const deposit: Deposit = {
      shop_id: shop.id,
      uid,
      psys_cid: coin.psys_cid,
      hash,
      qr_code: await qrBase64(paymentUri(coin.network, hash, null)),
      created_at: this.clock.now(),
    }
    this.state.deposits.push(deposit)
    this.onChange()
    return deposit
  }

  deposits(shop: SeedShop, filter: { uid: string | null; psysCids: string[] }): Deposit[] {
    return this.state.deposits.filter(
      (d) =>
        d.shop_id === shop.id &&
        (filter.uid === null || d.uid === filter.uid) &&
        (filter.psysCids.length === 0 || filter.psysCids.includes(d.psys_cid))
    )
  }

  depositByHash(shop: SeedShop, hash: string): Deposit {
    const deposit = this.state.deposits.find((d) => d.shop_id === shop.id && d.hash === hash)
    if (deposit === undefined) {
      throw notFound()
    }
    return deposit
  }

  /**
   * Funds arrive on a deposit address (a `pay_in`). With `txid` of an earlier pay_in of the
   * address, only its confirmations change. Credited to the balance once confirmed.
   */
  payDeposit(deposit: Deposit, input: { amount: Dec | null; confirmations: number | null; txid: string | null }): PayIn {
    const shop = this.shopById(deposit.shop_id)
    const coin = this.requireCoin(deposit.psys_cid, "psys_cid")
    if (shop === undefined) {
      throw notFound()
    }
    let payIn: PayIn
    if (input.txid !== null) {
      const found = Object.values(this.state.pay_ins).find((p) => p.hash === deposit.hash && p.tx.txid === input.txid)
      if (found === undefined) {
        throw invalidAttribute("txid", "No pay_in of this address has that txid.")
      }
      payIn = found
      this.setConfirmations(payIn.tx, Math.max(payIn.tx.confirmations, input.confirmations ?? coin.expected_confirmations))
    } else {
      if (input.amount === null || input.amount.lte(0)) {
        throw invalidAttribute("amount", "A positive amount is required.")
      }
      if (input.amount.decimalPlaces() > coin.precision) {
        throw invalidAttribute("amount", `At most ${coin.precision} decimal places for ${coin.psys_cid}.`)
      }
      payIn = {
        id: ids.payIn(),
        shop_id: shop.id,
        uid: deposit.uid,
        psys_cid: coin.psys_cid,
        hash: deposit.hash,
        amount: str(input.amount),
        commission: str(roundHalfUp(input.amount.times(coin.invoice_commission_percentage).div(100), coin.precision)),
        tx: this.newTx(coin, input.amount, input.confirmations ?? coin.expected_confirmations),
        status: "pending",
        created_at: this.clock.now(),
        finished_at: null,
      }
      this.state.pay_ins[payIn.id] = payIn
    }
    const before = `${payIn.status}|${payIn.tx.confirmations}`
    if (payIn.status === "pending" && payIn.tx.confirmations >= coin.expected_confirmations) {
      payIn.status = "completed"
      payIn.finished_at = this.clock.now()
      this.addBalance(shop.id, coin.psys_cid, new Dec(payIn.amount).minus(payIn.commission))
    }
    if (`${payIn.status}|${payIn.tx.confirmations}` !== before || input.txid === null) {
      this.notifyPayIn(payIn, deposit, coin, shop)
    }
    this.onChange()
    return payIn
  }

  /** spec §6.2: every value a string except tx_urls. */
  payInCallbackFields(payIn: PayIn, deposit: Deposit, coin: SeedCoin, shop: SeedShop): CallbackFields {
    const amount = new Dec(payIn.amount)
    const net = amount.minus(payIn.commission)
    const confirmed = payIn.status === "completed"
    return {
      amount: payIn.amount,
      comment: confirmed ? "Deposit received" : "Deposit seen, waiting for confirmations",
      confirmations: String(payIn.tx.confirmations),
      currency: coin.currency,
      deposit_sum: str(net),
      deposit_uid: deposit.uid,
      invoice_commission: payIn.commission,
      invoice_sum: str(net),
      invoice_total_sum: payIn.amount,
      ipn_type: "pay_in",
      merchant: shop.name,
      merchant_id: shop.id,
      pending_amount: confirmed ? "0" : payIn.amount,
      psys_cid: coin.psys_cid,
      qr_code: deposit.qr_code,
      source_amount: str(fiatForCrypto(amount, new Dec(coin.rate_usd))),
      source_currency: "USD",
      source_rate: coin.rate_usd,
      status: payIn.status,
      tx_urls: [this.txUrl(coin, payIn.tx.txid)],
      txn_id: payIn.id,
      wallet_hash: deposit.hash,
    }
  }

  private notifyPayIn(payIn: PayIn, deposit: Deposit, coin: SeedCoin, shop: SeedShop): void {
    const targets = new Set([shop.status_url, shop.success_url].filter((u): u is string => u !== null))
    const fields = this.payInCallbackFields(payIn, deposit, coin, shop)
    for (const url of targets) {
      this.dispatcher.enqueue({ shopId: shop.id, event: "pay_in", ref: payIn.id, url, fields })
    }
  }

  // ---- exchanges -----------------------------------------------------------------------------

  exchangeCoins(): SeedCoin[] {
    return this.seed.exchange.psys_cids.map((id) => this.requireCoin(id, "currency"))
  }

  /** Minimum and maximum of an exchange, 10 USD and 100 000 USD worth of the coin. */
  exchangeLimits(coin: SeedCoin): { min: Dec; max: Dec } {
    return {
      min: roundUp(new Dec(10).div(coin.rate_usd), coin.precision),
      max: roundDown(new Dec(100_000).div(coin.rate_usd), coin.precision),
    }
  }

  /** to = from × (rate_from / rate_to) × (1 − spread); the side computed is rounded against the shop. */
  quoteExchange(from: SeedCoin, to: SeedCoin, amount: { from: Dec } | { to: Dec }): ExchangeQuote {
    const spread = new Dec(this.seed.exchange.spread_percent).div(100)
    const rate = new Dec(from.rate_usd).div(to.rate_usd).times(new Dec(1).minus(spread))
    const fromAmount = "from" in amount ? amount.from : roundUp(amount.to.div(rate), from.precision)
    const toAmount = "to" in amount ? amount.to : roundDown(fromAmount.times(rate), to.precision)
    const limits = this.exchangeLimits(from)
    const attribute = "from" in amount ? "from_amount" : "to_amount"
    if (fromAmount.lt(limits.min)) {
      throw invalidAttribute(attribute, `The exchange minimum is ${str(limits.min)} ${from.psys_cid}.`)
    }
    if (fromAmount.gt(limits.max)) {
      throw invalidAttribute(attribute, `The exchange maximum is ${str(limits.max)} ${from.psys_cid}.`)
    }
    return {
      from,
      to,
      fromAmount,
      toAmount,
      rate: rate.toSignificantDigits(18),
      fee: roundHalfUp(fromAmount.times(spread), from.precision),
    }
  }

  createExchange(shop: SeedShop, quote: ExchangeQuote, toAddress: string): Exchange {
    if (this.balance(shop, quote.from.psys_cid).lt(quote.fromAmount)) {
      throw insufficientFunds()
    }
    this.addBalance(shop.id, quote.from.psys_cid, quote.fromAmount.negated())
    const now = this.clock.now()
    const exchange: Exchange = {
      id: ids.exchange(),
      shop_id: shop.id,
      from_currency: quote.from.psys_cid,
      to_currency: quote.to.psys_cid,
      from_amount: str(quote.fromAmount),
      to_amount: str(quote.toAmount),
      rate: str(quote.rate),
      fee: str(quote.fee),
      to_address: toAddress,
      status: "processing",
      txid: ids.txid(quote.to.network),
      created_at: now,
      completes_at: now + this.seed.exchange.processing_seconds * 1000,
      finished_at: null,
    }
    this.state.exchanges[exchange.id] = exchange
    this.onChange()
    return exchange
  }

  exchange(shop: SeedShop, id: string): Exchange {
    this.tick()
    const exchange = this.state.exchanges[id]
    if (exchange === undefined || exchange.shop_id !== shop.id) {
      throw notFound()
    }
    return exchange
  }

  // ---- state ---------------------------------------------------------------------------------

  reset(): void {
    this.dispatcher.clear()
    this.state = emptyState(this.seed)
    this.clock.setOffset(0)
    this.onChange()
  }

  snapshot(): { state: SandboxState; deliveries: Delivery[] } {
    this.state.clock_offset_ms = this.clock.offset
    return { state: this.state, deliveries: this.dispatcher.toJSON() }
  }

  restore(saved: { state: SandboxState; deliveries?: Delivery[] }): void {
    this.state = saved.state
    this.clock.setOffset(saved.state.clock_offset_ms)
    this.dispatcher.clear()
    this.dispatcher.restore(saved.deliveries ?? [])
  }

  /** Sum helper for views: the amounts of a withdrawal. */
  static withdrawalTotal(w: Withdrawal): Dec {
    return sum(w.amounts)
  }

  static statusCode(status: InvoiceStatus): number {
    return STATUS_CODES[status]
  }
}

/** The invoice, withdrawal or pay_in behind an operation record (each has its status and coin). */
export function operationSubject(record: OperationRecord): Invoice | Withdrawal | PayIn {
  switch (record.type) {
    case "invoice":
      return record.invoice
    case "pay_in":
      return record.payIn
    default:
      return record.withdrawal
  }
}

/** An operation's id: an invoice is known by its txn_id (spec §2.2). */
export function operationId(record: OperationRecord): string {
  return record.type === "invoice" ? record.invoice.txn_id : record.type === "pay_in" ? record.payIn.id : record.withdrawal.id
}
