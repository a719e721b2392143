import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Decimal } from "decimal.js"
import type CryptoModuleService from "../../modules/crypto/service"
import { listAttentionQueue, type AttentionQueueItem } from "./attention-queue"
import { exact, fiatMinorUnits, fiatToMinorUnits, sumAmounts } from "../money"
import { fiatAtRate, invoiceRate } from "../payment/invoice-books"

/**
 * The numbers behind the Crypto page's charts (docs/books.md): received volume per coin in UTC
 * day / week / month buckets with its value in the store's currency, and the Needs-attention
 * queue by kind and age. Pure except the two readers at the end, which take the narrow slice of
 * our module they need. Amounts are decimal strings in their coin or fiat; a float never carries one.
 */

export const CHART_INTERVALS = ["day", "week", "month"] as const
export type ChartInterval = (typeof CHART_INTERVALS)[number]

/** How many buckets a chart shows when no period is asked for: 30 days, 26 weeks, 12 months. */
export const DEFAULT_BUCKETS: Record<ChartInterval, number> = { day: 30, week: 26, month: 12 }

/** The most buckets one request may ask for (about two years of days, five of weeks, ten of months). */
export const MAX_BUCKETS: Record<ChartInterval, number> = { day: 732, week: 262, month: 120 }

const DAY_MS = 24 * 3600 * 1000

/** The UTC calendar day of a moment, `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10)
}

/** The moment an ISO 8601 text names: a date-time with its offset, or a day `YYYY-MM-DD` (its 00:00 UTC); null for another text or a day no calendar has (2026-02-30). */
export function utcMomentOf(value: string): Date | null {
  const [, day, time] = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.exec(value) ?? []
  const midnight = new Date(`${day}T00:00:00Z`)
  const at = time === undefined ? midnight : new Date(value)
  return day === undefined || Number.isNaN(midnight.getTime()) || Number.isNaN(at.getTime()) || utcDay(midnight) !== day ? null : at
}

const utcMidnight = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))

/**
 * The first moment (UTC) of the bucket holding `at`: its day; the Monday of its ISO week; the
 * first of its month.
 */
export function bucketStartOf(at: Date, interval: ChartInterval): Date {
  const day = utcMidnight(at)
  if (interval === "day") return day
  if (interval === "week") {
    // getUTCDay: Sunday 0 … Saturday 6; ISO weeks start on Monday.
    const sinceMonday = (day.getUTCDay() + 6) % 7
    return new Date(day.getTime() - sinceMonday * DAY_MS)
  }
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1))
}

/** The bucket's key: the `YYYY-MM-DD` of its first day (a week's Monday, a month's first). */
export function bucketOf(at: Date, interval: ChartInterval): string {
  return utcDay(bucketStartOf(at, interval))
}

/** The first moment of the bucket after the one starting at `start`. */
export function nextBucketStart(start: Date, interval: ChartInterval): Date {
  if (interval === "day") return new Date(start.getTime() + DAY_MS)
  if (interval === "week") return new Date(start.getTime() + 7 * DAY_MS)
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1))
}

/** Every bucket from the one holding `from` to the one holding `to`, oldest first (empty buckets included). */
export function bucketsBetween(from: Date, to: Date, interval: ChartInterval): string[] {
  const keys: string[] = []
  for (let start = bucketStartOf(from, interval); start.getTime() <= to.getTime(); start = nextBucketStart(start, interval)) {
    keys.push(utcDay(start))
  }
  return keys
}

/** A chart's period: `from` inclusive, `to` exclusive, both UTC. */
export interface ChartPeriod {
  from: Date
  to: Date
}

/**
 * The period a chart reads: what was asked, else the last DEFAULT_BUCKETS buckets up to `now`
 * (the current one included). `to` defaults to `now`; `from` to the start of the bucket that many
 * buckets back.
 */
export function chartPeriod(interval: ChartInterval, now: Date, asked: { from?: Date; to?: Date } = {}): ChartPeriod {
  const to = asked.to ?? now
  if (asked.from !== undefined) return { from: asked.from, to }
  let start = bucketStartOf(to, interval)
  for (let back = 1; back < DEFAULT_BUCKETS[interval]; back += 1) {
    start = bucketStartOf(new Date(start.getTime() - 1), interval)
  }
  return { from: start, to }
}

