import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../core/errors"
import { resolveCryptoProvider } from "../../../../core/config/provider-entry"
import { toWire } from "../../../../core/money"
import type { AdminCryptoCurrenciesQueryType } from "../validators"
import type { AdminCryptoCurrenciesResponse } from "../types"

/** GET /admin/crypto/currencies?fiat=EUR — the gateway's coins with rates in any supported fiat (spec §4.8). */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoCurrenciesQueryType>, res: MedusaResponse<AdminCryptoCurrenciesResponse>) => {
  const { client } = await resolveCryptoProvider(req.scope, req.validatedQuery.provider_id)
  const fiat = req.validatedQuery.fiat
  try {
    const currencies = await client.currencies.list(fiat)
    res.json({ fiat: fiat ?? "USD", currencies: toWire(currencies) })
  } catch (error) {
    throw toMedusaError(error, `Reading the coins and ${fiat ?? "USD"} rates`)
  }
}
