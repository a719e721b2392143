import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { accountOfInvoices, invoiceAccount, type InvoiceAccount } from "../../core/money-out/account"
import { Decimal } from "decimal.js"
import { exact, sumAmounts } from "../../core/money"
import { networkOf } from "../../core/coins"
import { groupReceived, topUpCommission, topUpPlan, type TopUpGroupRow } from "../../core/payment/top-up"
import { isDecimalString } from "../../gateway/core/money"
import { shopperStatusOf, statusFacts } from "../../core/payment/payment-state"
import { CRYPTO_MODULE } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import type { CryptoAbandonedPayment, CryptoInvoiceStatus, CryptoPaymentRest, CryptoPaymentStatusResponse, CryptoTopUp } from "../../storefront/types"
import { cartNotFound } from "./find-cart-crypto-invoice"
import { cartOrderCanceled } from "./open-crypto-top-up"

/**
 * The answer of GET /store/crypto/payment-status (and of the refresh and top-up routes): the storefront
 * kit's declaration (src/storefront/types.ts), which is what a storefront reads, and beside each
 * invoice its account for the merchant's tools: expected, received, confirmed, sent back, refunded,
 * held, in its coin (src/core/money-out/account.ts). The kit does not read it.
 */
export interface StoreCryptoPaymentStatus extends CryptoPaymentStatusResponse {
  invoice: StoreCryptoPaymentInvoice | null
  abandoned_payments: StoreCryptoAbandonedPayment[]
}

/** The cart's current invoice, with its account. */
export interface StoreCryptoPaymentInvoice extends CryptoInvoiceStatus {
  account: InvoiceAccount | null
}

/** That invoice's account: what it received, what was sent back; it never holds the order's money. */
export interface StoreCryptoAbandonedPayment extends CryptoAbandonedPayment {
  account: InvoiceAccount
}

export type { CryptoConfirmations as CryptoPaymentConfirmations } from "../../storefront/types"

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null)

/** A whole number sent as a string or a number ("2", 2), at most `digits` long; anything else is unknown. */
function wholeNumber(value: unknown, digits = 9): number | null {
  const raw = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : ""
  return raw.length <= digits && /^\d+$/.test(raw) ? Number(raw) : null
}

/** `expire_utc` is seconds since the epoch (spec §2.1). */
function isoFromSeconds(value: unknown): string | null {
  const seconds = wholeNumber(value, 12)
  return seconds === null ? null : new Date(seconds * 1000).toISOString()
}

function isoOf(value: unknown): string | null {
  if (value instanceof Date) return value.toISOString()
  return typeof value === "string" ? new Date(value).toISOString() : null
}

/** The gateway sends the QR as bare base64 (spec §2.1); an <img> needs a data URL. */
function qrDataUrl(value: unknown): string | null {
  const raw = text(value)
  if (raw === null) return null
  return raw.startsWith("data:") ? raw : `data:image/png;base64,${raw}`
}

export { networkOf }

/** The rate the session data keeps (`source_rate`, spec §2.1): a plain decimal string above zero, else null. */
export function sessionSourceRate(sessionData: Record<string, unknown>): string | null {
  const rate = sessionData.source_rate
  return typeof rate === "string" && isDecimalString(rate) && exact(rate).gt(0) ? rate : null
}

export const readCryptoPaymentStatusStepId = "read-crypto-payment-status"

type InvoiceRow = Awaited<ReturnType<CryptoModuleService["retrieveCryptoInvoice"]>>

function hasMoney(invoice: InvoiceRow): boolean {
  const received = invoice.received_amount
  return (received !== null && exact(received).gt(0)) || statusFacts(invoice.gateway_status).moneySeen
}

function abandonedReason(invoice: InvoiceRow): CryptoAbandonedPayment["reason"] {
  if (invoice.superseded_by !== null) return "amount_changed"
  return statusFacts(invoice.gateway_status).closedUnpaid ? "replaced" : "cart_changed"
}

/**
 * Builds the storefront's view of a cart's current invoice from what we store: the invoice mirror
 * (status and amounts as last synced), the payment session's data (what the gateway answered when
 * the invoice was created: address, QR, expiry, confirmations required) and the latest verified
 * callback of the invoice (confirmations so far, amount still due, explorer links); and, beside it,
 * the money received on the cart's other invoices (`abandoned_payments`). Reads only.
 */
