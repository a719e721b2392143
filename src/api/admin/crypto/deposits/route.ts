import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../core/errors"
import { createCryptoDepositWorkflow } from "../../../../workflows/admin"
import { resolveCryptoProvider } from "../../../../core/config/provider-entry"
import type { AdminCreateCryptoDepositType, AdminCryptoDepositsQueryType } from "../validators"
import type { AdminCryptoDepositsCreatedResponse, AdminCryptoDepositsResponse } from "../types"

/** POST /admin/crypto/deposits — the deposit address(es) of a customer uid (white-label, spec §4.10). */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCreateCryptoDepositType>, res: MedusaResponse<AdminCryptoDepositsCreatedResponse>) => {
  const { result } = await createCryptoDepositWorkflow(req.scope).run({ input: req.validatedBody })
  res.json({ deposits: Array.isArray(result) ? result : [result] })
}

/** GET /admin/crypto/deposits — the deposit addresses, filtered by uid and coin (spec §4.10). */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoDepositsQueryType>, res: MedusaResponse<AdminCryptoDepositsResponse>) => {
  const { provider_id, ...params } = req.validatedQuery
  const { client } = await resolveCryptoProvider(req.scope, provider_id)
  try {
    const deposits = await client.deposits.list(params)
    res.json({ deposits, page: params.page, limit: params.limit })
  } catch (error) {
    throw toMedusaError(error, "Listing the deposit addresses")
  }
}
