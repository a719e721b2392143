import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../providers/crypto/errors"
import { resolveAdminGateway } from "../../../../../workflows/admin/lib/gateway"
import { toWire } from "../../../../../workflows/admin/lib/wire"

/** GET /admin/crypto/exchanges/:id — the status of an exchange (spec §4.11). */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { client } = resolveAdminGateway(req.scope)
  try {
    res.json({ exchange: toWire(await client.exchanges.retrieve(req.params.id)) })
  } catch (error) {
    throw toMedusaError(error, `Reading exchange ${req.params.id}`)
  }
}