export const readCryptoPaymentStatusStep = createStep(
  readCryptoPaymentStatusStepId,
  async (input: { cart_id: string; invoice_id: string | null; live_session_ids?: string[] }, { container }) => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const cryptoModule = container.resolve<CryptoModuleService>(CRYPTO_MODULE)
    const { data: carts } = await query.graph({ entity: "cart", fields: ["id", "payment_collection.status"], filters: { id: input.cart_id } })
    if (carts[0] === undefined) {
      throw cartNotFound(input.cart_id)
    }
    const { data: orderLinks } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: input.cart_id } })
    const rows = await cryptoModule.listCryptoInvoices({ cart_id: input.cart_id })
    const invoice = input.invoice_id === null ? undefined : rows.find((row) => row.id === input.invoice_id) ?? (await cryptoModule.retrieveCryptoInvoice(input.invoice_id))
    const live = new Set(input.live_session_ids ?? [])
    const abandoned = rows
      .filter((row) => row.id !== invoice?.id && row.txn_id !== null && (row.superseded_by !== null || !live.has(row.session_id)) && hasMoney(row))
      .sort((a, b) => a.attempt - b.attempt)
    let view: StoreCryptoPaymentInvoice | null = null
    if (invoice !== undefined) {
      const { data: sessions } = await query.graph({ entity: "payment_session", fields: ["id", "data"], filters: { id: invoice.session_id } })
      view = await invoiceView(cryptoModule, invoice, (sessions[0]?.data as Record<string, unknown> | null | undefined) ?? {}, () => cartOrderCanceled(query, input.cart_id))
    }
    // Their accounts never hold the order's money (src/core/money-out/account.ts): what left is summed from
    // the withdrawals that name them (a refund of the abandoned payment).
    const withdrawals = abandoned.length === 0 ? [] : await cryptoModule.listCryptoWithdrawals({ invoice_id: abandoned.map((row) => row.id) })

    return new StepResponse<StoreCryptoPaymentStatus>({
      cart_id: input.cart_id,
      order_id: text(orderLinks[0]?.order_id) ?? invoice?.order_id ?? null,
      payment_collection_status: text(carts[0].payment_collection?.status),
      invoice: view,
      cart_changed: invoice === undefined,
      abandoned_payments: abandoned.map((row) => ({
        order_number: row.order_number,
        attempt: row.attempt,
        txn_id: row.active_txn_id ?? row.txn_id,
        status: row.gateway_status,
        psys_cid: row.psys_cid,
        currency: row.currency,
        network: networkOf(row.psys_cid),
        source_currency: row.source_currency,
        source_amount: row.source_amount,
        amount: row.expected_amount,
        received_amount: row.received_amount ?? "0",
        reason: abandonedReason(row),
        next_step: "refund",
        account: invoiceAccount(row, withdrawals, false),
      })),
    })
  }
)

/** The current invoice as the storefront shows it, with its payment session's data. */
async function invoiceView(
  cryptoModule: CryptoModuleService,
  invoice: InvoiceRow,
  sessionData: Record<string, unknown>,
  orderCanceled: () => Promise<boolean>
): Promise<StoreCryptoPaymentInvoice> {
  const view = await invoiceFields(cryptoModule, invoice, sessionData)
  return { ...view, shopper_status: shopperStatusOf(view), rest: await restOf(cryptoModule, invoice, orderCanceled) }
}

/** The rest of an invoice that ended short and its top-ups (docs/attention.md#paying-the-rest). */
async function restOf(cryptoModule: CryptoModuleService, root: InvoiceRow, orderCanceled: () => Promise<boolean>): Promise<CryptoPaymentRest | null> {
  const topUps = await cryptoModule.listCryptoInvoices({ topup_of: root.id }, { order: { created_at: "ASC" } })
  const endedShort = root.session_status === "canceled" && root.received_amount !== null && exact(root.received_amount).gt(0)
  if (topUps.length === 0 && !endedShort) return null
  const ids = [root.id, ...topUps.map((row) => row.id)]
  const [items, withdrawals] = await Promise.all([
    cryptoModule.listCryptoAttentions({ kind: "underpaid", subject_id: root.id, status: "open" }, { take: 1 }),
    cryptoModule.listCryptoWithdrawals({ invoice_id: ids }, { take: 1 }),
  ])
  const plan = topUpPlan(root as TopUpGroupRow, topUps as TopUpGroupRow[], {
    underpaidItemOpen: items.length > 0,
    moneySentBack: withdrawals.length > 0,
    orderCanceled: await orderCanceled(),
    restExpired: root.rest_until !== null && new Date(root.rest_until).getTime() <= Date.now(),
  })
  const same = topUps.filter((row) => row.psys_cid === root.psys_cid)
  const commissions = same.map((row) => topUpCommission(row.topup_details) ?? "0")
  const received = groupReceived(root as TopUpGroupRow, topUps as TopUpGroupRow[])
  const expected = root.expected_amount === null ? null : sumAmounts([root.expected_amount, ...commissions])
  const latest = topUps[topUps.length - 1]
  return {
    received_amount: received.toFixed(),
    due_amount: expected === null || root.session_status === "captured" ? "0" : Decimal.max(0, expected.minus(received)).toFixed(),
    can_pay_rest: plan.kind === "new",
    top_up: latest === undefined ? null : topUpView(latest),
  }
}

