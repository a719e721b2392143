import { MedusaError } from "@medusajs/framework/utils"

/** One verified delivery to store (spec §6.3): the row's values, `verify_hash` excluded from the hash. */
export interface CryptoCallbackDelivery {
  provider_id: string
  content_hash: string
  /** `operation`: a pay_in read back from the operations list (spec §4.3), not delivered. */
  format: "form" | "json" | "operation"
  fields: Record<string, unknown>
  ipn_type: string | null
  txn_id: string | null
  order_number: string | null
  switch_id: string | null
  status: string | null
}

/** What storing a delivery found: the row, and whether it was there before (a redelivery). */
export interface StoredCryptoCallback {
  id: string
  /** 1 for a first delivery; more for a redelivery of the same content. */
  delivery_count: number
  processed: boolean
  failure_count: number
}

/**
 * ONE statement stores a delivery or counts a redelivery: an insert that, on the unique content
 * hash (a partial index: live rows only), adds one to the stored row's `delivery_count` instead.
 * PostgreSQL makes the insert-or-update atomic, so concurrent redeliveries on any number of
 * instances count exactly without a lock (docs/architecture.md#callback-route).
 */
export function callbackUpsert(id: string, delivery: CryptoCallbackDelivery): { sql: string; params: unknown[] } {
  return {
    sql:
      INSERT_CALLBACK +
      `do update set "delivery_count" = "crypto_callback"."delivery_count" + 1, "updated_at" = now() ` +
      `returning "id", "delivery_count", "processed_at", "failure_count"`,
    params: insertParams(id, delivery),
  }
}

const INSERT_CALLBACK =
  `insert into "crypto_callback" ("id", "provider_id", "content_hash", "format", "ipn_type", "txn_id", "order_number", "switch_id", "status", "fields", "deposit_uid", "delivery_count") ` +
  `values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, 1) ` +
  `on conflict ("content_hash") where "deleted_at" is null `

function insertParams(id: string, delivery: CryptoCallbackDelivery): unknown[] {
  return [
    id,
    delivery.provider_id,
    delivery.content_hash,
    delivery.format,
    delivery.ipn_type,
    delivery.txn_id,
    delivery.order_number,
    delivery.switch_id,
    delivery.status,
    JSON.stringify(delivery.fields),
    depositUidOf(delivery),
  ]
}

/**
 * ONE statement stores a row read back from the gateway (a recovered `pay_in`) unless a row with
 * the same content hash exists: `null` when it was there (stored by another instance or an earlier
 * run), so the same reading is recorded exactly once without a lock.
 */
export function callbackInsertOnce(id: string, delivery: CryptoCallbackDelivery): { sql: string; params: unknown[] } {
  return { sql: INSERT_CALLBACK + `do nothing returning "id"`, params: insertParams(id, delivery) }
}

/** pay_in (spec §6.2): the deposit's uid as a column, so a customer's deposits are one indexed query. */
export function depositUidOf(delivery: CryptoCallbackDelivery): string | null {
  return delivery.ipn_type === "pay_in" && typeof delivery.fields.deposit_uid === "string" ? delivery.fields.deposit_uid : null
}

/** The row `callbackUpsert` returns, checked. */
export function storedCallbackOf(row: Record<string, unknown> | undefined): StoredCryptoCallback {
  if (row === undefined || typeof row.id !== "string") {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "storing a crypto callback returned no row")
  }
  return {
    id: row.id,
    delivery_count: Number(row.delivery_count),
    processed: row.processed_at !== null && row.processed_at !== undefined,
    failure_count: Number(row.failure_count ?? 0),
  }
}
