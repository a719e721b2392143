import { invoiceCallbackFields } from "./callback-fields"
import type { CallbackDispatcher } from "./dispatcher"
import { invalidAttribute, notFound, unsupportedCurrency } from "./errors"
import { ids } from "./ids"
import { figures, isConfirmed, isTerminal, nextState, settledStatus } from "./invoice-machine"
import { Dec, roundHalfUp, str } from "./money"
import { paymentUri, qrBase64 } from "./qr"
import { cryptoForFiat, fiatForCrypto, priceInFiat, splitCommission } from "./rates"
import type { SandboxStore } from "./store"
import type { Invoice, InvoiceStatus, SeedCoin, SeedShop } from "./types"

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

export const DEFAULT_EXPIRE_MIN = 600

/** The validation message of a `source_amount` with more decimals than its currency has. */
export function sourceAmountMessage(currency: string, minorUnits: number): string {
  const allowed = minorUnits === 0 ? "no decimal places" : `at most ${minorUnits} decimal place${minorUnits === 1 ? "" : "s"}`
  return `"source_amount" in ${currency} takes ${allowed} (ISO 4217 minor units).`
}
const PAID: readonly InvoiceStatus[] = ["completed", "mismatch"]
const FAILED: readonly InvoiceStatus[] = ["expired", "cancelled", "error"]

type InvoiceBase = Pick<
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

/**
 * The callback targets of an invoice in `status` (spec §6): `callback_url`, else the shop's Status
 * URL; plus `success_callback_url` when paid (`completed`, `mismatch`) and `fail_callback_url` when
 * it failed (`expired`, `cancelled`, `error`). `cancelled duplicate` goes to the main target only.
 */
export function invoiceCallbackTargets(invoice: Invoice, shop: SeedShop): string[] {
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
  return [...targets]
}

/**
 * Commission taken on what arrived (spec §2.1 figures): the full commission once the total
 * arrived, else pro rata of the confirmed amount, rounded half-up to the coin precision.
 */
export function actualCommission(invoice: Invoice, coin: SeedCoin): Dec {
  const received = figures(invoice, coin).confirmed
  const total = new Dec(invoice.invoice_total_sum)
  if (received.gte(total)) {
    return new Dec(invoice.invoice_commission)
  }
  return roundHalfUp(new Dec(invoice.invoice_commission).times(received).div(total), coin.precision)
}

/** What a callback reports of an invoice: a change of any of these sends one (spec §6). */
function fingerprint(invoice: Invoice, coin: SeedCoin): string {
  const f = figures(invoice, coin)
  return `${invoice.status}|${str(f.received)}|${f.confirmations}`
}

/**
 * Invoices (spec §2.1, §4.1) over the store: creation and conversion, payments and confirmations
 * seen on the chain, coin switches, and the side effects of each move of `invoice-machine`
 * (balance credit, `cancelled duplicate` siblings, callbacks). The status rules themselves live in
 * `invoice-machine.ts`; this class only applies them.
 */
export class Invoices {
  constructor(
    private readonly store: SandboxStore,
    private readonly dispatcher: CallbackDispatcher,
    private readonly internalTransferMs: number
  ) {}

  get(txnId: string): Invoice | undefined {
    return this.store.state.invoices[txnId]
  }

  /** The invoice of this shop, or 111 (another shop's invoice does not exist for this key). */
  require(shop: SeedShop, txnId: string): Invoice {
    const invoice = this.store.state.invoices[txnId]
    if (invoice === undefined || invoice.shop_id !== shop.id) {
      throw notFound()
    }
    return invoice
  }

