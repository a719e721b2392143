/**
 * Benchmark of the accounting export (docs/books.md#accounting-export): the streamed export of a
 * period with 10,000 and 100,000 rows (invoices and withdrawals, some mass payouts) from a real
 * PostgreSQL, written as CSV and as JSON to a null sink. Reports the time, rows per second and the
 * peak RSS and heap (process.memoryUsage() sampled every 5 ms) above the level before the run, and
 * the live heap (right after a forced full GC, every 250 ms): the peak heap includes garbage V8 has
 * not collected yet (it lets the heap grow on a long run), the live heap is what the export holds,
 * which stays flat whatever the row count. Times come from a run without forced collections, the
 * live heap from a second run with them.
 *
 * Run: npm run bench:export  (DATABASE_URL=postgres://… to use your own server; by default a
 * throw-away embedded PostgreSQL, scripts/embedded-pg.js). The schema is the crypto module's own
 * migrations (src/modules/crypto/migrations), run in order. Order display ids are answered in
 * memory (one call per page, as the route makes), so the Query call's own time is not included.
 */
import { readdirSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { Writable } from "node:stream"
import knexFactory, { type Knex } from "knex"
import { writeBooks, type BooksFormat } from "../src/core/books/export-write"

interface EmbeddedPg {
  url(database: string): string
  createDatabase(name: string): Promise<void>
  stop(): Promise<void>
}
interface EmbeddedPgModule {
  startEmbeddedPostgres(opts: { prefix?: string; postgresFlags?: string[] }): Promise<EmbeddedPg>
  THROWAWAY_FLAGS: string[]
}
interface MigrationClass {
  prototype: { up(): Promise<void> }
}

// CommonJS loading (ts-node compiles the migrations and this file; a native import() would not).
const load = createRequire(__filename)

const SIZES = (process.env.BENCH_EXPORT_SIZES ?? "10000,100000").split(",").map(Number)
const FROM = new Date("2026-10-01T00:00:00.000Z")
const TO = new Date("2026-11-01T00:00:00.000Z")

/** The crypto module's migrations, in order, as SQL (each `up()` only calls `addSql`). */
async function migrationSql(): Promise<string[]> {
  const dir = join(__dirname, "..", "src", "modules", "crypto", "migrations")
  const statements: string[] = []
  for (const file of readdirSync(dir).filter((name) => /^Migration\d+\.ts$/.test(name)).sort()) {
    const loaded = load(join(dir, file)) as Record<string, MigrationClass>
    for (const migration of Object.values(loaded)) {
      const collector = Object.assign(Object.create(migration.prototype) as { up(): Promise<void> }, { addSql: (sql: string) => statements.push(sql) })
      await collector.up()
    }
  }
  return statements
}

/**
 * `count` rows of the period with one bulk insert per table: 80 % invoices (received, with the
 * books columns, every 10th overpaid), 20 % withdrawals (every 4th a mass payout of 3 lines, so it
 * makes 3 rows). Rows share their second in threes and differ by a microsecond, so page boundaries
 * fall inside ties and on sub-millisecond times: a cursor that lost either would skip or repeat rows,
 * and the totals' row count (checked in `run`) would be off. Returns the number of export rows.
 */
async function seed(knex: Knex, count: number): Promise<number> {
  await knex.raw("truncate crypto_invoice, crypto_withdrawal")
  const invoices = Math.round(count * 0.8)
  const withdrawals = count - invoices
  const span = (TO.getTime() - FROM.getTime()) / 1000
  await knex.raw(
    `insert into crypto_invoice (id, provider_id, order_number, attempt, cart_id, payment_collection_id, session_id, source_currency, source_amount,
       txn_id, active_txn_id, psys_cid, currency, expected_amount, received_amount, overpaid_amount, gateway_status, session_status, order_id,
       source_rate, commission, network_fee, tx_ids, paid_at, created_at, updated_at)
     select 'cinv_b' || lpad(i::text, 8, '0'), 'pp_crypto_crypto', 'cart_b' || i, 1, 'cart_b' || i, 'pay_col_' || i, 'payses_' || i, 'eur',
       (10 + i % 500)::text || '.50', 'INV-' || i, 'INV-' || i, case when i % 3 = 0 then 'USDT_TRX' else 'BTC' end,
       case when i % 3 = 0 then 'USDT' else 'BTC' end, '0.00' || lpad((100000 + i)::text, 6, '0'),
       '0.00' || lpad((100000 + i)::text, 6, '0'), case when i % 10 = 0 then '0.000001' else null end, 'completed', 'captured', null,
       case when i % 5 = 0 then null else '65432.10' end, '0.0000015', '0.0000002', array['tx' || i], ?::timestamptz + (i % ?) * interval '1 second',
       ?::timestamptz + (i / 3 % ?) * interval '1 second' + (i % 2) * interval '1 microsecond', now()
     from generate_series(1, ?) as i`,
    [FROM.toISOString(), span, FROM.toISOString(), span, invoices]
  )
  await knex.raw(
    `insert into crypto_withdrawal (id, idempotency_key, fingerprint, provider_id, type, psys_cid, fee_plan, recipients, total_amount, status, operation_id,
       tx_urls, fee, purpose, requested_at, sent_at, source_currency, source_rate, created_at, updated_at)
     select 'cwdr_b' || lpad(i::text, 8, '0'), 'key-' || i, 'fp-' || i, 'pp_crypto_crypto', case when i % 4 = 0 then 'mass_cash_out' else 'cash_out' end,
       'BTC', 'normal',
       case when i % 4 = 0 then '[{"address":"a1","amount":"0.001"},{"address":"a2","amount":"0.002"},{"address":"a3","amount":"0.003"}]'::jsonb
            else '[{"address":"bc1q","amount":"0.0042"}]'::jsonb end,
       case when i % 4 = 0 then '0.006' else '0.0042' end, 'completed', 'OP-' || i, array['https://explorer/tx/' || i], '0.00001',
       case when i % 4 = 0 then 'withdrawal' when i % 4 = 1 then 'refund' when i % 4 = 2 then 'overpayment' else 'withdrawal' end,
       now(), now(), case when i % 4 = 1 then 'EUR' else null end, case when i % 4 = 1 then '61000' else null end,
       ?::timestamptz + (i / 3 % ?) * interval '1 second' + (i % 2) * interval '1 microsecond', now()
     from generate_series(1, ?) as i`,
    [FROM.toISOString(), span, withdrawals]
  )
  await knex.raw("analyze crypto_invoice, crypto_withdrawal")
  const overpaid = Math.floor(invoices / 10)
  const mass = Math.floor(withdrawals / 4)
  return invoices + overpaid + withdrawals + 2 * mass
}

/** A sink that keeps nothing, counting bytes. */
class NullSink extends Writable {
  bytes = 0
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.bytes += chunk.length
    done()
  }
}

