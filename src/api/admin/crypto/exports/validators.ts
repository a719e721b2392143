import { z } from "@medusajs/framework/zod"
import { BOOKS_FORMATS } from "../../../../core/books/export-write"

/** The longest period one export covers (a year, leap day included). */
export const MAX_EXPORT_DAYS = 366

const DAY_MS = 24 * 60 * 60 * 1000

/** A calendar day `YYYY-MM-DD`, read as its UTC midnight. */
const day = (field: string) =>
  z
    .string({ error: `${field} is required: a date such as "2026-11-01" (YYYY-MM-DD, UTC)` })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date such as "2026-11-01" (YYYY-MM-DD, UTC)`)
    .refine((value) => {
      const date = new Date(`${value}T00:00:00.000Z`)
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
    }, `${field} is not a calendar date`)

/**
 * GET /admin/crypto/exports/books (docs/books.md#accounting-export): the period `[from, to)` in
 * UTC days, at most MAX_EXPORT_DAYS long, and the file's format.
 */
export const AdminCryptoBooksExportQuery = z
  .object({
    format: z.enum(BOOKS_FORMATS, { error: `format must be one of ${BOOKS_FORMATS.map((format) => `"${format}"`).join(", ")}` }).default("csv"),
    from: day("from"),
    to: day("to"),
    provider_id: z.string().trim().min(1, "provider_id must not be empty").optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    const from = Date.parse(`${value.from}T00:00:00.000Z`)
    const to = Date.parse(`${value.to}T00:00:00.000Z`)
    if (Number.isNaN(from) || Number.isNaN(to)) return
    if (to <= from) {
      ctx.addIssue({ code: "custom", path: ["to"], message: `to must be after from (the period is [from, to), to not included): got from ${value.from}, to ${value.to}` })
    } else if ((to - from) / DAY_MS > MAX_EXPORT_DAYS) {
      ctx.addIssue({ code: "custom", path: ["to"], message: `to is more than ${MAX_EXPORT_DAYS} days after from: export at most ${MAX_EXPORT_DAYS} days at a time` })
    }
  })
export type AdminCryptoBooksExportQueryType = z.infer<typeof AdminCryptoBooksExportQuery>
