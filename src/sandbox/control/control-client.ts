import type { Delivery } from "../core/dispatcher"
import type { Fault, FaultMode } from "../http/faults"
import type { ExchangeBody } from "../http/views"
import type { CashInState, CurrencyState, InvoiceState, ShopSettingsState } from "./state-views"

/** The part of `fetch` the control client uses: the global one, or the in-process transport's. */
export type ControlFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string }
) => Promise<{ status: number; text: () => Promise<string> }>

/** A pay_in as the control API answers it. */
export interface PayInState {
  id: string
  status: string
  uid: string
  psys_cid: string
  hash: string
  amount: string
  commission: string
  txid: string
  confirmations: number
  tx_url: string
}

/** The sandbox clock after a move. */
export interface ClockState {
  now_utc: number
  offset_seconds: number
}

export interface PayOptions {
  /** decimal string in the invoice's coin; default: everything still due */
  amount?: string
  /** default: the coin's expected confirmations (fully confirmed) */
  confirmations?: number
  /** the network rejects the payment: the invoice ends in `error` */
  error?: boolean
}

export interface FaultOptions {
  mode: FaultMode
  /** a path prefix under /api/v1; default every API path */
  path?: string
  /** how many matching requests it affects (default 1) */
  count?: number
  /** latency: the delay; timeout: how long the connection is held (ms) */
  ms?: number
}

/** An answer of the control API that is not a success, with its envelope's code and message. */
export class SandboxControlError extends Error {
  constructor(
    readonly route: string,
    readonly status: number,
    readonly code: number | null,
    readonly body: string
  ) {
    super(`sandbox ${route} answered HTTP ${status}${code === null ? "" : ` (code ${code})`}: ${body.slice(0, 300)}`)
    this.name = "SandboxControlError"
  }
}

/**
 * The sandbox control API (`/_sandbox`, see src/sandbox/README.md "Control API"), typed, acting as
 * one shop. The same client speaks to a sandbox over HTTP and in process: only `fetch` differs.
 */
