import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../core/errors"
import { resolveCryptoProvider } from "../../../../../core/config/provider-entry"
import { toWire } from "../../../../../core/money"
import type { AdminCryptoOperationResponse } from "../../types"

/** GET /admin/crypto/operations/:id — one operation in the detail view (spec §4.4). */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminCryptoOperationResponse>) => {
  const { client } = await resolveCryptoProvider(req.scope)
  try {
    res.json({ operation: toWire(await client.operations.retrieve(req.params.id)) })
  } catch (error) {
    throw toMedusaError(error, `Reading operation ${req.params.id}`)
  }
}
