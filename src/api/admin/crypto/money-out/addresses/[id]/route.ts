import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { removeCryptoAddressWorkflow } from "../../../../../../workflows/admin"
import type { AdminCryptoAddressRemovedResponse } from "../../../types"

/** DELETE /admin/crypto/money-out/addresses/:id — remove an address from the book, at once (the entry stays in History). */
export const DELETE = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminCryptoAddressRemovedResponse>) => {
  const { result } = await removeCryptoAddressWorkflow(req.scope).run({ input: { id: req.params.id, removed_by: req.auth_context?.actor_id ?? null } })
  res.json({ address: result })
}
