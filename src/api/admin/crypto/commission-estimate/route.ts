import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../core/errors"
import { resolveCryptoProvider } from "../../../../core/config/provider-entry"
import { toWire } from "../../../../core/money"
import { checkAmounts, placesOfCoin } from "../../../../core/money-out/withdrawal"
import { resolveCryptoModule } from "../../../../modules/crypto"
import type { AdminCryptoEstimateType } from "../validators"
import type { AdminCryptoCommissionEstimateResponse } from "../types"

/**
 * POST /admin/crypto/commission-estimate — the service commission and network fee of a prospective
 * withdrawal (spec §4.5), for the `cash_out` or `mass_cash_out` the recipients make. Sends nothing.
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCryptoEstimateType>, res: MedusaResponse<AdminCryptoCommissionEstimateResponse>) => {
  const { psys_cid, recipients, fee_plan, provider_id } = req.validatedBody
  const { client } = await resolveCryptoProvider(req.scope, provider_id)
  // The amounts within the coin's places before the gateway is asked (docs/money-out.md#amounts).
  checkAmounts(recipients.map((r, index) => ({ field: `recipients[${index}].amount`, value: r.amount })), await placesOfCoin(client, resolveCryptoModule(req.scope), psys_cid), psys_cid)
  try {
    const estimate = await client.operations.commission(psys_cid, {
      addresses: recipients.map((r) => r.address),
      amounts: recipients.map((r) => r.amount),
      type: recipients.length > 1 ? "mass_cash_out" : "cash_out",
      feePlan: fee_plan,
    })
    res.json({ commission: toWire(estimate) })
  } catch (error) {
    throw toMedusaError(error, "Estimating the commission")
  }
}
