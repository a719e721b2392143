import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { checkCryptoCallbackUrlWorkflow } from "../../../../../workflows/admin/check-crypto-callback-url"
import type { AdminCryptoCallbackCheckType } from "../../validators"
import type { AdminCryptoCallbackCheckResponse } from "../../types"

/**
 * POST /admin/crypto/settings/callback-check — **Check the callback URL**: sends a signed test
 * callback to the provider's public callback URL and says whether this store answered it, else what
 * did (docs/troubleshooting.md#check-the-callback-url). Always 200; `answered_by_this_store` says how it went.
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCryptoCallbackCheckType>, res: MedusaResponse<AdminCryptoCallbackCheckResponse>) => {
  const { result } = await checkCryptoCallbackUrlWorkflow(req.scope).run({ input: { provider_id: req.validatedBody.provider_id } })
  res.json(result)
}