interface Run {
  rows: number
  format: BooksFormat
  seconds: number
  rowsPerSecond: number
  mb: number
  peakRssMb: number
  peakHeapMb: number
  liveHeapMb: number
  /** Each page query's time, per table: first page and last full page (ms). */
  pages: Record<string, { first: number; last: number; count: number }>
}

const MB = 1024 * 1024
const gc = (): void => (globalThis as { gc?: () => void }).gc?.()

async function run(knex: Knex, format: BooksFormat, rows: number, collect: boolean): Promise<Run> {
  gc()
  const base = process.memoryUsage()
  let peakRss = base.rss
  let peakHeap = base.heapUsed
  const sampler = setInterval(() => {
    const now = process.memoryUsage()
    peakRss = Math.max(peakRss, now.rss)
    peakHeap = Math.max(peakHeap, now.heapUsed)
  }, 5)
  // What is really held (garbage aside): the heap right after a full collection, every 250 ms.
  let live = base.heapUsed
  const collector = setInterval(() => {
    if (!collect) return
    gc()
    live = Math.max(live, process.memoryUsage().heapUsed)
  }, 250)
  const sink = new NullSink()
  const pages: Run["pages"] = {}
  // Times each page query, to see whether a late page costs more than the first (keyset: it should not).
  const sql = {
    raw: async (text: string, bindings: ReadonlyArray<string | number>) => {
      const t0 = process.hrtime.bigint()
      const result = (await knex.raw(text, [...bindings])) as { rows: unknown[] }
      const ms = Number(process.hrtime.bigint() - t0) / 1e6
      const table = /from (\w+) t/.exec(text)?.[1] ?? "?"
      const entry = pages[table] ?? { first: ms, last: ms, count: 0 }
      if (result.rows.length > 0) entry.last = ms
      entry.count += 1
      pages[table] = entry
      return result
    },
  }
  const started = process.hrtime.bigint()
  const totals = await writeBooks(format, sql, { from: FROM, to: TO }, sink, {
    fiat: "EUR",
    displayIds: async (ids) => new Map(ids.map((id, i) => [id, String(i)])),
  })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  clearInterval(sampler)
  clearInterval(collector)
  const written = totals.list().reduce((sum, total) => sum + total.count, 0)
  if (written !== rows) throw new Error(`expected ${rows} rows in the totals, got ${written}`)
  return {
    rows,
    format,
    seconds,
    rowsPerSecond: rows / seconds,
    mb: sink.bytes / MB,
    peakRssMb: (peakRss - base.rss) / MB,
    peakHeapMb: (peakHeap - base.heapUsed) / MB,
    liveHeapMb: (live - base.heapUsed) / MB,
    pages,
  }
}

