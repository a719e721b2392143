import { model } from "@medusajs/framework/utils"

/**
 * Our mirror of one gateway invoice (spec §2.1) and the Medusa payment session it pays.
 *
 * `order_number` is unique (spec §8: unique per shop): it is reserved here before the gateway is
 * asked, so a retried `initiatePayment` asks again with the same number and, with
 * `return_existing`, gets the same invoice back. Every amount is a decimal string: `source_*` in
 * the cart's fiat currency, the others in the invoice's coin.
 */
export const CryptoInvoice = model
  .define("crypto_invoice", {
    id: model.id({ prefix: "cinv" }).primaryKey(),
    provider_id: model.text(),
    order_number: model.text(),
    /** 1 for `cart_…`, 2 for `cart_…-2`, ... */
    attempt: model.number().default(1),
    cart_id: model.text().nullable(),
    payment_collection_id: model.text(),
    /** The latest payment session this invoice pays (an equal-amount retry reuses the invoice). */
    session_id: model.text(),
    source_currency: model.text(),
    source_amount: model.text(),
    /** The first invoice's `txn_id`; also the `switch_id` of its switch chain (spec §2.1). */
    txn_id: model.text().nullable(),
    /** The invoice of the chain that decides the session (the paid one after a switch). */
    active_txn_id: model.text().nullable(),
    invoice_url: model.text().nullable(),
    /**
     * The coin of the invoice that holds the money: the active invoice after a currency switch, the
     * coin the shopper picked on the hosted page (spec §6.1 `currency`), else the one asked for.
     * Every `*_amount` below is in this coin.
     */
    psys_cid: model.text().nullable(),
    currency: model.text().nullable(),
    expected_amount: model.text().nullable(),
    received_amount: model.text().nullable(),
    overpaid_amount: model.text().nullable(),
    /** The shortfall of an invoice accepted as paid within the underpayment tolerance (spec §3 `expired`). */
    underpaid_amount: model.text().nullable(),
    refund_due_amount: model.text().nullable(),
    /** The gateway status of the active invoice (spec §3). */
    gateway_status: model.text().nullable(),
    /**
     * What we applied in Medusa: pending, pending_authorization, captured, canceled, error; or
     * `abandoned`: Medusa deleted the invoice's payment session (the cart changed) while it was
     * open, so it is never captured; its money is an `abandoned_invoice_payment` (docs/attention.md).
     */
    session_status: model.text().default("pending"),
    order_id: model.text().nullable(),
    /** When the gateway first reported `error`: the job keeps polling for a bounded time after it (docs/attention.md#error-invoices). */
    errored_at: model.dateTime().nullable(),
    /**
     * Set when `updatePayment` gave the session a new invoice (a new amount): this row no longer
     * pays `session_id`, and money on it is money on an abandoned invoice.
     */
    superseded_by: model.text().nullable(),
    last_synced_at: model.dateTime().nullable(),
    /**
     * The latest gateway reading of this invoice's chain (src/core/payment/invoice-chain.ts,
     * `StoredGatewayReading`: status, amounts, when, under which status policy), written by the
     * sync's assess step under the invoice's lock. The provider's authorize and capture, run by the
     * apply step's Medusa workflows on any instance, take it while it is fresh instead of reading
     * the gateway again (docs/architecture.md#one-gateway-read-per-callback).
     */
    gateway_reading: model.json().nullable(),
    /**
     * Set on a top-up: the invoice (`cinv_…`) whose rest this one asks for, in the same coin, for the
     * same payment session (docs/attention.md#paying-the-rest). The first invoice and its top-ups
     * decide the session together; each keeps its own amounts.
     */
    topup_of: model.text().nullable(),
    /**
     * A top-up's payment details from the gateway's answer (spec §2.1: `wallet_hash`, `qr_code`,
     * `expire_utc`, `expected_confirmations`): the first invoice keeps them in the session data, a
     * top-up has no session of its own.
     */
    topup_details: model.json().nullable(),
    /**
     * Until when an order placed on detection waits for the rest after this invoice ended short
     * (docs/attention.md#paying-the-rest); the order is canceled when it passes unpaid. Null when
     * no order is held.
     */
    rest_until: model.dateTime().nullable(),
    /**
     * The books of the invoice (src/core/payment/invoice-books.ts, docs/books.md#accounting-export): the
     * gateway's fiat rate (fiat per coin), its commission and network fee in the coin, the paying
     * transactions, and when the gateway finished it. Null where the gateway has not said.
     */
    source_rate: model.text().nullable(),
    commission: model.text().nullable(),
    network_fee: model.text().nullable(),
    tx_ids: model.array().nullable(),
    paid_at: model.dateTime().nullable(),
    /**
     * When a sync first left this invoice's order as a person had set it (protect order status,
     * docs/books.md#protect-order-status). Once the gateway has also settled the invoice, the
     * reconciliation job stops polling it: nothing a later read says may move that order.
     */
    protected_at: model.dateTime().nullable(),
  })
  .indexes([
    { on: ["order_number"], unique: true },
    { on: ["cart_id"] },
    { on: ["session_id"] },
    { on: ["txn_id"] },
    { on: ["session_status"] },
    { on: ["topup_of"] },
  ])
