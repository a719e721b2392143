import { figures } from "../core/invoice-machine"
import { str } from "../core/money"
import type { SandboxCore } from "../core/sandbox-core"
import type { Invoice, PayIn } from "../core/types"

/** The sandbox's own view of an invoice (control API answers, the hosted page's status poll). */
export interface InvoiceState {
  txn_id: string
  status: string
  psys_cid: string
  currency: string
  amount: string
  invoice_total_sum: string
  received: string
  pending_amount: string
  confirmations: number
  expected_confirmations: number
  wallet_hash: string
  invoice_url: string
  expire_utc: number
  parent_id: string | null
  child_ids: string[]
  switch_id: string | null
  tx_urls: string[]
}

export function invoiceState(core: SandboxCore, invoice: Invoice): InvoiceState {
  const coin = core.requireCoin(invoice.psys_cid, "psys_cid")
  const f = figures(invoice, coin)
  return {
    txn_id: invoice.txn_id,
    status: invoice.status,
    psys_cid: invoice.psys_cid,
    currency: coin.currency,
    amount: invoice.amount,
    invoice_total_sum: invoice.invoice_total_sum,
    received: str(f.received),
    pending_amount: str(f.pendingAmount),
    confirmations: f.confirmations,
    expected_confirmations: coin.expected_confirmations,
    wallet_hash: invoice.wallet_hash,
    invoice_url: core.invoiceUrl(invoice.txn_id),
    expire_utc: Math.floor(invoice.expire_at / 1000),
    parent_id: invoice.parent_id,
    child_ids: invoice.child_ids,
    switch_id: invoice.switch_id,
    tx_urls: invoice.txs.map((t) => core.txUrl(coin, t.txid)),
  }
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
