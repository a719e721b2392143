import { MedusaError } from "@medusajs/framework/utils"
import { orderNumberPlan, type ExistingInvoice } from "./order-number"

/**
 * Reserving a gateway `order_number` for a payment session before the gateway is asked
 * (spec §4.1, §8: unique per shop), on the invoice mirror's rows. The crypto module's service runs
 * these inside one database transaction holding a lock on the cart (`reserveCryptoInvoice`,
 * `releaseCryptoInvoiceReservation`); the provider only calls the module
 * (docs/architecture.md#the-provider).
 */

/** An invoice mirror row as the reservation reads it. */
export interface ReservationRow extends ExistingInvoice {
  id: string
  txn_id: string | null
  session_id: string
  superseded_by: string | null
  /** Set on a top-up (docs/attention.md#paying-the-rest): never taken again, numbered apart. */
  topup_of?: string | null
}

/** What a new payment session asks for. */
export interface ReserveInvoiceInput {
  /** The cart id, or the payment collection's when no cart is linked: the order number's base and the lock's. */
  base: string
  cart_id: string | null
  payment_collection_id: string
  session_id: string
  provider_id: string
  /** The fiat amount sent to the gateway, a decimal string in `source_currency`. */
  source_amount: string
  source_currency: string
  /** The coin asked for, when the shopper or the settings chose one. */
  psys_cid?: string
}

/** The row reserved for a session. */
export interface InvoiceReservation {
  id: string
  order_number: string
  txn_id: string | null
  /** Made by this call with a new order number (not an earlier reservation taken again). */
  created: boolean
}

/** A new reservation's row. */
export interface NewReservationRow {
  provider_id: string
  order_number: string
  attempt: number
  cart_id: string | null
  payment_collection_id: string
  session_id: string
  source_currency: string
  source_amount: string
  session_status: "pending"
}

/** The mirror's rows, as the module's service gives them inside its transaction (fakes in unit tests). */
export interface ReservationRows {
  list(filters: { cart_id: string } | { payment_collection_id: string } | { superseded_by: string }): Promise<ReservationRow[]>
  create(data: NewReservationRow): Promise<{ id: string; order_number: string }>
  update(data: { id: string; session_id?: string; payment_collection_id?: string; superseded_by?: string | null }): Promise<unknown>
  delete(id: string): Promise<void>
}

/** The lock two sessions of one cart share while one of them picks its order number. */
export function reservationLockKey(base: string): string {
  return `crypto:order-number:${base}`
}

/**
 * Picks the order number and records it: an earlier invoice of the same amount, currency and coin
 * that still takes money is taken again (its number is asked for again, `return_existing`), else a
 * new number after the cart's earlier ones. The session then pays through this row only: every other
 * row naming the session is superseded by it, so money paid to those is never captured for it.
 * Must run under `reservationLockKey(input.base)`.
 */
export async function reserveInvoiceRow(rows: ReservationRows, input: ReserveInvoiceInput): Promise<InvoiceReservation> {
  const existing = await rows.list(input.cart_id !== null ? { cart_id: input.cart_id } : { payment_collection_id: input.payment_collection_id })
  // Top-ups carry their own numbers (`<root>-rest`) and only ever ask for a root's rest.
  const roots = existing.filter((row) => row.topup_of === null || row.topup_of === undefined)
  const plan = orderNumberPlan(input.base, roots, input.source_amount, input.source_currency, input.psys_cid)
  if (plan.kind === "reuse") {
    const reused = roots.find((invoice) => invoice.order_number === plan.invoice.order_number)
    if (reused === undefined) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `crypto invoice ${plan.invoice.order_number} vanished`)
    }
    await rows.update({ id: reused.id, session_id: input.session_id, payment_collection_id: input.payment_collection_id, superseded_by: null })
    await supersedeOthers(rows, existing, input.session_id, reused.id)
    return { id: reused.id, order_number: reused.order_number, txn_id: reused.txn_id, created: false }
  }
  const created = await rows.create({
    provider_id: input.provider_id,
    order_number: plan.orderNumber,
    attempt: plan.attempt,
    cart_id: input.cart_id,
    payment_collection_id: input.payment_collection_id,
    session_id: input.session_id,
    source_currency: input.source_currency,
    source_amount: input.source_amount,
    session_status: "pending",
  })
  await supersedeOthers(rows, existing, input.session_id, created.id)
  return { id: created.id, order_number: created.order_number, txn_id: null, created: true }
}

/**
 * Removes a reservation the gateway clearly refused and gives the rows it had superseded back their
 * session (the session keeps its earlier invoice: Medusa's update failed). Must run under the
 * reservation's lock.
 */
export async function releaseInvoiceReservation(rows: ReservationRows, id: string): Promise<void> {
  for (const row of await rows.list({ superseded_by: id })) {
    await rows.update({ id: row.id, superseded_by: null })
  }
  await rows.delete(id)
}

/**
 * One session, one paying invoice: every other row that named this session (the invoice of the old
 * amount after `updatePayment`) is marked superseded by `keptId`.
 */
async function supersedeOthers(rows: ReservationRows, existing: readonly ReservationRow[], sessionId: string, keptId: string): Promise<void> {
  for (const row of existing) {
    if (row.id !== keptId && row.session_id === sessionId && row.superseded_by === null) {
      await rows.update({ id: row.id, superseded_by: keptId })
    }
  }
}
