import { SandboxClock } from "./clock"
import { CashIns } from "./cash-ins"
import { CallbackDispatcher, DEFAULT_RETRY, type CallbackFields, type CallbackSigner, type Delivery, type DropFilter, type RetryPolicy } from "./dispatcher"
import { Deposits, type PayDepositInput } from "./deposits"
import { Exchanges, exchangeLimits, type ExchangeOutcome, type ExchangeQuote } from "./exchanges"
import { ids } from "./ids"
import { STATUS_CODES } from "./invoice-machine"
import { Invoices, actualCommission, type CreateInvoiceInput, type PayInput } from "./invoices"
import type { Dec } from "./money"
import { findOperation, listOperations, type OperationRecord } from "./operations"
import { invalidAttribute } from "./errors"
import { SandboxStore, emptyState } from "./store"
import type { CashIn, Deposit, Exchange, FeePlanName, Invoice, InvoiceStatus, PayIn, SandboxState, Seed, SeedCoin, SeedShop, Withdrawal } from "./types"
import { Withdrawals, networkFee, withdrawalTotal, type WithdrawInput } from "./withdrawals"

export type { CreateInvoiceInput, PayInput } from "./invoices"
export { DEFAULT_EXPIRE_MIN } from "./invoices"
export type { ExchangeOutcome, ExchangeQuote } from "./exchanges"
export type { OperationRecord } from "./operations"
export { operationId, operationSubject } from "./operations"

/** What the control API's `shop` route may change in a shop's settings; absent members stay. */
export interface ShopSettingsChanges {
  enabledPsysCids?: string[]
  statusUrl?: string | null
  successUrl?: string | null
}

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

/**
 * The emulated gateway, transport-free: one state store (`store.ts`) and one resource per file
 * over it — `invoices.ts` (with the pure `invoice-machine.ts`), `withdrawals.ts`, `deposits.ts`,
 * `exchanges.ts`, `operations.ts` — plus the callback dispatcher. This class is the facade the
 * transports (HTTP server, in-process handler) and the tests drive; it adds the one rule that
 * spans resources: every request first applies the clock (`tick`).
 */
export class SandboxCore {
  readonly seed: Seed
  readonly clock: SandboxClock
  readonly dispatcher: CallbackDispatcher
  readonly store: SandboxStore
  readonly invoices: Invoices
  readonly withdrawals: Withdrawals
  readonly depositAddresses: Deposits
  readonly exchanges: Exchanges
  readonly cashIns: CashIns
  /** the shops' settings as seeded, restored by `reset` after `shopSettings` changed them */
  private readonly seededShops: SeedShop[]
  /** the coins' maintenance flags as seeded, restored by `reset` after `currencySettings` changed them */
  private readonly seededMaintenance: ReadonlyMap<string, boolean>

  constructor(options: SandboxCoreOptions) {
    this.seed = options.seed
    this.clock = options.clock ?? new SandboxClock()
    this.dispatcher = new CallbackDispatcher(options.sign, options.retry ?? DEFAULT_RETRY, ids.delivery, (shopId) =>
      this.seed.shops.find((s) => s.id === shopId)?.secret_key
    )
    this.store = new SandboxStore(this.seed, this.clock, options.publicUrl, options.onChange ?? (() => undefined))
    this.invoices = new Invoices(this.store, this.dispatcher, (options.internalTransferSeconds ?? 60) * 1000)
    this.withdrawals = new Withdrawals(this.store)
    this.depositAddresses = new Deposits(this.store, this.dispatcher)
    this.exchanges = new Exchanges(this.store)
    this.cashIns = new CashIns(this.store)
    this.seededShops = structuredClone(this.seed.shops)
    this.seededMaintenance = new Map(this.seed.coins.map((coin) => [coin.psys_cid, coin.maintenance]))
  }

  // ---- shops, coins, rates (the store) -------------------------------------------------------

  get shops(): readonly SeedShop[] {
    return this.seed.shops
  }

  shopByKey(apiKey: string | null): SeedShop | undefined {
    return this.store.shopByKey(apiKey)
  }

  /**
   * The shop's settings page at the gateway (control API `shop`): the coins enabled in its API
   * settings (`hidden` in spec §2.4; the default coin must stay enabled) and its Status / Success URLs
   * (spec §6; null clears one). Kept until `reset`, not in the state file.
   */
  shopSettings(shop: SeedShop, changes: ShopSettingsChanges): SeedShop {
    if (changes.enabledPsysCids !== undefined) {
      const enabled = [...new Set(changes.enabledPsysCids)]
      for (const id of enabled) {
        this.requireCoin(id, "enabled_psys_cids")
      }
      if (!enabled.includes(shop.default_psys_cid)) {
        throw invalidAttribute("enabled_psys_cids", `The list must keep the shop's default coin "${shop.default_psys_cid}".`)
      }
      shop.enabled_psys_cids = enabled
    }
    if (changes.statusUrl !== undefined) {
      shop.status_url = changes.statusUrl
    }
    if (changes.successUrl !== undefined) {
      shop.success_url = changes.successUrl
    }
    return shop
  }

