import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../core/errors"
import { resolveCryptoProvider } from "../../../../../core/config/provider-entry"
import { toWire } from "../../../../../core/money"
import type { AdminCryptoExchangeCurrenciesResponse } from "../../types"

/** GET /admin/crypto/exchanges/currencies — the coins the exchange API takes (spec §4.11; body as sent). */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminCryptoExchangeCurrenciesResponse>) => {
  const { client } = await resolveCryptoProvider(req.scope)
  try {
    res.json({ currencies: toWire(await client.exchanges.currencies()) })
  } catch (error) {
    throw toMedusaError(error, "Listing the exchange currencies")
  }
}
