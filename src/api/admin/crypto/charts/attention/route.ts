import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { readAttentionChart } from "../../../../../core/books/charts"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import type { AdminCryptoAttentionChartQueryType } from "../validators"
import type { AdminCryptoAttentionChartResponse } from "../../types"

/**
 * GET /admin/crypto/charts/attention — the open Needs-attention items (the queue the admin lists,
 * docs/attention.md) counted by kind and age: under a day, 1–7 days, 7–30 days, over 30 days
 * (docs/books.md#needs-attention).
 */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoAttentionChartQueryType>, res: MedusaResponse<AdminCryptoAttentionChartResponse>) => {
  res.json(await readAttentionChart(resolveCryptoModule(req.scope), new Date()))
}