  /**
   * A coin at the gateway, for every shop (control API `currencies/:psys_cid`): the gateway puts it
   * under maintenance or takes it out (spec §2.4 `maintenance`), as the currencies list then shows.
   * Kept until `reset`, not in the state file. Invoices in it are still created and paid: what
   * maintenance stops at the real gateway is not shown.
   */
  currencySettings(psysCid: string, changes: { maintenance?: boolean }): SeedCoin {
    const coin = this.requireCoin(psysCid, "psys_cid")
    if (changes.maintenance !== undefined) {
      coin.maintenance = changes.maintenance
    }
    return coin
  }

  shopById(id: string): SeedShop | undefined {
    return this.store.shopById(id)
  }

  coin(psysCid: string): SeedCoin | undefined {
    return this.store.coin(psysCid)
  }

  /** The coin or a 105 naming the attribute (spec §7). */
  requireCoin(psysCid: string, attribute: string): SeedCoin {
    return this.store.requireCoin(psysCid, attribute)
  }

  fiatPerUsd(code: string): string | undefined {
    return this.store.fiatPerUsd(code)
  }

  balance(shop: SeedShop, psysCid: string): Dec {
    return this.store.balance(shop, psysCid)
  }

  baseUrl(): string {
    return this.store.baseUrl()
  }

  invoiceUrl(txnId: string): string {
    return this.store.invoiceUrl(txnId)
  }

  txUrl(coin: SeedCoin, txid: string): string {
    return this.store.txUrl(coin, txid)
  }

  // ---- invoices ------------------------------------------------------------------------------

  invoice(txnId: string): Invoice | undefined {
    return this.invoices.get(txnId)
  }

  /** The shop's invoices, oldest first. */
  shopInvoices(shop: SeedShop): Invoice[] {
    return Object.values(this.store.state.invoices)
      .filter((invoice) => invoice.shop_id === shop.id)
      .sort((a, b) => a.created_at - b.created_at)
  }

  requireInvoice(shop: SeedShop, txnId: string): Invoice {
    return this.invoices.require(shop, txnId)
  }

  createInvoice(shop: SeedShop, input: CreateInvoiceInput): Promise<{ invoice: Invoice; existing: boolean }> {
    this.tick()
    return this.invoices.create(shop, input)
  }

  qrCode(invoice: Invoice): Promise<string> {
    return this.invoices.qrCode(invoice)
  }

  chain(invoice: Invoice): Invoice[] {
    return this.invoices.chain(invoice)
  }

  pay(invoice: Invoice, input: PayInput): Invoice {
    this.tick()
    return this.invoices.pay(invoice, input)
  }

  confirm(invoice: Invoice, confirmations: number | null): Invoice {
    this.tick()
    return this.invoices.confirm(invoice, confirmations)
  }

  /** The invoice's unconfirmed transactions vanish (replaced, double-spent): see `Invoices.dropUnconfirmed`. */
  dropUnconfirmed(invoice: Invoice): Invoice {
    this.tick()
    return this.invoices.dropUnconfirmed(invoice)
  }

  /** The gateway ends an open invoice as `expired` now, even with nothing received (see `Invoices.expire`). */
  expireInvoice(invoice: Invoice): Invoice {
    this.tick()
    return this.invoices.expire(invoice)
  }

  /** The gateway finishes an invoice it had reported in `error` (see `Invoices.settle`). */
  settle(invoice: Invoice): Invoice {
    this.tick()
    return this.invoices.settle(invoice)
  }

  switchInvoice(invoice: Invoice, psysCid: string): Promise<Invoice> {
    this.tick()
    return this.invoices.switchCoin(invoice, psysCid)
  }

  actualCommission(invoice: Invoice, coin: SeedCoin): Dec {
    return actualCommission(invoice, coin)
  }

  invoiceCallbackFields(invoice: Invoice, coin: SeedCoin, shop: SeedShop): CallbackFields {
    return this.invoices.callbackFields(invoice, coin, shop)
  }

  deliveries(shop: SeedShop, ref?: string): Delivery[] {
    return this.dispatcher.list({ shopId: shop.id, ref })
  }

  /** The shop's next `count` callback deliveries matching the filter are lost; answers the drops pending. */
  dropCallbacks(shop: SeedShop, filter: Omit<DropFilter, "shopId">, count: number): number {
    return this.dispatcher.drop({ ...filter, shopId: shop.id }, count)
  }

  // ---- operations ----------------------------------------------------------------------------

  operations(shop: SeedShop): OperationRecord[] {
    this.tick()
    return listOperations(this.store, shop)
  }

  operation(shop: SeedShop, id: string): OperationRecord {
    this.tick()
    return findOperation(this.store, shop, id)
  }

