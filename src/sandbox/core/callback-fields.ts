import type { CallbackFields, CallbackFormat } from "./dispatcher"
import { figures } from "./invoice-machine"
import { Dec, str } from "./money"
import { fiatForCrypto } from "./rates"
import type { Deposit, Invoice, PayIn, SeedCoin, SeedShop } from "./types"

/** pay_in callbacks state their fiat amount in USD (spec §6.2), whose ISO 4217 minor units are 2. */
const USD_MINOR_UNITS = 2

/** The explorer link of a transaction on a coin (the seed's `explorer_tx_url` template). */
export type TxUrlOf = (coin: SeedCoin, txid: string) => string

const COMMENTS: Record<Exclude<Invoice["status"], "error">, string> = {
  new: "Waiting for payment",
  pending: "Payment seen, waiting for confirmations",
  "pending internal": "Moving the funds to the merchant wallet",
  completed: "Paid in full",
  mismatch: "Overpaid",
  expired: "Expired, partly paid",
  cancelled: "No payment received before expiry",
  "cancelled duplicate": "Paid in another currency",
}

/** The invoice's `comment` (spec §6.1 leaves the text open): one short sentence per status, an error its reason. */
export function invoiceComment(invoice: Invoice): string {
  return invoice.status === "error" ? (invoice.error_reason ?? "Error") : COMMENTS[invoice.status]
}

/**
 * spec §6.1 invoice callback fields: every value a string except `tx_urls` (a list here; the
 * dispatcher writes it per body format, see `wireFields`). White-label shops also get `psys_cid`,
 * `pending_amount`, `expire_utc`, `qr_code` and `tx_urls`; `switch_id` only inside a switch chain.
 */
export function invoiceCallbackFields(invoice: Invoice, coin: SeedCoin, shop: SeedShop, txUrl: TxUrlOf): CallbackFields {
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
    comment: invoiceComment(invoice),
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
    fields.tx_urls = invoice.txs.map((t) => txUrl(coin, t.txid))
  }
  return fields
}

/** spec §6.2 deposit (`pay_in`) callback fields: every value a string except `tx_urls`. */
export function payInCallbackFields(payIn: PayIn, deposit: Deposit, coin: SeedCoin, shop: SeedShop, txUrl: TxUrlOf): CallbackFields {
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
    source_amount: str(fiatForCrypto(amount, new Dec(coin.rate_usd), USD_MINOR_UNITS)),
    source_currency: "USD",
    source_rate: coin.rate_usd,
    status: payIn.status,
    tx_urls: [txUrl(coin, payIn.tx.txid)],
    txn_id: payIn.id,
    wallet_hash: deposit.hash,
  }
}

/**
 * A list as PHP's default `json_encode` writes it: `/` escaped as `\/`, non-ASCII as lower-case
 * `\uXXXX` (UTF-16 units). `JSON.stringify` escapes quotes, backslashes and control characters as
 * PHP does; every `/` it writes is inside a string, so escaping them all is exact.
 */
export function phpJsonEncodeList(items: readonly string[]): string {
  return JSON.stringify(items)
    .replace(/\//g, "\\/")
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
}

/**
 * The fields as a body of `format` carries them. JSON bodies keep `tx_urls` as a list. Form bodies
 * (multipart) carry it as ONE string field holding the list as PHP's `json_encode` writes it: the
 * gateway family's PHP receivers sign `html_entity_decode($post['tx_urls'])`, which needs a string,
 * and the gateway's white-label data holds the field that way (docs/gateway-readings.md#tx-urls).
 */
export function wireFields(fields: CallbackFields, format: CallbackFormat): CallbackFields {
  if (format === "json") {
    return fields
  }
  const out: CallbackFields = {}
  for (const [name, value] of Object.entries(fields)) {
    out[name] = typeof value === "string" ? value : phpJsonEncodeList(value)
  }
  return out
}
