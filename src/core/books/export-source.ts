import {
  attentionRows,
  BooksTotals,
  ExchangeCosts,
  exchangeLegs,
  exchangeRows,
  invoiceRows,
  payInRows,
  withdrawalRows,
  type BooksAttention,
  type BooksContext,
  type BooksExchange,
  type BooksInvoice,
  type BooksPayIn,
  type BooksRow,
  type BooksWithdrawal,
  type DisplayIds,
  type ReceiptRate,
} from "./export"

/**
 * Reading the export's rows from the database in pages (docs/books.md#accounting-export): each
 * table in turn, `[from, to)` on `created_at` (UTC), ordered by `(created_at, id)` and paged by
 * keyset (the last row's `(created_at, id)`, never an offset), so memory holds one page however
 * many rows the period has. The cursor's `created_at` is read as PostgreSQL's own text so it keeps
 * its microseconds (a JS `Date` would cut them and skip or repeat rows).
 */

/** The period and the provider filter of an export. */
export interface BooksPeriod {
  from: Date
  to: Date
  provider_id?: string | undefined
}

/** The one thing the reader needs of the database: a raw query (knex's `raw`, or a pg pool's `query`). */
export interface BooksSql {
  raw(sql: string, bindings: ReadonlyArray<string | number>): Promise<{ rows: unknown[] }>
}

/** Order display ids of a page's orders (one Query call per page). */
export type DisplayIdLookup = (orderIds: string[]) => Promise<DisplayIds>

export const BOOKS_PAGE_SIZE = 1000

interface Cursor {
  at: string
  id: string
}
type Paged<T> = T & { cursor_at: string; id: string }

interface TableRead {
  table: string
  columns: string
  /** Extra conditions on the table (alias `t`). */
  where?: string
}

const TABLES = {
  invoices: {
    table: "crypto_invoice",
    columns:
      "id, order_number, order_id, cart_id, source_currency, source_amount, psys_cid, currency, expected_amount, received_amount, overpaid_amount, underpaid_amount, gateway_status, session_status, source_rate, commission, network_fee, tx_ids, paid_at, active_txn_id, txn_id, created_at",
    where: "t.received_amount is not null",
  },
  attention: {
    table: "crypto_attention",
    columns: "id, kind, subject_id, order_id, psys_cid, currency, amount, evidence, status, created_at",
    // Memo rows are what is still open (docs/books.md#row-kinds).
    where: "t.kind in ('late_payment', 'underpaid', 'overpaid') and t.status = 'open'",
  },
  withdrawals: {
    table: "crypto_withdrawal",
    columns: "id, type, purpose, psys_cid, recipients, total_amount, fee, status, tx_urls, operation_id, order_id, invoice_id, source_currency, source_rate, value_amount, value_currency, sent_at, created_at",
  },
  exchanges: {
    table: "crypto_exchange",
    columns: "id, from_currency, to_currency, from_amount, to_amount, status, exchange_id, sent_at, result, fiat_currency, from_rate, to_rate, rate_source, created_at",
  },
  // A pay_in reported more than once (pending then completed, read back after lost callbacks)
  // counts once: by its most advanced report, the newest of those (as totalPayIns in deposits.ts).
  payIns: {
    table: "crypto_callback",
    columns: "id, created_at, delivery_count, status, txn_id, deposit_uid, format, fields",
    where: `t.ipn_type = 'pay_in' and not exists (
      select 1 from crypto_callback b where b.deleted_at is null and b.ipn_type = 'pay_in' and b.txn_id = t.txn_id and b.id <> t.id
        and ((b.status = 'completed') > (t.status is not distinct from 'completed')
          or ((b.status = 'completed') = (t.status is not distinct from 'completed') and (b.created_at, b.id) > (t.created_at, t.id))))`,
  },
} satisfies Record<string, TableRead>

async function readPage<T>(sql: BooksSql, read: TableRead, period: BooksPeriod, after: Cursor | null, limit: number): Promise<Array<Paged<T>>> {
  const conditions = ["t.deleted_at is null", "t.created_at >= ?", "t.created_at < ?"]
  const bindings: Array<string | number> = [period.from.toISOString(), period.to.toISOString()]
  if (read.where) conditions.push(`(${read.where})`)
  if (period.provider_id !== undefined) {
    conditions.push("t.provider_id = ?")
    bindings.push(period.provider_id)
  }
  if (after !== null) {
    // The plain bound lets an index on created_at start at the cursor (the row comparison alone
    // would make each page scan from `from`); the row comparison breaks ties by id.
    conditions.push("t.created_at >= ?::timestamptz", "(t.created_at, t.id) > (?::timestamptz, ?)")
    bindings.push(after.at, after.at, after.id)
  }
  bindings.push(limit)
  const columns = read.columns
    .split(",")
    .map((column) => `t.${column.trim()}`)
    .join(", ")
  const text = `select ${columns}, t.created_at::text as cursor_at from ${read.table} t where ${conditions.join(" and ")} order by t.created_at, t.id limit ?`
  const { rows } = await sql.raw(text, bindings)
  return rows as Array<Paged<T>>
}

/** Every page of one table in the period, by keyset. */
async function* pagesOf<T>(sql: BooksSql, read: TableRead, period: BooksPeriod, pageSize: number): AsyncGenerator<Array<Paged<T>>> {
  let after: Cursor | null = null
  for (;;) {
    const rows: Array<Paged<T>> = await readPage<T>(sql, read, period, after, pageSize)
    if (rows.length === 0) return
    yield rows
    if (rows.length < pageSize) return
    const last = rows[rows.length - 1]
    after = { at: last.cursor_at, id: last.id }
  }
}

const orderIdsOf = (rows: ReadonlyArray<{ order_id: string | null }>): string[] => [...new Set(rows.map((row) => row.order_id).filter((id): id is string => id !== null))]

