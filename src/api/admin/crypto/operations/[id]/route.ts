import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../providers/crypto/errors"
import { resolveAdminGateway } from "../../../../../workflows/admin/lib/gateway"
import { toWire } from "../../../../../workflows/admin/lib/wire"

/** GET /admin/crypto/operations/:id — one operation in the detail view (spec §4.4). */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { client } = resolveAdminGateway(req.scope)
  try {
    res.json({ operation: toWire(await client.operations.retrieve(req.params.id)) })
  } catch (error) {
    throw toMedusaError(error, `Reading operation ${req.params.id}`)
  }
}
