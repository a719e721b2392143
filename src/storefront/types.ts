/**
 * The store API's answers, declared once, here, and the kit's own status model. The kit is built and
 * published alone (.medusa/storefront), so it cannot import the server's declarations: the server's
 * routes and steps import these instead (type-only) and add only `account`, the invoice's books for
 * the merchant's tools, which the kit does not read; src/api/store/crypto/__tests__/storefront-kit.unit.spec.ts
 * checks that each route answers exactly these.
 *
 * Amounts are decimal strings everywhere ("0.00012345"), never numbers: a float cannot carry a
 * 30-digit coin amount (see src/storefront/README.md). The white-label fields (`address`, `qr_code`,
 * `expires_at`, `confirmations`, `pending_amount`) are null on a hosted invoice: the shopper pays on
 * the gateway's page, so the store does not know them until a callback arrives.
 */

/** Confirmations of the payment transaction: `current` of `required`, what the invoice needs to complete (spec §2.1; white-label, once detected). */
export interface CryptoConfirmations {
  current: number
  required: number
}

/**
 * The gateway's invoice status as the store last synced it (spec §3), lower case: new, pending,
 * pending internal, completed, mismatch, expired, cancelled, error. For display and support only: the
 * kit never branches on it, it reads `shopper_status`, which the store maps.
 */
export type CryptoGatewayStatus = string

/**
 * The cart's current crypto invoice, as `GET /store/crypto/payment-status` returns it. Every amount is
 * in `currency` (the coin), `source_amount` in `source_currency` (the cart's).
 */
export interface CryptoInvoiceStatus {
  /** The crypto payment provider of the invoice, e.g. "pp_crypto_crypto". */
  provider_id: string
  order_number: string
  /** 1 for the cart's first invoice, then one more per new invoice (expired, changed coin). */
  attempt: number
  /** The gateway's id of the invoice (the active one of a coin-switch chain). */
  txn_id: string | null
  /** The gateway's payment page (hosted mode; also present in white-label mode). */
  invoice_url: string | null
  /** Gateway status, for display; null before the first sync. The kit reads `shopper_status`. */
  status: CryptoGatewayStatus | null
  /**
   * The Medusa payment session status the plugin applied: "pending", "pending_authorization" (a
   * store that places orders on detection: completing the cart places the order), "captured",
   * "canceled", "error".
   */
  session_status: string
  /**
   * What the shopper is told, as the store maps it from the gateway's status and the amounts, so a
   * storefront never reads gateway statuses: new, pending, detected, underpaid, overpaid, paid,
   * expired, canceled, error. A value the kit does not know reads as "pending" (not paid yet).
   */
  shopper_status: CryptoInvoicePaymentStatus
  /** True when the store shows the invoice itself (white-label); false when the gateway's page does. */
  white_label: boolean
  /** Coin id the shopper pays with, e.g. "BTC", "USDT_TRX" (the gateway's `psys_cid`). */
  psys_cid: string | null
  /** Coin code, e.g. "USDT" (the gateway's `currency`; may differ from `psys_cid`, spec §1 item 6). */
  currency: string | null
  /** The network's short id: the suffix of a token's psys_cid (USDT_TRX → "TRX"), else the coin itself. `describeCoin` names it. */
  network: string | null
  /** The cart's currency and total ("EUR", "49.90"). */
  source_currency: string
  source_amount: string
  /**
   * Price of one coin in `source_currency` when the invoice was made, e.g. "76.47" (spec §2.1
   * `source_rate`); null for a hosted invoice, after a coin switch, or for a session older than it.
   * The kit shows it as "Rate 1 LTC = 76.47 EUR" and never derives one from rounded figures.
   */
  source_rate: string | null
  /** What the invoice asks for, in the coin: the amount to send, the gateway's commission included. */
  amount: string | null
  /**
   * The gateway's commission the shopper pays, in the coin, already included in `amount` (spec
   * §2.1: `invoice_total_sum` − the amount before it); null when none is added or it is unknown
   * (a hosted invoice).
   */
  commission_amount: string | null
  /** @deprecated the same as `amount`; kept for storefronts written against 0.1. */
  expected_amount: string | null
  /** What is still to pay, in the coin (white-label, live; spec §2.1: `pending_amount`). */
  pending_amount: string | null
  /** What was received so far, in the coin. */
  received_amount: string | null
  /** Received beyond what was asked (the merchant refunds it or keeps it as credit). */
  overpaid_amount: string | null
  /** The shortfall of a payment the store accepted within its underpaid tolerance, in the coin: nothing more is due. */
  underpaid_amount: string | null
  /** Received on an invoice that failed and must go back to the shopper. */
  refund_due_amount: string | null
  /** Payment address (white-label, live). */
  address: string | null
  /** The gateway's own QR image as a data URL (white-label); the kit draws its own from the payment URI. */
  qr_code: string | null
  /** ISO 8601 instant (UTC) the invoice expires (white-label, live). */
  expires_at: string | null
  confirmations: CryptoConfirmations | null
  /** Block explorer links of the payment transactions. */
  tx_urls: string[]
  /** ISO 8601 instant the store last synced the invoice from the gateway. */
  last_synced_at: string | null
  /**
   * Paying the rest (docs/attention.md#paying-the-rest): set when this invoice ended short with money
   * on it, or has top-ups. Null otherwise (a partial payment to an open invoice is finished on the
   * same address: `pending_amount`).
   */
  rest: CryptoPaymentRest | null
}

