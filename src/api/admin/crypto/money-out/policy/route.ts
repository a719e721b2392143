import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { resolveCryptoProviderEntry } from "../../../../../core/config/provider-entry"
import { describeMoneyOutPolicy, policyNow } from "../../../../../core/money-out/policy"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import { saveCryptoMoneyOutPolicyWorkflow } from "../../../../../workflows/admin"
import type { AdminCryptoMoneyOutPolicyResponse, AdminCryptoMoneyOutPolicySavedResponse } from "../../types"
import type { AdminCryptoMoneyOutPolicyQueryType, AdminUpdateCryptoMoneyOutPolicyType } from "../validators"

/** The policy of a provider entry as the Money out section shows it. */
export async function moneyOutPolicyOf(scope: MedusaContainer, providerId?: string) {
  const entry = resolveCryptoProviderEntry(scope, providerId)
  return describeMoneyOutPolicy(resolveCryptoModule(scope), entry.providerId, entry.options.moneyOut, policyNow())
}

/** GET /admin/crypto/money-out/policy — the policy in force, the deployment's values, the loosenings still waiting (docs/money-out.md#money-out-policy). */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoMoneyOutPolicyQueryType>, res: MedusaResponse<AdminCryptoMoneyOutPolicyResponse>) => {
  res.json({ policy: await moneyOutPolicyOf(req.scope, req.validatedQuery.provider_id) })
}

/**
 * POST /admin/crypto/money-out/policy — change fields of the policy: a tightening takes effect at
 * once; a loosening (address book off, a shorter cooling-off) waits the cooling-off in force and
 * every admin is told. Answers the changes recorded and the policy after them.
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminUpdateCryptoMoneyOutPolicyType>, res: MedusaResponse<AdminCryptoMoneyOutPolicySavedResponse>) => {
  const { provider_id, ...patch } = req.validatedBody
  const { result } = await saveCryptoMoneyOutPolicyWorkflow(req.scope).run({ input: { provider_id, patch, requested_by: req.auth_context?.actor_id ?? null } })
  res.json({ changes: result.changes, policy: await moneyOutPolicyOf(req.scope, result.provider_id) })
}