/** How many buckets a period spans (to refuse a request that would draw thousands). */
export function bucketCount(period: ChartPeriod, interval: ChartInterval): number {
  return bucketsBetween(period.from, new Date(Math.max(period.from.getTime(), period.to.getTime() - 1)), interval).length
}

/** The invoice mirror columns the volume chart reads (`crypto_invoice`). */
export interface VolumeInvoiceRow {
  psys_cid: string | null
  currency: string | null
  source_currency: string
  source_amount: string
  expected_amount: string | null
  received_amount: string | null
  /** The gateway's fiat per coin (spec §2.1 `source_rate`); may be absent on rows written before it was kept. */
  source_rate?: string | null
  paid_at?: Date | string | null
  created_at: Date | string
}

const positive = (value: string | null | undefined): value is string => typeof value === "string" && /^\d+(\.\d+)?$/.test(value) && exact(value).gt(0)

/**
 * What a received amount is worth in the invoice's own fiat (`source_currency`), at the invoice's
 * own rate (src/core/payment/invoice-books.ts `invoiceRate`, docs/books.md#fiat-values), rounded half-up to
 * the currency's minor units. Null when no rate is known.
 */
export function receivedFiatValue(row: Pick<VolumeInvoiceRow, "psys_cid" | "source_currency" | "source_amount" | "expected_amount" | "received_amount" | "source_rate">): Decimal | null {
  if (!positive(row.received_amount)) return exact(0)
  const rate = invoiceRate(row)
  return rate === null ? null : fiatAtRate(row.received_amount, rate, row.source_currency)
}

/** When an invoice's money counts: when the gateway finished it, else when it was created. */
export function volumeMomentOf(row: Pick<VolumeInvoiceRow, "paid_at" | "created_at">): Date {
  return new Date(row.paid_at ?? row.created_at)
}

/** One bucket of one coin's received volume. */
export interface VolumePoint {
  bucket: string
  /** Coins received, a decimal string in the series' coin. */
  received: string
  /** Its value in `fiat_currency`, with the currency's minor units ("7.00"); invoices priced in another currency, or with no rate, are left out and counted in `unvalued`. */
  fiat_value: string
  invoices: number
  /** Invoices of this bucket whose value in `fiat_currency` is unknown (priced in another fiat, or no rate). */
  unvalued: number
}

export interface VolumeSeries {
  psys_cid: string
  currency: string | null
  received: string
  fiat_value: string
  points: VolumePoint[]
}

export interface VolumeChart {
  interval: ChartInterval
  from: string
  to: string
  fiat_currency: string
  buckets: string[]
  series: VolumeSeries[]
  /** The value of every coin together per bucket, in `fiat_currency`. */
  fiat_totals: Array<{ bucket: string; fiat_value: string }>
}

interface Cell {
  received: Decimal
  fiat: Decimal
  invoices: number
  unvalued: number
}

/**
 * The received volume of a set of invoices (the store's money: captured ones, chosen by the
 * reader) per coin and bucket, in the coin and in `fiatCurrency`. Rows outside the period are
 * ignored; every bucket of the period appears, zero when empty.
 */
export function volumeChart(rows: Iterable<VolumeInvoiceRow>, interval: ChartInterval, period: ChartPeriod, fiatCurrency: string): VolumeChart {
  const fiat = fiatCurrency.toUpperCase()
  const places = fiatMinorUnits(fiat)
  const buckets = bucketsBetween(period.from, new Date(Math.max(period.from.getTime(), period.to.getTime() - 1)), interval)
  const coins = new Map<string, { currency: string | null; cells: Map<string, Cell> }>()
  for (const row of rows) {
    if (row.psys_cid === null || !positive(row.received_amount)) continue
    const at = volumeMomentOf(row)
    if (at.getTime() < period.from.getTime() || at.getTime() >= period.to.getTime()) continue
    const coin = coins.get(row.psys_cid) ?? { currency: row.currency, cells: new Map<string, Cell>() }
    coins.set(row.psys_cid, coin)
    const key = bucketOf(at, interval)
    const cell = coin.cells.get(key) ?? { received: exact(0), fiat: exact(0), invoices: 0, unvalued: 0 }
    coin.cells.set(key, cell)
    cell.received = cell.received.plus(row.received_amount)
    cell.invoices += 1
    const value = row.source_currency.toUpperCase() === fiat ? receivedFiatValue(row) : null
    if (value === null) cell.unvalued += 1
    else cell.fiat = cell.fiat.plus(value)
  }
  const series = [...coins.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([psysCid, coin]): VolumeSeries => {
      const points = buckets.map((bucket): VolumePoint => {
        const cell = coin.cells.get(bucket)
        return { bucket, received: (cell?.received ?? exact(0)).toFixed(), fiat_value: (cell?.fiat ?? exact(0)).toFixed(places), invoices: cell?.invoices ?? 0, unvalued: cell?.unvalued ?? 0 }
      })
      return {
        psys_cid: psysCid,
        currency: coin.currency,
        received: sumAmounts(points.map((point) => point.received)).toFixed(),
        fiat_value: sumAmounts(points.map((point) => point.fiat_value)).toFixed(places),
        points,
      }
    })
  const fiatTotals = buckets.map((bucket, index) => ({ bucket, fiat_value: sumAmounts(series.map((s) => s.points[index].fiat_value)).toFixed(places) }))
  return { interval, from: period.from.toISOString(), to: period.to.toISOString(), fiat_currency: fiat, buckets, series, fiat_totals: fiatTotals }
}

