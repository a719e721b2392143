import { Decimal } from "decimal.js"
import { statusFacts } from "./payment-state"

/** An invoice already created (or reserved) for the same cart or payment collection. */
export interface ExistingInvoice {
  order_number: string
  attempt: number
  source_amount: string
  source_currency: string
  session_status: string
  /** The coin the invoice asks for; null while its creation has not answered. */
  psys_cid?: string | null
  /** The gateway's last word on it (spec §3), when synced. */
  gateway_status?: string | null
}

export type OrderNumberPlan =
  /** Same amount, currency and coin, invoice still payable: ask again with its number (`return_existing`). */
  | { kind: "reuse"; invoice: ExistingInvoice }
  /** A new invoice: `base` for the first, `base-2`, `base-3`... after it. */
  | { kind: "new"; orderNumber: string; attempt: number }

/** Invoices that can no longer take money: a new session must get a new invoice. */
const FINISHED = new Set(["canceled", "error"])
/**
 * Decides the gateway `order_number` for a new payment session (spec §4.1, §8: unique per shop).
 * Deterministic: the same history and amount always give the same answer, so a retry after a
 * timeout asks the gateway for the same invoice.
 */
export function orderNumberPlan(
  base: string,
  existing: readonly ExistingInvoice[],
  sourceAmount: string,
  sourceCurrency: string,
  /** The coin asked for now: another coin than the invoice's needs a new invoice (a storefront's coin picker). */
  psysCid?: string
): OrderNumberPlan {
  const amount = new Decimal(sourceAmount)
  const currency = sourceCurrency.toUpperCase()
  const reusable = existing
    .filter(
      (invoice) =>
        !FINISHED.has(invoice.session_status) &&
        !statusFacts(invoice.gateway_status).closed &&
        invoice.source_currency.toUpperCase() === currency &&
        (psysCid === undefined || invoice.psys_cid === undefined || invoice.psys_cid === null || invoice.psys_cid === psysCid) &&
        new Decimal(invoice.source_amount).eq(amount)
    )
    .sort((a, b) => b.attempt - a.attempt)[0]
  if (reusable !== undefined) {
    return { kind: "reuse", invoice: reusable }
  }
  const attempt = existing.reduce((max, invoice) => Math.max(max, invoice.attempt), 0) + 1
  return { kind: "new", orderNumber: orderNumberFor(base, attempt), attempt }
}

export function orderNumberFor(base: string, attempt: number): string {
  return attempt <= 1 ? base : `${base}-${attempt}`
}

/**
 * The base of one of our order numbers (the cart's or payment collection's id): `base`, `base-2`,
 * and a top-up's `base[-N]-rest[-N]` (src/core/payment/top-up.ts) all give `base`. Medusa's ids
 * (`cart_01…`) hold no `-`.
 */
export function orderNumberBase(orderNumber: string): string {
  return orderNumber.replace(/(-\d+)?(-rest(-\d+)?)?$/, "")
}