async function displayIdsFor(lookup: DisplayIdLookup | undefined, rows: ReadonlyArray<{ order_id: string | null }>): Promise<DisplayIds> {
  const ids = orderIdsOf(rows)
  return lookup === undefined || ids.length === 0 ? new Map() : lookup(ids)
}

export interface BooksReadOptions {
  /** The store currency every row is valued in (docs/books.md#fiat-values). */
  fiat: string
  pageSize?: number
  displayIds?: DisplayIdLookup
  /** Filled as rows go by (their totals are written after the rows). */
  totals?: BooksTotals
}

/**
 * The rate of the first callback that reported each invoice's money (spec §6.1: `amount` above 0),
 * by `order_number`: the gateway's rate at the moment the money arrived (one query per page).
 */
async function receiptRates(sql: BooksSql, invoices: ReadonlyArray<{ order_number: string }>): Promise<Map<string, ReceiptRate>> {
  const numbers = [...new Set(invoices.map((invoice) => invoice.order_number))]
  if (numbers.length === 0) return new Map()
  const { rows } = await sql.raw(
    `select distinct on (c.order_number) c.order_number, c.fields->>'psys_cid' as psys_cid, c.fields->>'source_currency' as source_currency, c.fields->>'source_rate' as source_rate
       from crypto_callback c
      where c.deleted_at is null and c.ipn_type = 'invoice' and c.order_number in (${numbers.map(() => "?").join(", ")})
        and c.fields->>'amount' ~ '^[0-9]+([.][0-9]+){0,1}$' and (c.fields->>'amount')::numeric > 0
      order by c.order_number, c.created_at, c.id`,
    numbers
  )
  return new Map((rows as Array<ReceiptRate & { order_number: string }>).map((row) => [row.order_number, row]))
}

/** A page of invoices as payment rows, each valued at its receipt's rate. */
async function paymentRows(sql: BooksSql, page: readonly BooksInvoice[], context: BooksContext): Promise<BooksRow[]> {
  const receipts = await receiptRates(sql, page)
  return page.flatMap((invoice) => invoiceRows(invoice, context, receipts.get(invoice.order_number) ?? null))
}

/**
 * The average costs the period's completed exchanges sell at (ExchangeCosts): the sales of the
 * period, then every acquisition from the start of the books up to the period's end, read by the
 * same pages and valued by the same rules as the rows. Null when the period sold nothing.
 */
async function exchangeCostsOf(sql: BooksSql, period: BooksPeriod, fiat: string, size: number): Promise<ExchangeCosts | null> {
  const sales: Array<{ psys_cid: string; at: Date }> = []
  for await (const page of pagesOf<BooksExchange>(sql, TABLES.exchanges, period, size)) {
    for (const exchange of page) if (exchange.status === "completed" && exchangeLegs(exchange).from !== null) sales.push({ psys_cid: exchange.from_currency, at: new Date(exchange.created_at) })
  }
  const costs = new ExchangeCosts(sales)
  if (costs.empty) return null
  const history: BooksPeriod = { from: new Date(0), to: period.to, provider_id: period.provider_id }
  const context: BooksContext = { fiat }
  for await (const page of pagesOf<BooksInvoice>(sql, TABLES.invoices, history, size)) for (const row of await paymentRows(sql, page, context)) costs.acquire(row)
  for await (const page of pagesOf<BooksPayIn>(sql, TABLES.payIns, history, size)) for (const callback of page) payInRows(callback, context).forEach((row) => costs.acquire(row))
  for await (const page of pagesOf<BooksExchange>(sql, TABLES.exchanges, history, size)) for (const exchange of page) exchangeRows(exchange, context).forEach((row) => costs.acquire(row))
  return costs
}

/**
 * The export's rows of a period, streamed: invoice payments, the memo rows of what is still open
 * (late payments, over- and underpayments), money out (refunds, send-backs, withdrawals, mass
 * payouts), exchanges (both legs), then customer deposits; each table in `(created_at, id)` order,
 * every row valued in `options.fiat`.
 */
export async function* booksRows(sql: BooksSql, period: BooksPeriod, options: BooksReadOptions): AsyncGenerator<BooksRow> {
  const size = options.pageSize ?? BOOKS_PAGE_SIZE
  const totals = options.totals
  const emit = function* (rows: BooksRow[]) {
    for (const row of rows) {
      totals?.add(row)
      yield row
    }
  }
  const withIds = async (rows: ReadonlyArray<{ order_id: string | null }>): Promise<BooksContext> => ({ fiat: options.fiat, displayIds: await displayIdsFor(options.displayIds, rows) })
  for await (const page of pagesOf<BooksInvoice>(sql, TABLES.invoices, period, size)) {
    yield* emit(await paymentRows(sql, page, await withIds(page)))
  }
  for await (const page of pagesOf<BooksAttention>(sql, TABLES.attention, period, size)) {
    const context = await withIds(page)
    for (const item of page) yield* emit(attentionRows(item, context))
  }
  for await (const page of pagesOf<BooksWithdrawal>(sql, TABLES.withdrawals, period, size)) {
    const context = await withIds(page)
    for (const withdrawal of page) yield* emit(withdrawalRows(withdrawal, context))
  }
  const costs = await exchangeCostsOf(sql, period, options.fiat, size)
  for await (const page of pagesOf<BooksExchange>(sql, TABLES.exchanges, period, size)) {
    for (const exchange of page) yield* emit(exchangeRows(exchange, { fiat: options.fiat }, costs))
  }
  for await (const page of pagesOf<BooksPayIn>(sql, TABLES.payIns, period, size)) {
    for (const callback of page) yield* emit(payInRows(callback, { fiat: options.fiat }))
  }
}