/** How many invoice rows one read of the volume chart takes at a time. */
export const VOLUME_PAGE_SIZE = 500

/** What the volume chart counts: what the books count as received (docs/books.md#received-volume). */
export type VolumeInvoiceReader = Pick<CryptoModuleService, "listCryptoInvoices" | "listCryptoCallbacks">

/**
 * Reads what the books count as received in `period` (src/core/books/export.ts): every invoice that
 * received coins (a payment, a top-up, late money), page by page (VOLUME_PAGE_SIZE rows, ordered by
 * id), and every completed deposit (`pay_in`, once per `txn_id`), valued at its callback's rate; then
 * buckets them. An invoice counts from when the gateway finished it (`paid_at`), else from its
 * creation, so the filter asks for either in the period; a deposit from when it was recorded.
 */
export async function readVolumeChart(
  service: VolumeInvoiceReader,
  input: { interval: ChartInterval; period: ChartPeriod; fiat_currency: string; provider_id?: string }
): Promise<VolumeChart> {
  const inPeriod = { $gte: input.period.from, $lt: input.period.to }
  const provider = input.provider_id === undefined ? {} : { provider_id: input.provider_id }
  const filters = {
    received_amount: { $ne: null },
    ...provider,
    $or: [{ paid_at: inPeriod }, { paid_at: null, created_at: inPeriod }],
  }
  const rows: VolumeInvoiceRow[] = []
  for (let skip = 0; ; skip += VOLUME_PAGE_SIZE) {
    const page = await service.listCryptoInvoices(filters, { order: { id: "ASC" }, skip, take: VOLUME_PAGE_SIZE })
    rows.push(...page.map(volumeRowOf))
    if (page.length < VOLUME_PAGE_SIZE) break
  }
  const deposits = new Map<string, VolumeInvoiceRow>()
  for (let skip = 0; ; skip += VOLUME_PAGE_SIZE) {
    const page = await service.listCryptoCallbacks({ ipn_type: "pay_in", status: "completed", created_at: inPeriod, ...provider }, { order: { id: "ASC" }, skip, take: VOLUME_PAGE_SIZE })
    for (const callback of page) deposits.set(callback.txn_id ?? callback.id, depositRowOf(callback))
    if (page.length < VOLUME_PAGE_SIZE) break
  }
  return volumeChart([...rows, ...deposits.values()], input.interval, input.period, input.fiat_currency)
}

type InvoiceRecord = Awaited<ReturnType<CryptoModuleService["listCryptoInvoices"]>>[number]

/** The row's volume columns; `source_rate` read defensively (absent before the books columns). */
function volumeRowOf(row: InvoiceRecord): VolumeInvoiceRow {
  const record = row as InvoiceRecord & { source_rate?: unknown; paid_at?: unknown }
  return {
    psys_cid: row.psys_cid,
    currency: row.currency,
    source_currency: row.source_currency,
    source_amount: row.source_amount,
    expected_amount: row.expected_amount,
    received_amount: row.received_amount,
    source_rate: typeof record.source_rate === "string" ? record.source_rate : null,
    paid_at: record.paid_at instanceof Date || typeof record.paid_at === "string" ? record.paid_at : null,
    created_at: row.created_at,
  }
}

type CallbackRecord = Awaited<ReturnType<CryptoModuleService["listCryptoCallbacks"]>>[number]

