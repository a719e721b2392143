import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { toMedusaError } from "../../../../../core/errors"
import { resolveCryptoProvider } from "../../../../../core/config/provider-entry"
import { toWire } from "../../../../../core/money"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import type { AdminCryptoExchangeResponse } from "../../types"

/**
 * GET /admin/crypto/exchanges/:id — a recorded exchange (`cexc_…`) as stored, or the status of an
 * exchange at the gateway by its gateway id (spec §4.11).
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminCryptoExchangeResponse>) => {
  if (req.params.id.startsWith("cexc_")) {
    const [exchange] = await resolveCryptoModule(req.scope).listCryptoExchanges({ id: req.params.id }, { take: 1 })
    if (exchange === undefined) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Exchange ${req.params.id} was not found`)
    }
    res.json({ exchange })
    return
  }
  const { client } = await resolveCryptoProvider(req.scope)
  try {
    res.json({ exchange: toWire(await client.exchanges.retrieve(req.params.id)) })
  } catch (error) {
    throw toMedusaError(error, `Reading exchange ${req.params.id}`)
  }
}
