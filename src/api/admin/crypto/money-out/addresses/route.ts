import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { resolveCryptoProviderEntry } from "../../../../../core/config/provider-entry"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import { saveCryptoAddressWorkflow } from "../../../../../workflows/admin"
import type { AdminCryptoAddressCreatedResponse, AdminCryptoAddressesResponse } from "../../types"
import type { AdminCreateCryptoAddressType, AdminCryptoAddressesQueryType } from "../validators"

/** GET /admin/crypto/money-out/addresses — the address book, newest first, each with when it is usable; `include_removed` for History. */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoAddressesQueryType>, res: MedusaResponse<AdminCryptoAddressesResponse>) => {
  const { provider_id, psys_cid, include_removed } = req.validatedQuery
  const entry = resolveCryptoProviderEntry(req.scope, provider_id)
  const addresses = await resolveCryptoModule(req.scope).listCryptoAddresses(
    { provider_id: entry.providerId, ...(psys_cid === undefined ? {} : { psys_cid }), ...(include_removed === true ? {} : { removed_at: null }) },
    { order: { added_at: "DESC" } }
  )
  res.json({ addresses })
}

/**
 * POST /admin/crypto/money-out/addresses — save an address for a coin: usable after the cooling-off
 * in force, every admin told. 201 with the new entry; 200 with the entry when the address of the
 * coin is saved already (its cooling-off unchanged, nobody told again).
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCreateCryptoAddressType>, res: MedusaResponse<AdminCryptoAddressCreatedResponse>) => {
  const { result } = await saveCryptoAddressWorkflow(req.scope).run({ input: { ...req.validatedBody, added_by: req.auth_context?.actor_id ?? null } })
  res.status(result.created ? 201 : 200).json({ address: result.address, created: result.created })
}