  // ---- fees and withdrawals ------------------------------------------------------------------

  networkFee(coin: SeedCoin, plan: FeePlanName, addressCount: number): Dec {
    return networkFee(coin, plan, addressCount)
  }

  checkFunds(shop: SeedShop, coin: SeedCoin, amounts: Dec[], fee: Dec): void {
    this.withdrawals.checkFunds(shop, coin, amounts, fee)
  }

  withdraw(shop: SeedShop, input: WithdrawInput): Withdrawal {
    return this.withdrawals.create(shop, input)
  }

  /** The shop's next `count` withdrawals end in `error`; answers how many are pending. */
  failNextWithdrawals(shop: SeedShop, count: number): number {
    return this.withdrawals.failNext(shop, count)
  }

  // ---- cash_in (money straight to the shop's wallet) -----------------------------------------

  cashIn(shop: SeedShop, psysCid: string, amount: Dec): CashIn {
    this.tick()
    return this.cashIns.receive(shop, psysCid, amount)
  }

  // ---- deposits (white-label) ----------------------------------------------------------------

  deposit(shop: SeedShop, uid: string, coin: SeedCoin): Promise<Deposit> {
    return this.depositAddresses.address(shop, uid, coin)
  }

  deposits(shop: SeedShop, filter: { uid: string | null; psysCids: string[] }): Deposit[] {
    return this.depositAddresses.list(shop, filter)
  }

  depositByHash(shop: SeedShop, hash: string): Deposit {
    return this.depositAddresses.byHash(shop, hash)
  }

  payDeposit(deposit: Deposit, input: PayDepositInput): PayIn {
    return this.depositAddresses.pay(deposit, input)
  }

  payInCallbackFields(payIn: PayIn, deposit: Deposit, coin: SeedCoin, shop: SeedShop): CallbackFields {
    return this.depositAddresses.callbackFields(payIn, deposit, coin, shop)
  }

  // ---- exchanges -----------------------------------------------------------------------------

  exchangeCoins(): SeedCoin[] {
    return this.exchanges.coins()
  }

  exchangeLimits(coin: SeedCoin): { min: Dec; max: Dec } {
    return exchangeLimits(coin)
  }

  quoteExchange(from: SeedCoin, to: SeedCoin, amount: { from: Dec } | { to: Dec }): ExchangeQuote {
    return this.exchanges.quote(from, to, amount)
  }

  createExchange(shop: SeedShop, quote: ExchangeQuote, toAddress: string): Exchange {
    return this.exchanges.create(shop, quote, toAddress)
  }

  exchange(shop: SeedShop, id: string): Exchange {
    this.tick()
    return this.exchanges.get(shop, id)
  }

  /** The gateway ends the shop's `processing` exchange now: completed (maybe with another amount) or error (see `Exchanges.finish`). */
  finishExchange(shop: SeedShop, id: string, outcome: ExchangeOutcome): Exchange {
    this.tick()
    return this.exchanges.finish(this.exchanges.get(shop, id), outcome)
  }

  // ---- clock and state -----------------------------------------------------------------------

  /** Expiry, the end of `pending internal`, exchanges completing: whatever the clock has made due. */
  tick(): void {
    const invoicesMoved = this.invoices.tick()
    const exchangesMoved = this.exchanges.tick()
    if (invoicesMoved || exchangesMoved) {
      this.store.changed()
    }
  }

  advanceClock(seconds: number): void {
    this.clock.advance(seconds)
    this.store.state.clock_offset_ms = this.clock.offset
    this.tick()
    this.store.changed()
  }

  reset(): void {
    for (const seeded of this.seededShops) {
      const shop = this.store.shopById(seeded.id)
      if (shop !== undefined) {
        Object.assign(shop, structuredClone(seeded))
      }
    }
    for (const coin of this.seed.coins) {
      coin.maintenance = this.seededMaintenance.get(coin.psys_cid) ?? coin.maintenance
    }
    this.dispatcher.clear()
    this.store.state = emptyState(this.seed)
    this.clock.setOffset(0)
    this.store.changed()
  }

  snapshot(): { state: SandboxState; deliveries: Delivery[] } {
    this.store.state.clock_offset_ms = this.clock.offset
    return { state: this.store.state, deliveries: this.dispatcher.toJSON() }
  }

  restore(saved: { state: SandboxState; deliveries?: Delivery[] }): void {
    this.store.state = saved.state
    this.clock.setOffset(saved.state.clock_offset_ms)
    this.dispatcher.clear()
    this.dispatcher.restore(saved.deliveries ?? [])
  }

  /** Sum helper for views: the amounts of a withdrawal. */
  static withdrawalTotal(w: Withdrawal): Dec {
    return withdrawalTotal(w)
  }

  static statusCode(status: InvoiceStatus): number {
    return STATUS_CODES[status]
  }
}