/** A completed deposit (spec §6.2) as a received amount, at its callback's rate (`source_rate` in `source_currency`). */
function depositRowOf(callback: CallbackRecord): VolumeInvoiceRow {
  const fields = typeof callback.fields === "object" && callback.fields !== null ? (callback.fields as Record<string, unknown>) : {}
  const text = (key: string): string | null => (typeof fields[key] === "string" ? (fields[key] as string) : null)
  return {
    psys_cid: text("psys_cid"),
    currency: text("currency"),
    source_currency: text("source_currency") ?? "",
    source_amount: "0",
    expected_amount: null,
    received_amount: text("amount"),
    source_rate: text("source_rate"),
    paid_at: null,
    created_at: callback.created_at,
  }
}

/** How old an open Needs-attention item is. */
export const ATTENTION_AGES = ["under_1_day", "1_to_7_days", "7_to_30_days", "over_30_days"] as const
export type AttentionAge = (typeof ATTENTION_AGES)[number]

/** The age bucket of an item raised at `createdAt`, seen at `now`: < 1 day, 1–7 days, 7–30 days, > 30 days. */
export function attentionAgeOf(createdAt: Date | string, now: Date): AttentionAge {
  const days = (now.getTime() - new Date(createdAt).getTime()) / DAY_MS
  if (days < 1) return "under_1_day"
  if (days < 7) return "1_to_7_days"
  if (days < 30) return "7_to_30_days"
  return "over_30_days"
}

export interface AttentionChartRow {
  kind: AttentionQueueItem["kind"]
  total: number
  ages: Record<AttentionAge, number>
}

export interface AttentionChart {
  ages: readonly AttentionAge[]
  kinds: AttentionChartRow[]
  total: number
  at: string
}

/** Open items per kind and age bucket; kinds with the most items first. */
export function attentionChart(items: Iterable<Pick<AttentionQueueItem, "kind" | "created_at">>, now: Date): AttentionChart {
  const byKind = new Map<AttentionQueueItem["kind"], AttentionChartRow>()
  let total = 0
  for (const item of items) {
    const row = byKind.get(item.kind) ?? { kind: item.kind, total: 0, ages: { under_1_day: 0, "1_to_7_days": 0, "7_to_30_days": 0, over_30_days: 0 } }
    byKind.set(item.kind, row)
    row.ages[attentionAgeOf(item.created_at, now)] += 1
    row.total += 1
    total += 1
  }
  const kinds = [...byKind.values()].sort((a, b) => b.total - a.total || a.kind.localeCompare(b.kind))
  return { ages: ATTENTION_AGES, kinds, total, at: now.toISOString() }
}

/** Items read per page of the queue, and the most the chart reads (a queue that long is counted, not drawn whole). */
export const ATTENTION_PAGE_SIZE = 200
export const ATTENTION_CHART_LIMIT = 10_000

/**
 * The Needs-attention queue (the same list the admin's queue shows, src/core/books/attention-queue.ts)
 * by kind and age, read page by page up to ATTENTION_CHART_LIMIT items; `truncated` when the
 * queue holds more.
 */
export async function readAttentionChart(service: Parameters<typeof listAttentionQueue>[0], now: Date): Promise<AttentionChart & { truncated: boolean }> {
  const items: AttentionQueueItem[] = []
  let count = 0
  for (let offset = 0; offset < ATTENTION_CHART_LIMIT; offset += ATTENTION_PAGE_SIZE) {
    const page = await listAttentionQueue(service, { limit: ATTENTION_PAGE_SIZE, offset })
    count = page.count
    items.push(...page.items)
    if (page.items.length < ATTENTION_PAGE_SIZE || items.length >= count) break
  }
  return { ...attentionChart(items, now), truncated: count > items.length }
}

/** The store's default currency (Medusa's store settings), upper-case; `fallback` when the store has none. */
export async function storeDefaultCurrency(scope: Pick<MedusaContainer, "resolve">, fallback = "USD"): Promise<string> {
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "store", fields: ["supported_currencies.currency_code", "supported_currencies.is_default"], pagination: { take: 1 } })
  const currencies = (data[0]?.supported_currencies ?? []) as Array<{ currency_code?: string | null; is_default?: boolean | null } | null>
  const chosen = currencies.find((currency) => currency?.is_default === true) ?? currencies[0]
  return typeof chosen?.currency_code === "string" && chosen.currency_code !== "" ? chosen.currency_code.toUpperCase() : fallback
}
