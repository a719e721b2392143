import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../providers/crypto/errors"
import { resolveAdminGateway } from "../../../../../workflows/admin/lib/gateway"
import { toWire } from "../../../../../workflows/admin/lib/wire"

/** GET /admin/crypto/exchanges/currencies — the coins the exchange API takes (spec §4.11; body as sent). */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { client } = resolveAdminGateway(req.scope)
  try {
    res.json({ currencies: toWire(await client.exchanges.currencies()) })
  } catch (error) {
    throw toMedusaError(error, "Listing the exchange currencies")
  }
}