/** The rest of an invoice that ended short, and its latest top-up. Amounts in the invoice's coin, as decimal strings. */
export interface CryptoPaymentRest {
  /** Received by the invoice and its top-ups together. */
  received_amount: string
  /** Still due: what the invoice asked for (plus any commission on the top-ups) minus what was received. */
  due_amount: string
  /** The shopper may ask for a top-up now (`openCryptoTopUp`, POST /store/crypto/payment-sessions/top-up). */
  can_pay_rest: boolean
  /** The latest top-up invoice; while open, the shopper pays this one. */
  top_up: CryptoTopUp | null
}

/** A top-up invoice: the rest, in the same coin. White-label fields are null on a hosted invoice. */
export interface CryptoTopUp {
  order_number: string
  txn_id: string | null
  invoice_url: string | null
  status: CryptoGatewayStatus | null
  shopper_status: CryptoInvoicePaymentStatus
  psys_cid: string | null
  currency: string | null
  network: string | null
  /** What the top-up asks for, commission included. */
  amount: string | null
  received_amount: string | null
  address: string | null
  qr_code: string | null
  expires_at: string | null
}

/**
 * Money received on an invoice the cart no longer uses (docs/storefront.md, "Money on an earlier
 * invoice"). It never pays the cart: the store sends it back to the shopper in its coin
 * (docs/attention.md, `abandoned_invoice_payment`), and the shopper pays the cart's current total.
 * Amounts in `currency` (the coin); `source_amount` is what that invoice was made for.
 */
export interface CryptoAbandonedPayment {
  order_number: string
  attempt: number
  txn_id: string | null
  /** The gateway status of that invoice (spec §3). */
  status: CryptoGatewayStatus | null
  psys_cid: string | null
  currency: string | null
  network: string | null
  /** What that invoice was made for, in the cart's currency. */
  source_currency: string
  source_amount: string
  /** What that invoice asked for, in the coin. */
  amount: string | null
  /** What it received, in the coin. */
  received_amount: string
  /**
   * Why that invoice no longer pays the cart: `cart_changed` (the cart changed and Medusa deleted the
   * session the invoice paid), `amount_changed` (the session got a new invoice for a new amount),
   * `replaced` (the cart got a new invoice after this one expired or was cancelled).
   */
  reason: "cart_changed" | "amount_changed" | "replaced"
  /** What happens next: `refund`, the store sends the money back. */
  next_step: "refund"
}

/** `GET /store/crypto/payment-status?cart_id=` (header `x-publishable-api-key`); the refresh and top-up routes answer alike. */
export interface CryptoPaymentStatusResponse {
  cart_id: string
  /** The order placed from the cart, once there is one (by the callback or by the storefront). */
  order_id: string | null
  /** The cart's payment collection status ("not_paid", "awaiting", "authorized", "completed", ...). */
  payment_collection_status: string | null
  /**
   * The cart's current crypto invoice; `null` before a crypto payment session exists, and after the
   * cart changed until a new session is made (`cart_changed`).
   */
  invoice: CryptoInvoiceStatus | null
  /** The cart has crypto invoices, none of which pays it now: start a new payment for its current total. */
  cart_changed: boolean
  /** Money on invoices the cart no longer uses: to be returned by the store, never the cart's payment. */
  abandoned_payments: CryptoAbandonedPayment[]
}

/** One coin of `GET /store/crypto/currencies?cart_id=`. */
export interface CryptoCurrencyOption {
  psys_cid: string
  currency: string | null
  name: string | null
  icon: string | null
  /**
   * What the shopper will send in this coin for the cart: the total at the coin's current rate,
   * rounded up to the coin's places, plus the gateway's commission when the shopper pays it (spec
   * §2.1 `invoice_total_sum`), computed as the invoice will ask it; the coin picker shows it as
   * "You send", the word the payment panel uses for the invoice's amount. Display only: the invoice
   * decides, at the gateway's rate of the moment. Null when the coin has no rate.
   */
  amount: string | null
  /** Price of one coin in the cart's currency. */
  rate: string | null
  maintenance: boolean
  default: boolean
}

