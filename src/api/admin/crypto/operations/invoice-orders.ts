import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type CryptoModuleService from "../../../../modules/crypto/service"

/** The Medusa order an invoice belongs to, as the merchant knows it (`#12`). */
export interface OperationOrder {
  order_id: string
  display_id: number
}

/** Per operation id (an invoice's `txn_id`, spec §2.2 `id`), the order of the invoice; invoices without an order are absent. */
export type OperationOrders = Record<string, OperationOrder>

/** The invoice rows the operations list needs: which txn ids they hold, their coin, their order or collection. */
type InvoiceRow = { txn_id: string | null; active_txn_id: string | null; psys_cid: string | null; order_id: string | null; payment_collection_id: string }
type InvoiceStore = Pick<CryptoModuleService, "listCryptoInvoices">

const ROW_FIELDS = ["id", "txn_id", "active_txn_id", "psys_cid", "order_id", "payment_collection_id", "created_at"]

/** The txn ids an invoice row stands for at the gateway: the first invoice and, after a coin switch, the active one. */
const txnIdsOf = (row: InvoiceRow): string[] => [...new Set([row.active_txn_id, row.txn_id].filter((id): id is string => id !== null))]

/**
 * A search that names an order by its display id: "#12", or "12" (which may also be a gateway text:
 * `explicit` tells them apart). Display ids are positive integers (a PostgreSQL integer).
 */
export function orderSearchOf(search: string | undefined): { displayId: number; explicit: boolean } | undefined {
  const match = /^(#?)\s*(\d{1,9})$/.exec(search?.trim() ?? "")
  if (match === null || Number(match[2]) === 0) return undefined
  return { displayId: Number(match[2]), explicit: match[1] === "#" }
}

/**
 * The orders of the invoices among `operationIds`, read in three batched reads whatever the page
 * holds: our invoice rows by txn id (`crypto_invoice`), the order of rows that do not name one
 * through Medusa's order ↔ payment_collection link (a collection billed after checkout, or a row the
 * sync has not reached yet), and the orders' display ids.
 */
export async function ordersOfInvoices(scope: MedusaContainer, store: InvoiceStore, operationIds: readonly string[]): Promise<OperationOrders> {
  if (operationIds.length === 0) return {}
  const ids = [...operationIds]
  const rows: InvoiceRow[] = await store.listCryptoInvoices({ $or: [{ txn_id: ids }, { active_txn_id: ids }] }, { select: ROW_FIELDS })
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  const unlinked = [...new Set(rows.filter((row) => row.order_id === null).map((row) => row.payment_collection_id))]
  const orderOfCollection = new Map<string, string>()
  if (unlinked.length > 0) {
    const { data: links } = await query.graph({ entity: "order_payment_collection", fields: ["order_id", "payment_collection_id"], filters: { payment_collection_id: unlinked } })
    for (const link of links) {
      if (typeof link?.order_id === "string" && typeof link.payment_collection_id === "string") orderOfCollection.set(link.payment_collection_id, link.order_id)
    }
  }
  const orderOfRow = (row: InvoiceRow): string | undefined => row.order_id ?? orderOfCollection.get(row.payment_collection_id)
  const orderIds = [...new Set(rows.map(orderOfRow).filter((id): id is string => id !== undefined))]
  if (orderIds.length === 0) return {}
  const { data: orders } = await query.graph({ entity: "order", fields: ["id", "display_id"], filters: { id: orderIds } })
  const displayIds = new Map<string, number>()
  for (const order of orders) {
    if (typeof order?.id === "string" && typeof order.display_id === "number") displayIds.set(order.id, order.display_id)
  }
  const wanted = new Set(ids)
  const result: OperationOrders = {}
  for (const row of rows) {
    const orderId = orderOfRow(row)
    const displayId = orderId === undefined ? undefined : displayIds.get(orderId)
    if (orderId === undefined || displayId === undefined) continue
    for (const txnId of txnIdsOf(row)) {
      if (wanted.has(txnId)) result[txnId] = { order_id: orderId, display_id: displayId }
    }
  }
  return result
}

/** The invoices of an order at the gateway: their txn ids, newest invoice first, each with its coin and the order. */
export interface OrderInvoices {
  txnIds: string[]
  /** The coin our row recorded per txn id (an operation of a shop without white-label carries none, spec §2.2). */
  coins: Map<string, string | null>
  orders: OperationOrders
}

/**
 * The invoices of the order whose display id is `displayId`, of one provider entry: our invoice rows
 * that name the order, or that belong to one of its payment collections (the cart's, and those billed
 * after checkout). Undefined when no such order has an invoice of ours.
 */
export async function invoicesOfOrder(scope: MedusaContainer, store: InvoiceStore, displayId: number, providerId: string): Promise<OrderInvoices | undefined> {
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data: orders } = await query.graph({ entity: "order", fields: ["id", "display_id", "payment_collections.id"], filters: { display_id: displayId } })
  const orderIds: string[] = []
  const orderOfCollection = new Map<string, string>()
  for (const order of orders) {
    if (typeof order?.id !== "string") continue
    orderIds.push(order.id)
    for (const collection of (order.payment_collections ?? []) as Array<{ id?: unknown } | null>) {
      if (typeof collection?.id === "string") orderOfCollection.set(collection.id, order.id)
    }
  }
  if (orderIds.length === 0) return undefined
  const rows: InvoiceRow[] = await store.listCryptoInvoices(
    { provider_id: providerId, $or: [{ order_id: orderIds }, ...(orderOfCollection.size > 0 ? [{ payment_collection_id: [...orderOfCollection.keys()] }] : [])] },
    { select: ROW_FIELDS, order: { created_at: "DESC" } }
  )
  const found: OrderInvoices = { txnIds: [], coins: new Map(), orders: {} }
  for (const row of rows) {
    const orderId = row.order_id ?? orderOfCollection.get(row.payment_collection_id)
    if (orderId === undefined) continue
    for (const txnId of txnIdsOf(row)) {
      if (found.coins.has(txnId)) continue
      found.txnIds.push(txnId)
      found.coins.set(txnId, row.psys_cid)
      found.orders[txnId] = { order_id: orderId, display_id: displayId }
    }
  }
  return found.txnIds.length === 0 ? undefined : found
}
