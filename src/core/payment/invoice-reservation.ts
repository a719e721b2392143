import { MedusaError } from "@medusajs/framework/utils"
import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
import type { Invoice } from "../../gateway"
import type CryptoModuleService from "../../modules/crypto/service"
import { failureReason } from "../errors"
import { CryptoEvents, invoiceCreatedEvent } from "../events"
import { invoiceBooksAtCreation } from "./invoice-books"
import { orderNumberPlan, type ExistingInvoice } from "./order-number"

/**
 * Reserving a gateway `order_number` for a payment session before the gateway is asked
 * (spec §4.1, §8: unique per shop), on the invoice mirror's rows, inside one transaction of our
 * module holding the lock on the cart (`reserveCryptoInvoice`, `releaseCryptoInvoiceReservation`,
 * which the provider calls; docs/architecture.md#the-provider).
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

/** The part of our module a reservation runs in: one transaction with its lock. */
export type ReservationStore = Pick<CryptoModuleService, "inCryptoTransaction">

/**
 * Reserves the order number of a new payment session before the gateway is asked, in one
 * transaction under the lock on its cart: two sessions created at once for one cart, on any
 * instances, cannot take the same new number, and a retry after a failed call finds its reservation.
 */
export function reserveCryptoInvoice(store: ReservationStore, input: ReserveInvoiceInput): Promise<InvoiceReservation> {
  return store.inCryptoTransaction(async (tx) => {
    await tx.lockReservations(input.base)
    return reserveInvoiceRow(tx.invoices, input)
  })
}

/** Takes back a reservation the gateway clearly refused (spec §7: 4xx), under the same lock. Never for an unknown outcome. */
export function releaseCryptoInvoiceReservation(store: ReservationStore, input: { id: string; base: string }): Promise<void> {
  return store.inCryptoTransaction(async (tx) => {
    await tx.lockReservations(input.base)
    await releaseInvoiceReservation(tx.invoices, input.id)
  })
}

/** What recording a created invoice needs: our rows, and Medusa's event bus for `crypto.invoice.created` (absent in some unit tests). */
export interface RecordInvoiceDeps {
  store: Pick<CryptoModuleService, "updateCryptoInvoices">
  eventBus?: Pick<IEventBusModuleService, "emit">
  logger: Pick<Logger, "warn">
}

/**
 * Records the invoice the gateway created on its reserved row (ids, page, coin, the amount with
 * commission, status, the books at creation) and announces it: `crypto.invoice.created`
 * (docs/events.md), with the address and expiry the row does not keep, for the shopper's payment
 * instructions (docs/notifications.md) and a store's own subscriber. A failure to emit is logged,
 * never thrown: the checkout goes on.
 */
export async function recordCreatedInvoice(
  deps: RecordInvoiceDeps,
  reservation: InvoiceReservation,
  invoice: Invoice,
  facts: { provider_id: string; cart_id: string | null; psys_cid: string | null; whiteLabel: boolean; expireMinutes: number }
): Promise<void> {
  const psysCid = invoice.psys_cid ?? facts.psys_cid
  const amount = (invoice.invoice_total_sum ?? invoice.amount)?.toFixed() ?? null
  await deps.store.updateCryptoInvoices({
    id: reservation.id,
    txn_id: reservation.txn_id ?? invoice.txn_id,
    active_txn_id: invoice.txn_id,
    invoice_url: invoice.invoice_url ?? null,
    psys_cid: psysCid,
    currency: invoice.currency ?? null,
    expected_amount: amount,
    gateway_status: invoice.status ?? "new",
    ...invoiceBooksAtCreation(invoice),
  })
  const created = invoiceCreatedEvent({
    id: reservation.id,
    provider_id: facts.provider_id,
    cart_id: facts.cart_id,
    psys_cid: psysCid,
    currency: invoice.currency ?? null,
    amount,
    invoice_url: invoice.invoice_url ?? null,
    address: facts.whiteLabel ? (invoice.wallet_hash ?? null) : null,
    expire_utc: invoice.expire_utc,
    expireMinutes: facts.expireMinutes,
    createdAt: new Date(),
  })
  await deps.eventBus?.emit({ name: CryptoEvents.INVOICE_CREATED, data: created }).catch((error: unknown) => {
    deps.logger.warn(`crypto invoice ${reservation.order_number}: could not emit ${CryptoEvents.INVOICE_CREATED}: ${failureReason(error)}`)
  })
}

/**
 * Picks the order number and records it: an earlier invoice of the same amount, currency and coin
 * that still takes money is taken again (its number is asked for again, `return_existing`), else a
 * new number after the cart's earlier ones. The session then pays through this row only: every other
 * row naming the session is superseded by it, so money paid to those is never captured for it.
 * Must run under the lock of `input.base`.
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
