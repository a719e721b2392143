import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { resolveCryptoExchangeWorkflow } from "../../../../../../workflows/admin"
import type { AdminResolveCryptoExchangeType } from "../../../validators"
import type { AdminCryptoExchangeResolveResponse } from "../../../types"

/**
 * POST /admin/crypto/exchanges/:id/resolve — the merchant settles an unknown outcome:
 * `{ resolution: "exchange", exchange_id }` or `{ resolution: "not_sent", note }`, recorded with
 * the admin user and the time.
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminResolveCryptoExchangeType>, res: MedusaResponse<AdminCryptoExchangeResolveResponse>) => {
  const { result } = await resolveCryptoExchangeWorkflow(req.scope).run({
    input: { ...req.validatedBody, id: req.params.id, resolved_by: req.auth_context?.actor_id ?? null },
  })
  res.json({ exchange: result })
}
