import { z } from "@medusajs/framework/zod"
import { balanceChartDays, MAX_BALANCE_DAYS } from "../../../../core/books/balance-snapshot"
import { bucketCount, CHART_INTERVALS, chartPeriod, MAX_BUCKETS, utcMomentOf } from "../../../../core/books/charts"

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A UTC moment: an ISO 8601 date-time with its offset, or a day `YYYY-MM-DD` (its 00:00 UTC). `to` is exclusive. */
const moment = (field: string) =>
  z
    .string({ error: `${field} must be an ISO 8601 UTC date such as "2026-11-01" or "2026-11-01T00:00:00Z"` })
    .trim()
    .refine((value) => utcMomentOf(value) !== null, `${field} must be an ISO 8601 UTC date such as "2026-11-01" or "2026-11-01T00:00:00Z"`)
    .transform((value) => new Date(DAY.test(value) ? `${value}T00:00:00Z` : value))

const providerId = z.string().trim().min(1, "provider_id must not be empty").optional()

/** GET /admin/crypto/charts/volume (docs/books.md#received-volume). */
export const AdminCryptoVolumeChartQuery = z
  .object({
    interval: z.enum(CHART_INTERVALS, { error: 'interval must be "day", "week" or "month"' }).default("day"),
    from: moment("from").optional(),
    to: moment("to").optional(),
    provider_id: providerId,
    currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, "currency must be a 3-letter currency code such as EUR")
      .transform((value) => value.toUpperCase())
      .optional(),
  })
  // The period is fixed here, from the request's one reading of the clock; the route reads it from the query.
  .transform(({ from, to, ...query }) => ({ ...query, period: chartPeriod(query.interval, new Date(), { from, to }) }))
  .superRefine(({ interval, period }, ctx) => {
    if (period.from.getTime() >= period.to.getTime()) ctx.addIssue({ code: "custom", path: ["from"], message: "from must be before to" })
    else if (bucketCount(period, interval) > MAX_BUCKETS[interval]) {
      ctx.addIssue({ code: "custom", path: ["from"], message: `from..to spans more than ${MAX_BUCKETS[interval]} ${interval}s: ask for a shorter period or a longer interval` })
    }
  })
export type AdminCryptoVolumeChartQueryType = z.infer<typeof AdminCryptoVolumeChartQuery>

const day = (field: string) =>
  z
    .string({ error: `${field} must be a UTC day such as "2026-11-01"` })
    .trim()
    .refine((value) => DAY.test(value) && utcMomentOf(value) !== null, `${field} must be a UTC day such as "2026-11-01"`)

/** GET /admin/crypto/charts/balances (docs/books.md#balances-over-time). */
export const AdminCryptoBalanceChartQuery = z
  .object({ from: day("from").optional(), to: day("to").optional(), provider_id: providerId })
  // The days are fixed here, from the request's one reading of the clock; the route reads them from the query.
  .transform(({ provider_id, ...asked }) => ({ provider_id, ...balanceChartDays(new Date(), asked) }))
  .superRefine((period, ctx) => {
    const days = (Date.parse(`${period.to}T00:00:00Z`) - Date.parse(`${period.from}T00:00:00Z`)) / (24 * 3600 * 1000)
    if (days < 0) ctx.addIssue({ code: "custom", path: ["from"], message: "from must not be after to" })
    else if (days >= MAX_BALANCE_DAYS) ctx.addIssue({ code: "custom", path: ["from"], message: `from..to spans more than ${MAX_BALANCE_DAYS} days` })
  })
export type AdminCryptoBalanceChartQueryType = z.infer<typeof AdminCryptoBalanceChartQuery>

/** GET /admin/crypto/charts/attention (docs/books.md#needs-attention): no parameters. */
export const AdminCryptoAttentionChartQuery = z.object({}).strict()
export type AdminCryptoAttentionChartQueryType = z.infer<typeof AdminCryptoAttentionChartQuery>

/** POST /admin/crypto/charts/balances: take today's snapshot now (the daily job's own run, idempotent per day). */
export const AdminCryptoTakeBalanceSnapshot = z.object({ provider_id: providerId }).strict()
export type AdminCryptoTakeBalanceSnapshotType = z.infer<typeof AdminCryptoTakeBalanceSnapshot>