/**
 * A coin the store accepts that this cart cannot be paid with, and why: `below_minimum` (the cart
 * total, converted at the gateway's rate, is below the coin's smallest invoice, spec §2.4
 * `min_sum_in`). Coins the shop disabled at the gateway are not listed at all.
 */
export interface CryptoCurrencyUnavailable {
  psys_cid: string
  currency: string | null
  name: string | null
  icon: string | null
  reason: "below_minimum"
  /** The coin's minimum, in the coin. */
  minimum: string
  /** The same in the cart's currency at the gateway's rate, rounded up to its minor units. */
  minimum_fiat: string
}

/** `GET /store/crypto/currencies?cart_id=`. */
export interface CryptoCurrenciesResponse {
  cart_id: string
  /** The crypto payment provider of the cart's region, e.g. "pp_crypto_crypto". */
  provider_id: string
  currency_code: string
  total: string
  /** The coins the shopper may pick. */
  currencies: CryptoCurrencyOption[]
  /** Coins not offered for this cart, with the reason. */
  unavailable: CryptoCurrencyUnavailable[]
  /** Why `currencies` is empty when no coin could be offered whatever its rate: `zero_total` (nothing to pay); else null. */
  reason: "zero_total" | null
}

/**
 * The kit's status model: what a shopper is told. One function (`toCryptoPaymentState`) maps a
 * status response to it.
 * - `new`: invoice open, nothing received.
 * - `pending`: nothing to show yet (no invoice, or a status the kit does not know).
 * - `detected`: payment seen, waiting for confirmations.
 * - `underpaid`: part received, the invoice still open; `amountDue` says what is left.
 * - `paid` / `overpaid`: paid (overpaid: more than asked, `overpaidAmount`).
 * - `expired`, `canceled`, `error`: the invoice failed; a new invoice is needed.
 * - `cart_changed`: the cart changed after the invoice was made; it no longer pays the cart, and
 *   a new payment for the new total is needed (money sent to it: `abandonedPayments`).
 */
export type CryptoPaymentStatus =
  | "new"
  | "pending"
  | "detected"
  | "underpaid"
  | "overpaid"
  | "paid"
  | "expired"
  | "canceled"
  | "error"
  | "cart_changed"
  /** The invoice ended short: the rest can be paid (a top-up is offered or open). */
  | "rest_due"

/** What the store route says about its current invoice (`invoice.shopper_status`): every status but `cart_changed` and `rest_due` (the kit's own). */
export type CryptoInvoicePaymentStatus = Exclude<CryptoPaymentStatus, "cart_changed" | "rest_due">

export interface CryptoPaymentState {
  status: CryptoPaymentStatus
  /** No later poll can change it (paid, overpaid, expired, canceled, error, cart_changed). */
  final: boolean
  orderId: string | null
  psysCid: string | null
  /** Coin code ("USDT"), else the coin id. */
  currency: string | null
  address: string | null
  invoiceUrl: string | null
  /** What the invoice asks for, in the coin: the amount to send, commission included. */
  amount: string | null
  /** The gateway's commission included in `amount`, when one is added; else null. */
  commissionAmount: string | null
  /** The order total the invoice was made for, in `sourceCurrency` (the cart's currency). */
  sourceAmount: string | null
  sourceCurrency: string | null
  /** Price of one coin in `sourceCurrency` at the invoice's creation (spec §2.1 `source_rate`); null when not known. */
  sourceRate: string | null
  /** What is still to pay (underpaid; also the whole amount while `new`). */
  amountDue: string | null
  receivedAmount: string | null
  overpaidAmount: string | null
  refundDueAmount: string | null
  confirmations: CryptoConfirmations | null
  expiresAt: string | null
  txUrls: string[]
  /** Money on earlier invoices the cart no longer uses: the store returns it; it never counts as paid. */
  abandonedPayments: CryptoAbandonedPayment[]
  /**
   * The rest of an invoice that ended short (status `rest_due`, or a top-up being paid): received so
   * far, still due, whether a top-up may be asked for now. While a top-up is open, the payment
   * fields above (address, amount, link, expiry) are the top-up's. Null otherwise.
   */
  rest: { receivedAmount: string; dueAmount: string; canPayRest: boolean; topUpOpen: boolean } | null
}
export type * from "./refund-claim-types.js"