function topUpView(row: InvoiceRow): CryptoTopUp {
  const details = (typeof row.topup_details === "object" && row.topup_details !== null ? row.topup_details : {}) as Record<string, unknown>
  const address = text(details.wallet_hash)
  const fields = {
    status: row.gateway_status,
    session_status: row.session_status,
    received_amount: row.received_amount,
    amount: row.expected_amount,
    pending_amount: null,
    overpaid_amount: row.overpaid_amount,
  }
  return {
    order_number: row.order_number,
    txn_id: row.active_txn_id ?? row.txn_id,
    invoice_url: row.invoice_url,
    status: row.gateway_status,
    shopper_status: shopperStatusOf(fields),
    psys_cid: row.psys_cid,
    currency: row.currency,
    network: networkOf(row.psys_cid),
    amount: row.expected_amount,
    received_amount: row.received_amount,
    address,
    qr_code: address === null ? null : qrDataUrl(details.qr_code),
    expires_at: isoFromSeconds(details.expire_utc),
  }
}

async function invoiceFields(
  cryptoModule: CryptoModuleService,
  invoice: InvoiceRow,
  sessionData: Record<string, unknown>
): Promise<Omit<StoreCryptoPaymentInvoice, "shopper_status" | "rest">> {
  const activeTxnId = invoice.active_txn_id ?? invoice.txn_id
  // A hosted-page coin switch moves the money to another invoice (spec §2.1): what the session
  // holds (address, QR, expiry) describes the first one only.
  const sameInvoice = activeTxnId !== null && activeTxnId === invoice.txn_id
  const callbacks =
    activeTxnId === null ? [] : await cryptoModule.listCryptoCallbacks({ txn_id: activeTxnId }, { select: ["status", "fields", "created_at"], order: { created_at: "DESC" } })
  const latest = callbacks.find((callback) => callback.status === invoice.gateway_status) ?? callbacks[0]
  const fields: Record<string, unknown> = (latest?.fields as Record<string, unknown> | undefined) ?? {}

  const whiteLabel = text(sessionData.wallet_hash) !== null
  const required = wholeNumber(sessionData.expected_confirmations)
  const current = wholeNumber(fields.confirmations)
  const psysCid = invoice.psys_cid
  // Every amount with its coin, derived from the invoice and the withdrawals that name it (src/core/money-out/account.ts).
  const { holding: account } = await accountOfInvoices(cryptoModule, [invoice], { payment_session_ids: [invoice.session_id] })
  const txUrls = Array.isArray(fields.tx_urls) ? fields.tx_urls.filter((url): url is string => typeof url === "string") : []

  return {
    provider_id: invoice.provider_id,
    order_number: invoice.order_number,
    attempt: invoice.attempt,
    txn_id: activeTxnId,
    invoice_url: invoice.invoice_url,
    status: invoice.gateway_status,
    session_status: invoice.session_status,
    white_label: whiteLabel,
    psys_cid: psysCid,
    currency: invoice.currency,
    network: networkOf(psysCid),
    source_currency: invoice.source_currency,
    source_amount: invoice.source_amount,
    // The session describes the first invoice only: after a coin switch its rate is another coin's.
    source_rate: sameInvoice ? sessionSourceRate(sessionData) : null,
    amount: invoice.expected_amount,
    expected_amount: invoice.expected_amount,
    commission_amount: sameInvoice ? text(sessionData.commission_amount) : null,
    pending_amount: whiteLabel ? (invoice.session_status === "captured" ? "0" : text(fields.pending_amount) ?? (sameInvoice ? text(sessionData.pending_amount) : null)) : null,
    received_amount: invoice.received_amount,
    overpaid_amount: invoice.overpaid_amount,
    underpaid_amount: invoice.underpaid_amount,
    refund_due_amount: invoice.refund_due_amount,
    account,
    address: whiteLabel && sameInvoice ? text(sessionData.wallet_hash) : null,
    qr_code: whiteLabel && sameInvoice ? qrDataUrl(fields.qr_code ?? sessionData.qr_code) : null,
    expires_at: sameInvoice ? isoFromSeconds(sessionData.expire_utc) : null,
    // Known once a payment is seen (a callback counts them) on an invoice that says how many it needs.
    confirmations: required === null || current === null ? null : { current, required },
    tx_urls: txUrls,
    last_synced_at: isoOf(invoice.last_synced_at),
  }
}
