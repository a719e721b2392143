import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { toMedusaError } from "../../../../../core/errors"
import { resolveCryptoProvider } from "../../../../../core/config/provider-entry"
import { toWire } from "../../../../../core/money"
import type { AdminCryptoFeePlansResponse } from "../../types"

/** GET /admin/crypto/fee-plans/:psys_cid — the coin's fee plans, `normal` and `priority` (spec §4.7). */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, { provider_id?: string }>, res: MedusaResponse<AdminCryptoFeePlansResponse>) => {
  const psysCid = req.params.psys_cid
  if (!/^[A-Za-z0-9_.-]{1,32}$/.test(psysCid)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, 'psys_cid must be a coin ID such as "BTC" (field: psys_cid)')
  }
  const { client } = await resolveCryptoProvider(req.scope, req.validatedQuery?.provider_id)
  try {
    res.json({ psys_cid: psysCid, plans: toWire(await client.operations.feePlans(psysCid)) })
  } catch (error) {
    throw toMedusaError(error, `Reading the ${psysCid} fee plans`)
  }
}
