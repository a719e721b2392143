import { figures } from "../core/invoice-machine"
import { str } from "../core/money"
import type { SandboxCore } from "../core/sandbox-core"
import type { CashIn, Invoice, PayIn, SeedCoin, SeedShop } from "../core/types"

/** One transaction of an invoice as the control API shows it. */
export interface InvoiceTxState {
  txid: string
  value: string
  confirmations: number
  tx_url: string
}

/** The sandbox's own view of an invoice (control API answers, the hosted page's status poll). */
export interface InvoiceState {
  txn_id: string
  status: string
  order_number: string
  /** what the shop sent (spec §4.1 `order_name`, `description`) */
  order_name: string
  description: string | null
  /** the coins the payer may choose (spec §4.1 `allowed_psys_cids`), empty when none was sent */
  allowed_psys_cids: string[]
  psys_cid: string
  currency: string
  /** decimal places of the coin (amounts are never finer) */
  precision: number
  amount: string
  invoice_commission: string
  invoice_sum: string
  invoice_total_sum: string
  source_currency: string
  source_amount: string
  /** every transaction seen, confirmed or not */
  received: string
  /** transactions with the coin's expected confirmations */
  confirmed: string
  pending_amount: string
  /** what the shop's balance was credited for this invoice so far (confirmed − commission), "0" before */
  credited: string
  confirmations: number
  expected_confirmations: number
  wallet_hash: string
  invoice_url: string
  expire_utc: number
  parent_id: string | null
  child_ids: string[]
  switch_id: string | null
  tx_urls: string[]
  txs: InvoiceTxState[]
}

export function invoiceState(core: SandboxCore, invoice: Invoice): InvoiceState {
  const coin = core.requireCoin(invoice.psys_cid, "psys_cid")
  const f = figures(invoice, coin)
  return {
    txn_id: invoice.txn_id,
    status: invoice.status,
    order_number: invoice.order_number,
    order_name: invoice.order_name,
    description: invoice.description,
    allowed_psys_cids: invoice.allowed_psys_cids,
    psys_cid: invoice.psys_cid,
    currency: coin.currency,
    precision: coin.precision,
    amount: invoice.amount,
    invoice_commission: invoice.invoice_commission,
    invoice_sum: invoice.invoice_sum,
    invoice_total_sum: invoice.invoice_total_sum,
    source_currency: invoice.source_currency,
    source_amount: invoice.source_amount,
    received: str(f.received),
    confirmed: str(f.confirmed),
    pending_amount: str(f.pendingAmount),
    credited: invoice.credited ?? "0",
    confirmations: f.confirmations,
    expected_confirmations: coin.expected_confirmations,
    wallet_hash: invoice.wallet_hash,
    invoice_url: core.invoiceUrl(invoice.txn_id),
    expire_utc: Math.floor(invoice.expire_at / 1000),
    parent_id: invoice.parent_id,
    child_ids: invoice.child_ids,
    switch_id: invoice.switch_id,
    tx_urls: invoice.txs.map((t) => core.txUrl(coin, t.txid)),
    txs: invoice.txs.map((t) => ({ txid: t.txid, value: t.value, confirmations: t.confirmations, tx_url: core.txUrl(coin, t.txid) })),
  }
}

/** A cash_in as the control API answers it. */
export interface CashInState {
  id: string
  type: "cash_in"
  psys_cid: string
  amount: string
  status: string
}

export function cashInView(c: CashIn): CashInState {
  return { id: c.id, type: "cash_in", psys_cid: c.psys_cid, amount: c.amount, status: c.status }
}

export function payInView(core: SandboxCore, payIn: PayIn): Record<string, string | number> {
  const coin = core.requireCoin(payIn.psys_cid, "psys_cid")
  return {
    id: payIn.id,
    status: payIn.status,
    uid: payIn.uid,
    psys_cid: payIn.psys_cid,
    hash: payIn.hash,
    amount: payIn.amount,
    commission: payIn.commission,
    txid: payIn.tx.txid,
    confirmations: payIn.tx.confirmations,
    tx_url: core.txUrl(coin, payIn.tx.txid),
  }
}

/** A shop's settings as the control API's `shop` route answers them (never its secret key). */
export interface ShopSettingsState {
  id: string
  default_psys_cid: string
  enabled_psys_cids: string[]
  status_url: string | null
  success_url: string | null
}

export function shopSettingsView(shop: SeedShop): ShopSettingsState {
  return {
    id: shop.id,
    default_psys_cid: shop.default_psys_cid,
    enabled_psys_cids: shop.enabled_psys_cids,
    status_url: shop.status_url,
    success_url: shop.success_url,
  }
}

/** A coin as the control API's `currencies/:psys_cid` route answers it. */
export interface CurrencyState {
  psys_cid: string
  maintenance: boolean
  min_sum_in: string
}

export function currencyStateView(coin: SeedCoin): CurrencyState {
  return { psys_cid: coin.psys_cid, maintenance: coin.maintenance, min_sum_in: coin.min_sum_in }
}