/**
 * The floor measured in the same run, to report ratios rather than this machine's absolute speed:
 * the same rows read in the same pages of 1,000 (keyset on created_at, id) with one plain query per
 * page, each row `JSON.stringify`-ed to a null sink: the database and the encoding, no books.
 */
async function floor(knex: Knex): Promise<{ seconds: number; rows: number }> {
  const sink = new NullSink()
  const started = process.hrtime.bigint()
  let rows = 0
  for (const table of ["crypto_invoice", "crypto_withdrawal"]) {
    let cursor: { created_at: string; id: string } | null = null
    for (;;) {
      const result = (await knex.raw(
        `select *, created_at::text as cursor_at from ${table} where created_at >= ? and created_at < ?${cursor ? " and (created_at, id) > (?::timestamptz, ?)" : ""} order by created_at, id limit 1000`,
        cursor ? [FROM.toISOString(), TO.toISOString(), cursor.created_at, cursor.id] : [FROM.toISOString(), TO.toISOString()]
      )) as { rows: Array<Record<string, unknown> & { cursor_at: string; id: string }> }
      for (const row of result.rows) sink.write(`${JSON.stringify(row)}\n`)
      rows += result.rows.length
      if (result.rows.length < 1000) break
      const last = result.rows[result.rows.length - 1]
      cursor = { created_at: last.cursor_at, id: last.id }
    }
  }
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, rows }
}

async function main() {
  let pg: EmbeddedPg | null = null
  let url = process.env.DATABASE_URL
  if (!url) {
    // scripts/embedded-pg.js is CommonJS without types: its two exports are typed above.
    const embedded = load("../scripts/embedded-pg.js") as EmbeddedPgModule
    pg = await embedded.startEmbeddedPostgres({ prefix: "books-bench-pg", postgresFlags: embedded.THROWAWAY_FLAGS })
    await pg.createDatabase("books_bench")
    url = pg.url("books_bench")
  }
  const knex = knexFactory({ client: "pg", connection: url, pool: { min: 1, max: 2 } })
  try {
    for (const sql of await migrationSql()) await knex.raw(sql)
    const results: Run[] = []
    const floors = new Map<number, { seconds: number; rows: number }>()
    for (const size of SIZES) {
      const seedStart = Date.now()
      const rows = await seed(knex, size)
      process.stderr.write(`seeded ${size} table rows (${rows} export rows) in ${((Date.now() - seedStart) / 1000).toFixed(1)} s\n`)
      await run(knex, "csv", rows, false) // warm-up, not reported
      await floor(knex) // warm-up, not reported
      floors.set(rows, await floor(knex))
      for (const format of ["csv", "json"] as const) {
        // Timed without forced collections; the live heap from a second run that forces them.
        const timed = await run(knex, format, rows, false)
        const measured = await run(knex, format, rows, true)
        results.push({ ...timed, liveHeapMb: measured.liveHeapMb })
      }
    }
    const line = (cells: string[]) => `| ${cells.join(" | ")} |`
    console.log(line(["export rows", "format", "time (s)", "rows/s", "× the floor's time", "output (MB)", "peak RSS over start (MB)", "peak heap over start (MB)", "live heap after GC over start (MB)"]))
    console.log(line(["---:", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]))
    for (const r of results) {
      // The floor reads the same table rows (fewer than export rows: a mass payout is one table row, several export rows).
      const floorSeconds = floors.get(r.rows)?.seconds ?? Number.NaN
      console.log(line([String(r.rows), r.format, r.seconds.toFixed(2), Math.round(r.rowsPerSecond).toLocaleString("en"), (r.seconds / floorSeconds).toFixed(2), r.mb.toFixed(1), r.peakRssMb.toFixed(1), r.peakHeapMb.toFixed(1), r.liveHeapMb.toFixed(1)]))
    }
    for (const [rows, f] of floors) console.log(`floor for ${rows} export rows: ${f.rows} table rows in ${f.seconds.toFixed(2)} s (${Math.round(f.rows / f.seconds).toLocaleString("en")} table rows/s)`)
    console.log("")
    console.log(line(["export rows", "format", "table", "page queries", "first page (ms)", "last page (ms)"]))
    console.log(line(["---:", "---", "---", "---:", "---:", "---:"]))
    for (const r of results) {
      for (const [table, page] of Object.entries(r.pages)) {
        if (page.count > 1) console.log(line([String(r.rows), r.format, table, String(page.count), page.first.toFixed(1), page.last.toFixed(1)]))
      }
    }
    console.log(`node ${process.version}, page size 1000, gc between runs: ${typeof (globalThis as { gc?: unknown }).gc === "function" ? "yes" : "no"}`)
  } finally {
    await knex.destroy()
    await pg?.stop()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