export interface SandboxControl {
  /** the shop's api_key this client acts with */
  readonly apiKey: string
  /** A payment is seen on the chain for the invoice. */
  pay(txnId: string, options?: PayOptions): Promise<InvoiceState>
  /** The shop's invoices as the control API shows them, oldest first; `status` keeps only those in it. */
  invoices(options?: { status?: string }): Promise<InvoiceState[]>
  /** The invoice as the control API shows it (status, amounts, transactions, chain links). */
  invoice(txnId: string): Promise<InvoiceState>
  /**
   * The gateway finishes an invoice it had reported in `error`: `completed`, `mismatch` when more than
   * due arrived (`expired` when less). Refused (422 on `txn_id`) for an invoice not in `error`.
   */
  settle(txnId: string): Promise<InvoiceState>
  /**
   * The gateway ends an open invoice as `expired` now, whatever arrived, even nothing (spec §3 "may
   * not have been paid"). Refused (422 on `txn_id`) for an ended invoice. The clock's expiry
   * (`advanceClock`) keeps the sandbox's reading: nothing received → `cancelled`.
   */
  expire(txnId: string): Promise<InvoiceState>
  /**
   * The invoice's unconfirmed transactions (fewer than the coin's expected confirmations) vanish,
   * replaced or double-spent before they confirmed: `received` falls back to what the confirmed ones
   * hold and the status follows (`new` when nothing is left), with its callback. Refused (422 on
   * `txn_id`) for an ended invoice or one without an unconfirmed transaction.
   */
  dropUnconfirmed(txnId: string): Promise<InvoiceState>
  /**
   * The shop's next `count` (default 1) withdrawals are answered HTTP 201 with status `error`: the
   * operation exists in `error`, the balance is not debited. Answers how many failures are pending.
   */
  failNextWithdrawals(options?: { count?: number }): Promise<{ pending: number }>
  /**
   * The gateway ends the shop's `processing` exchange now: `completed` (with `toAmount` another amount
   * bought than quoted, else the quoted one) or `error` (nothing sent; the from amount is credited
   * back). Answers the exchange as `GET /exchanges/{id}` shows it. Refused (422 on `status`) for an
   * exchange that has ended, (422 on `to_amount`) for an amount finer than the coin or with `error`;
   * 404 for an unknown or another shop's exchange.
   */
  finishExchange(id: string, options: { status: "completed" | "error"; toAmount?: string }): Promise<ExchangeBody>
  /** Money arrives at the shop's wallet directly (spec §2.2 `cash_in`): balance credited, an operation listed. */
  cashIn(options: { psysCid: string; amount: string }): Promise<CashInState>
  /**
   * The next `count` (default 1) callback deliveries of the shop matching `txnId` (the delivery's
   * `ref`: an invoice txn_id or a pay_in id) and `event` are lost: logged as `dropped`, never posted
   * (`redeliver` posts one). Answers how many drops are pending.
   */
  dropCallbacks(options?: { count?: number; txnId?: string; event?: "invoice" | "pay_in" }): Promise<{ pending: number }>
  /**
   * The shop's settings page at the gateway: the coins enabled in its API settings (the default coin
   * must stay), its Status URL and Success URL (null clears one). Absent members stay; `reset` restores the seed's.
   */
  shopSettings(options: { enabledPsysCids?: string[]; statusUrl?: string | null; successUrl?: string | null }): Promise<ShopSettingsState>
  /**
   * A coin at the gateway, for every shop: `maintenance` puts it under maintenance or takes it out
   * (spec §2.4, shown in the currencies list). Absent members stay; `reset` restores the seed's.
   */
  currencySettings(psysCid: string, options: { maintenance?: boolean }): Promise<CurrencyState>
  /** Confirmations arrive (default: the coin's expected count; also ends `pending internal`). */
  confirm(txnId: string, options?: { confirmations?: number }): Promise<InvoiceState>
  /** The shopper switches the invoice to another coin: the new (or reused) invoice of the chain. */
  switchCurrency(txnId: string, psysCid: string): Promise<InvoiceState>
  /** Funds arrive on a deposit address; with `txid` of an earlier pay_in only its confirmations change. */
  payDeposit(hash: string, options: { amount?: string; confirmations?: number; txid?: string }): Promise<PayInState>
  /** Moves the sandbox clock forward (expiries, `pending internal`, exchanges). */
  advanceClock(seconds: number): Promise<ClockState>
  /** The callback delivery log of the shop, optionally of one invoice or pay_in. */
  callbacks(options?: { txnId?: string }): Promise<Delivery[]>
  /** One more attempt of a delivery, now. */
  redeliver(deliveryId: string): Promise<Delivery>
  /** A fault on the next matching /api/v1 request(s). */
  fault(options: FaultOptions): Promise<Fault>
  /** Back to the seed: invoices, balances, deliveries, faults, clock. */
  reset(): Promise<{ reset: true }>
  /** The same client acting as another shop. */
  as(apiKey: string): SandboxControl
}

export interface ControlClientOptions {
  /** the sandbox's base URL (`sandbox.url`) */
  baseUrl: string
  /** any shop's api_key; the client acts on that shop's data */
  apiKey: string
  /** default: the global `fetch` (HTTP) */
  fetch?: ControlFetch
}

const globalFetch: ControlFetch = (url, init) => fetch(url, init)

function codeOf(text: string): number | null {
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed === "object" && parsed !== null && "data" in parsed) {
      const data: unknown = parsed.data
      if (typeof data === "object" && data !== null && "code" in data && typeof data.code === "number") {
        return data.code
      }
    }
  } catch {
    return null
  }
  return null
}