  async create(shop: SeedShop, input: CreateInvoiceInput): Promise<{ invoice: Invoice; existing: boolean }> {
    const existing = Object.values(this.store.state.invoices).find(
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
    const coin = this.store.requireCoin(psysCid, "currency")
    if (!shop.enabled_psys_cids.includes(psysCid)) {
      throw unsupportedCurrency("currency", psysCid)
    }
    if (input.allowed_psys_cids.length > 0 && !input.allowed_psys_cids.includes(psysCid)) {
      throw invalidAttribute("allowed_psys_cids", `The list must contain the invoice currency "${psysCid}".`)
    }
    const sourceCurrency = input.source_currency ?? "USD"
    const fiatRate = this.store.fiatPerUsd(sourceCurrency)
    const minorUnits = this.store.fiatMinorUnits(sourceCurrency)
    if (fiatRate === undefined || minorUnits === undefined) {
      throw unsupportedCurrency("source_currency", sourceCurrency)
    }
    const price = priceInFiat(coin, fiatRate)
    let amount: Dec
    let sourceAmount: Dec
    if (input.amount !== null) {
      amount = input.amount
      sourceAmount = fiatForCrypto(amount, price, minorUnits)
    } else if (input.source_amount !== null) {
      // docs/gateway-readings.md#fiat-amounts: no more decimals than the currency's minor units.
      if (input.source_amount.decimalPlaces() > minorUnits) {
        throw invalidAttribute("source_amount", sourceAmountMessage(sourceCurrency, minorUnits))
      }
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
    const now = this.store.clock.now()
    const invoice = await this.build(shop, coin, {
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
    this.store.state.invoices[invoice.txn_id] = invoice
    this.store.changed()
    return { invoice, existing: false }
  }

  private async build(shop: SeedShop, coin: SeedCoin, base: InvoiceBase): Promise<Invoice> {
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
      const coin = this.store.requireCoin(invoice.psys_cid, "psys_cid")
      invoice.qr_code = await qrBase64(paymentUri(coin.network, invoice.wallet_hash, invoice.invoice_total_sum))
    }
    return invoice.qr_code
  }

  /** Every invoice of the switch chain the invoice belongs to, the first one first. */
  chain(invoice: Invoice): Invoice[] {
    if (invoice.switch_id === null) {
      return [invoice]
    }
    const invoices = this.store.state.invoices
    const root = invoices[invoice.switch_id]
    if (root === undefined) {
      return [invoice]
    }
    return [root, ...root.child_ids.map((id) => invoices[id]).filter((i): i is Invoice => i !== undefined)]
  }

  /**
   * A payment seen on the chain (control API `pay`, the hosted page's buttons), in any status: a wallet
   * sends whenever the shopper presses send (docs/gateway-readings.md#money-after-the-end-of-an-invoice).
   * With `error` the transaction is recorded too and the invoice goes to `error`.
   */
  pay(invoice: Invoice, input: PayInput): Invoice {
    const coin = this.store.requireCoin(invoice.psys_cid, "psys_cid")
    const before = fingerprint(invoice, coin)
    const amount = input.amount ?? figures(invoice, coin).pendingAmount
    // An error with nothing due and no amount given has no payment to record: the invoice only errs.
    const records = !(input.error && input.amount === null && amount.lte(0))
    if (records && amount.lte(0)) {
      throw invalidAttribute("amount", "Nothing is due on this invoice: give an amount.")
    }
    if (amount.decimalPlaces() > coin.precision) {
      throw invalidAttribute("amount", `At most ${coin.precision} decimal places for ${coin.psys_cid}.`)
    }
    if (records) {
      invoice.txs.push(this.store.newTx(coin, amount, input.confirmations ?? coin.expected_confirmations))
    }
    if (input.error) {
      invoice.status = "error"
      invoice.error_reason = "The network rejected the payment transaction."
      invoice.finished_at = invoice.finished_at ?? this.store.clock.now()
      this.notify(invoice, coin, before)
    } else {
      this.advance(invoice, coin, before)
    }
    this.store.changed()
    return invoice
  }

  /**
   * Confirmations arrive for every transaction of the invoice, whatever its status; also ends a
   * `pending internal`. An invoice in `error` stays there (`settle` finishes it).
   */
  confirm(invoice: Invoice, confirmations: number | null): Invoice {
    const coin = this.store.requireCoin(invoice.psys_cid, "psys_cid")
    if (invoice.txs.length === 0) {
      throw invalidAttribute("txn_id", "The invoice has no transaction to confirm.")
    }
    const before = fingerprint(invoice, coin)
    const target = confirmations ?? coin.expected_confirmations
    for (const tx of invoice.txs) {
      this.store.setConfirmations(tx, Math.max(tx.confirmations, target))
    }
    if (invoice.status === "pending internal" && confirmations === null) {
      invoice.internal_started_at = this.store.clock.now() - this.internalTransferMs
    }
    this.advance(invoice, coin, before)
    this.store.changed()
    return invoice
  }

  /**
   * The invoice's unconfirmed transactions vanish from the chain (control API `drop`): replaced or
   * double-spent before they confirmed. The confirmed ones stay, and the state machine reads what
   * remains (`new` when nothing does, `cancelled` past the expiry, …), with a callback for the move.
   * Refused for an ended invoice and for one without an unconfirmed transaction.
   */
  dropUnconfirmed(invoice: Invoice): Invoice {
    if (isTerminal(invoice.status)) {
      throw invalidAttribute("txn_id", `The invoice is ${invoice.status}: only an open invoice's transactions can be dropped.`)
    }
    const coin = this.store.requireCoin(invoice.psys_cid, "psys_cid")
    const kept = invoice.txs.filter((tx) => isConfirmed(tx, coin))
    if (kept.length === invoice.txs.length) {
      throw invalidAttribute("txn_id", "The invoice has no unconfirmed transaction to drop.")
    }
    const before = fingerprint(invoice, coin)
    invoice.txs = kept
    this.advance(invoice, coin, before)
    this.store.changed()
    return invoice
  }

  /**
   * The gateway ends an open invoice as `expired` now, whatever arrived, even nothing (control API
   * `expire`): spec §3 says only that the full amount "may not have been paid". The clock's own expiry
   * keeps the reading of docs/gateway-readings.md#invoice-lifecycle (nothing received → `cancelled`).
   */
  expire(invoice: Invoice): Invoice {
    if (isTerminal(invoice.status)) {
      throw invalidAttribute("txn_id", `The invoice is ${invoice.status}: only an open invoice can be expired.`)
    }
    const coin = this.store.requireCoin(invoice.psys_cid, "psys_cid")
    const before = fingerprint(invoice, coin)
    invoice.status = "expired"
    invoice.internal_started_at = null
    invoice.finished_at = this.store.clock.now()
    this.credit(invoice, coin)
    this.notify(invoice, coin, before)
    this.store.changed()
    return invoice
  }

  /**
   * The gateway finishes an invoice it had reported in `error` (control API `settle`): every
   * transaction recorded gets its confirmations, then `completed`, `mismatch` or `expired` by what
   * arrived (`settledStatus`), with the credit, callbacks and duplicates of any move.
   */
  settle(invoice: Invoice): Invoice {
    if (invoice.status !== "error") {
      throw invalidAttribute("txn_id", `The invoice is ${invoice.status}: only an invoice in error can be settled.`)
    }
    if (invoice.txs.length === 0) {
      throw invalidAttribute("txn_id", "Nothing arrived on this invoice: there is nothing to settle.")
    }
    const coin = this.store.requireCoin(invoice.psys_cid, "psys_cid")
    const before = fingerprint(invoice, coin)
    for (const tx of invoice.txs) {
      this.store.setConfirmations(tx, Math.max(tx.confirmations, coin.expected_confirmations))
    }
    invoice.status = settledStatus(figures(invoice, coin), new Dec(invoice.invoice_total_sum))
    this.credit(invoice, coin)
    this.notify(invoice, coin, before)
    if (PAID.includes(invoice.status)) {
      this.cancelDuplicates(invoice)
    }
    this.store.changed()
    return invoice
  }

  /**
   * The shopper switches the coin: a new invoice linked to the first one of the chain
   * (parent_id / child_ids / switch_id, spec §2.1). An unpaid sibling in that coin is reused.
   */
  async switchCoin(invoice: Invoice, psysCid: string): Promise<Invoice> {
    const shop = this.store.shopById(invoice.shop_id)
    if (shop === undefined) {
      throw notFound()
    }
    if (invoice.status !== "new") {
      throw invalidAttribute("txn_id", `The invoice is ${invoice.status}: only a new invoice can switch currency.`)
    }
    const coin = this.store.requireCoin(psysCid, "psys_cid")
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
    const fiatRate = this.store.fiatPerUsd(root.source_currency) ?? "1"
    const price = priceInFiat(coin, fiatRate)
    const child = await this.build(shop, coin, {
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
      created_at: this.store.clock.now(),
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
    this.store.state.invoices[child.txn_id] = child
    this.store.changed()
    return child
  }

  /** Applies the clock to every open invoice (expiry, the end of `pending internal`); true if one moved. */
  tick(): boolean {
    let changed = false
    for (const invoice of Object.values(this.store.state.invoices)) {
      if (isTerminal(invoice.status)) {
        continue
      }
      const coin = this.store.coin(invoice.psys_cid)
      if (coin === undefined) {
        continue
      }
      const before = fingerprint(invoice, coin)
      this.advance(invoice, coin, before)
      changed = changed || fingerprint(invoice, coin) !== before
    }
    return changed
  }

  /** spec §6.1 fields of the invoice as they stand now. */
  callbackFields(invoice: Invoice, coin: SeedCoin, shop: SeedShop) {
    return invoiceCallbackFields(invoice, coin, shop, (c, txid) => this.store.txUrl(c, txid))
  }

  /** Applies the state machine, then the side effects of the move (callbacks, credits, duplicates). */
  private advance(invoice: Invoice, coin: SeedCoin, before: string): void {
    const next = nextState(invoice, coin, this.store.clock.now(), this.internalTransferMs)
    invoice.internal_started_at = next.internalStartedAt
    const wasTerminal = isTerminal(invoice.status)
    invoice.status = next.status
    if (isTerminal(next.status)) {
      invoice.finished_at = invoice.finished_at ?? this.store.clock.now()
      this.credit(invoice, coin)
    }
    this.notify(invoice, coin, before)
    if (PAID.includes(next.status) && !wasTerminal) {
      this.cancelDuplicates(invoice)
    }
  }

  /**
   * An ended invoice credits the shop with its confirmed money minus the commission taken on it; money
   * arriving later credits only the increment, never twice (`credited` is what was credited so far).
   * An invoice in `error` credits nothing until `settle` finishes it.
   */
  private credit(invoice: Invoice, coin: SeedCoin): void {
    if (!isTerminal(invoice.status) || invoice.status === "error") {
      return
    }
    const confirmed = figures(invoice, coin).confirmed
    const due = confirmed.minus(actualCommission(invoice, coin))
    const credited = new Dec(invoice.credited ?? "0")
    if (due.gt(credited)) {
      this.store.addBalance(invoice.shop_id, invoice.psys_cid, due.minus(credited))
      invoice.credited = str(due)
    }
  }

  private cancelDuplicates(paid: Invoice): void {
    for (const sibling of this.chain(paid)) {
      if (sibling.txn_id === paid.txn_id || isTerminal(sibling.status)) {
        continue
      }
      const coin = this.store.requireCoin(sibling.psys_cid, "psys_cid")
      const before = fingerprint(sibling, coin)
      sibling.status = "cancelled duplicate"
      sibling.finished_at = this.store.clock.now()
      this.credit(sibling, coin)
      this.notify(sibling, coin, before)
    }
  }

  private notify(invoice: Invoice, coin: SeedCoin, before: string): void {
    if (fingerprint(invoice, coin) === before) {
      return
    }
    const shop = this.store.shopById(invoice.shop_id)
    if (shop === undefined) {
      return
    }
    const fields = this.callbackFields(invoice, coin, shop)
    for (const url of invoiceCallbackTargets(invoice, shop)) {
      this.dispatcher.enqueue({ shopId: shop.id, event: "invoice", ref: invoice.txn_id, url, fields })
    }
  }
}
