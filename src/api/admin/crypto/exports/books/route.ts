import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { storeDefaultCurrency } from "../../../../../core/books/charts"
import type { DisplayIds } from "../../../../../core/books/export"
import type { BooksSql, DisplayIdLookup } from "../../../../../core/books/export-source"
import { booksFile, writeBooks } from "../../../../../core/books/export-write"
import type { AdminCryptoBooksExportQueryType } from "../validators"

/**
 * GET /admin/crypto/exports/books?format=csv|json|journal&from=YYYY-MM-DD&to=YYYY-MM-DD[&provider_id] —
 * the accountant's export of the period `[from, to)` (UTC days), valued in the store's default
 * currency, streamed as a download (docs/books.md#accounting-export). Read-only: it changes nothing.
 */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoBooksExportQueryType>, res: MedusaResponse) => {
  const { format, from, to, provider_id } = req.validatedQuery
  const sql: BooksSql = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const displayIds: DisplayIdLookup = async (ids) => {
    const { data } = await query.graph({ entity: "order", fields: ["id", "display_id"], filters: { id: ids } })
    return new Map(data.map((order) => [String(order.id), String(order.display_id)])) satisfies DisplayIds
  }
  const fiat = await storeDefaultCurrency(req.scope)
  const file = booksFile(format, from, to)
  res.status(200)
  res.setHeader("Content-Type", file.contentType)
  res.setHeader("Content-Disposition", `attachment; filename="${file.filename}"`)
  res.setHeader("Cache-Control", "no-store")
  const period = { from: new Date(`${from}T00:00:00.000Z`), to: new Date(`${to}T00:00:00.000Z`), provider_id }
  try {
    await writeBooks(format, sql, period, res, { fiat, displayIds })
  } catch (error) {
    if (!res.headersSent) {
      // Nothing sent yet (the first read failed): Medusa's error handler answers as for any route.
      res.removeHeader("Content-Disposition")
      res.setHeader("Content-Type", "application/json; charset=utf-8")
      throw error
    }
    // The headers are gone: a failure mid-stream can only cut the download short, so the file is
    // visibly incomplete (no totals) rather than wrong. Logged for the merchant's support.
    req.scope.resolve(ContainerRegistrationKeys.LOGGER).error(`The accounting export ${from}–${to} stopped: ${error instanceof Error ? error.message : String(error)}`)
    res.destroy(error instanceof Error ? error : undefined)
  }
}
