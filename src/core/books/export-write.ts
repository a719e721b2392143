import { once } from "events"
import { Readable, type Writable } from "stream"
import { pipeline } from "stream/promises"
import { MedusaError } from "@medusajs/framework/utils"
import { stringify } from "csv-stringify"
import { BOOKS_COLUMNS, BooksTotals, totalAsRow, type BooksRow } from "./export"
import { booksRows, type BooksPeriod, type BooksReadOptions, type BooksSql } from "./export-source"
import { JOURNAL_COLUMNS, journalLines, type JournalLine } from "./journal"

/**
 * Writing the export to a stream (an HTTP response, a file, a null sink) with bounded memory
 * (docs/books.md#accounting-export): rows go out as they are read, one page at a time, and a
 * writer that says "enough" (`write` → false) is waited for (`drain`) before the next row.
 */

/** The export's layouts, declared once: rows as CSV or JSON, or the double-entry journal (a CSV). */
export const BOOKS_FORMATS = ["csv", "json", "journal"] as const
export type BooksFormat = (typeof BOOKS_FORMATS)[number]

/** The file name and content type of an export (the period's dates as given, `YYYY-MM-DD`). */
export function booksFile(format: BooksFormat, from: string, to: string): { filename: string; contentType: string } {
  return {
    filename: format === "journal" ? `crypto-journal-${from}-${to}.csv` : `crypto-books-${from}-${to}.${format}`,
    contentType: format === "json" ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
  }
}

/**
 * CSV: a header row with the columns, the rows, then the totals as closing rows
 * (`kind` `total:<kind>`, `counted` = how many rows it sums). csv-stringify's stream; the pipeline
 * keeps backpressure from `out` back to the database reads.
 */
export async function writeBooksCsv(sql: BooksSql, period: BooksPeriod, out: Writable, options: Omit<BooksReadOptions, "totals">): Promise<BooksTotals> {
  const totals = new BooksTotals()
  async function* all(): AsyncGenerator<Record<string, string | null>> {
    yield* booksRows(sql, period, { ...options, totals })
    for (const total of totals.list()) yield totalAsRow(total)
  }
  await pipeline(Readable.from(all()), stringify({ header: true, columns: [...BOOKS_COLUMNS] }), out)
  return totals
}

/** Writes `chunk`; when the stream asks to wait, waits for `drain` (or its end, then stops). */
async function write(out: Writable, chunk: string): Promise<void> {
  if (out.destroyed) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "the export's reader went away")
  if (!out.write(chunk)) {
    const ac = new AbortController()
    await Promise.race([once(out, "drain", { signal: ac.signal }), once(out, "close", { signal: ac.signal })]).finally(() => ac.abort())
    if (out.destroyed) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "the export's reader went away")
  }
}

/**
 * JSON: `{"from":…,"to":…,"rows":[…],"totals":[…]}` written piece by piece: one row at a time, the
 * totals once the rows are done. Every value is a string or null (decimals exact).
 */
export async function writeBooksJson(sql: BooksSql, period: BooksPeriod, out: Writable, options: Omit<BooksReadOptions, "totals">): Promise<BooksTotals> {
  const totals = new BooksTotals()
  await write(out, `{"from":${JSON.stringify(period.from.toISOString())},"to":${JSON.stringify(period.to.toISOString())},"rows":[`)
  let first = true
  for await (const row of booksRows(sql, period, { ...options, totals })) {
    await write(out, (first ? "\n" : ",\n") + JSON.stringify(row satisfies BooksRow))
    first = false
  }
  await write(out, `\n],"totals":${JSON.stringify(totals.list())}}\n`)
  out.end()
  await once(out, "finish")
  return totals
}

/**
 * The journal (docs/books.md#journal): a header, then each counted row's balanced lines
 * (`date, account, debit, credit, currency, reference`), as the rows stream by.
 */
export async function writeBooksJournal(sql: BooksSql, period: BooksPeriod, out: Writable, options: Omit<BooksReadOptions, "totals">): Promise<BooksTotals> {
  const totals = new BooksTotals()
  async function* all(): AsyncGenerator<JournalLine> {
    for await (const row of booksRows(sql, period, { ...options, totals })) yield* journalLines(row)
  }
  await pipeline(Readable.from(all()), stringify({ header: true, columns: [...JOURNAL_COLUMNS] }), out)
  return totals
}

const WRITERS: Record<BooksFormat, typeof writeBooksCsv> = { csv: writeBooksCsv, json: writeBooksJson, journal: writeBooksJournal }

/** The export in `format` to `out`. */
export function writeBooks(format: BooksFormat, sql: BooksSql, period: BooksPeriod, out: Writable, options: Omit<BooksReadOptions, "totals">): Promise<BooksTotals> {
  return WRITERS[format](sql, period, out, options)
}
