import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { resolveCryptoAttentionWorkflow } from "../../../../../../workflows/admin"
import type { AdminResolveCryptoAttentionType } from "../../validators"
import type { AdminCryptoAttentionResolveResponse } from "../../../types"

/** POST /admin/crypto/attention/:id/resolve — the merchant's decision (kept / other) with a note, who and when. */
export const POST = async (req: AuthenticatedMedusaRequest<AdminResolveCryptoAttentionType>, res: MedusaResponse<AdminCryptoAttentionResolveResponse>) => {
  const { result } = await resolveCryptoAttentionWorkflow(req.scope).run({
    input: { id: req.params.id, ...req.validatedBody, resolved_by: req.auth_context?.actor_id ?? null },
  })
  res.json({ attention: result })
}
