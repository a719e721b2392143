import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../core/errors"
import { checkExchangeAmounts } from "../../../../../core/money-out/exchange"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import { resolveCryptoProvider } from "../../../../../core/config/provider-entry"
import { toWire } from "../../../../../core/money"
import type { AdminCryptoExchangeEstimateType } from "../../validators"
import type { AdminCryptoExchangeEstimateResponse } from "../../types"

/** POST /admin/crypto/exchanges/estimate — what an exchange would give (spec §4.11). Creates nothing. */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCryptoExchangeEstimateType>, res: MedusaResponse<AdminCryptoExchangeEstimateResponse>) => {
  const { provider_id, ...params } = req.validatedBody
  const { client } = await resolveCryptoProvider(req.scope, provider_id)
  await checkExchangeAmounts(client, resolveCryptoModule(req.scope), params)
  try {
    res.json({ estimate: toWire(await client.exchanges.estimate(params)) })
  } catch (error) {
    throw toMedusaError(error, "Estimating the exchange")
  }
}
