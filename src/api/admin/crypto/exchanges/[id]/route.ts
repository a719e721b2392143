import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../core/errors"
import { resolveCryptoProvider } from "../../../../../core/provider-entry"
import { toWire } from "../../../../../core/money"

/** GET /admin/crypto/exchanges/:id — the status of an exchange (spec §4.11). */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { client } = await resolveCryptoProvider(req.scope)
  try {
    res.json({ exchange: toWire(await client.exchanges.retrieve(req.params.id)) })
  } catch (error) {
    throw toMedusaError(error, `Reading exchange ${req.params.id}`)
  }
}