/** A typed control client (see `SandboxControl`). */
export function createControlClient(options: ControlClientOptions): SandboxControl {
  const doFetch = options.fetch ?? globalFetch
  const base = options.baseUrl.replace(/\/+$/, "")

  async function call<T>(method: "GET" | "POST", route: string, body?: Record<string, string | number | boolean>, query: Record<string, string> = {}): Promise<T> {
    const search = new URLSearchParams({ ...query, api_key: options.apiKey })
    const response = await doFetch(`${base}/_sandbox${route}?${search.toString()}`, {
      method,
      headers: method === "POST" ? { "content-type": "application/json" } : {},
      body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
    })
    const text = await response.text()
    if (response.status < 200 || response.status > 299) {
      throw new SandboxControlError(route, response.status, codeOf(text), text)
    }
    const parsed = JSON.parse(text) as { status?: string; data?: T }
    if (parsed.status !== "success" || parsed.data === undefined) {
      throw new SandboxControlError(route, response.status, null, text)
    }
    return parsed.data
  }

  const invoice = (txnId: string, action: string): string => `/invoices/${encodeURIComponent(txnId)}/${action}`
  const defined = <T extends Record<string, string | number | boolean | undefined>>(values: T): Record<string, string | number | boolean> =>
    Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined))

  return {
    apiKey: options.apiKey,
    pay: (txnId, o = {}) => call("POST", invoice(txnId, "pay"), defined({ amount: o.amount, confirmations: o.confirmations, error: o.error })),
    invoices: (o = {}) => call("GET", "/invoices", undefined, o.status === undefined ? {} : { status: o.status }),
    invoice: (txnId) => call("GET", `/invoices/${encodeURIComponent(txnId)}`),
    settle: (txnId) => call("POST", invoice(txnId, "settle")),
    expire: (txnId) => call("POST", invoice(txnId, "expire")),
    dropUnconfirmed: (txnId) => call("POST", invoice(txnId, "drop")),
    failNextWithdrawals: (o = {}) => call("POST", "/withdrawals/fail-next", defined({ count: o.count })),
    finishExchange: (id, o) => call("POST", `/exchanges/${encodeURIComponent(id)}/finish`, defined({ status: o.status, to_amount: o.toAmount })),
    cashIn: (o) => call("POST", "/cash-in", { psys_cid: o.psysCid, amount: o.amount }),
    dropCallbacks: (o = {}) => call("POST", "/callbacks/drop", defined({ count: o.count, txn_id: o.txnId, event: o.event })),
    shopSettings: (o) =>
      call(
        "POST",
        "/shop",
        defined({
          enabled_psys_cids: o.enabledPsysCids?.join(","),
          status_url: o.statusUrl === null ? "" : o.statusUrl,
          success_url: o.successUrl === null ? "" : o.successUrl,
        })
      ),
    currencySettings: (psysCid, o) => call("POST", `/currencies/${encodeURIComponent(psysCid)}`, defined({ maintenance: o.maintenance })),
    confirm: (txnId, o = {}) => call("POST", invoice(txnId, "confirm"), defined({ confirmations: o.confirmations })),
    switchCurrency: (txnId, psysCid) => call("POST", invoice(txnId, "switch"), { psys_cid: psysCid }),
    payDeposit: (hash, o) =>
      call("POST", `/deposits/${encodeURIComponent(hash)}/pay`, defined({ amount: o.amount, confirmations: o.confirmations, txid: o.txid })),
    advanceClock: (seconds) => call("POST", "/clock/advance", { seconds }),
    callbacks: (o = {}) => call("GET", "/callbacks", undefined, o.txnId === undefined ? {} : { txn_id: o.txnId }),
    redeliver: (deliveryId) => call("POST", `/callbacks/${encodeURIComponent(deliveryId)}/redeliver`),
    fault: (o) => call("POST", "/faults", defined({ mode: o.mode, path: o.path, count: o.count, ms: o.ms })),
    reset: () => call("POST", "/reset"),
    as: (apiKey) => createControlClient({ ...options, apiKey }),
  }
}
