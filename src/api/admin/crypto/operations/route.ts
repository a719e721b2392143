import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../core/errors"
import { resolveCryptoProvider } from "../../../../core/config/provider-entry"
import { toWire } from "../../../../core/money"
import type { AdminCryptoOperationsQueryType } from "../validators"
import type { AdminCryptoOperationsResponse } from "../types"

/** GET /admin/crypto/operations — one page of the gateway's operations with its filters (spec §4.3). */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoOperationsQueryType>, res: MedusaResponse<AdminCryptoOperationsResponse>) => {
  const { provider_id, ...params } = req.validatedQuery
  const { client } = await resolveCryptoProvider(req.scope, provider_id)
  try {
    const page = await client.operations.list(params)
    const meta = page._meta ?? { totalCount: page.operations.length, pageCount: 1, currentPage: params.page, perPage: params.limit }
    res.json({ operations: toWire(page.operations), meta, has_next: page._links.next !== undefined && meta.currentPage < meta.pageCount })
  } catch (error) {
    throw toMedusaError(error, "Listing the operations")
  }
}
