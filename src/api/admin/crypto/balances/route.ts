import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { readCryptoBalances } from "../../../../core/books/balances"
import { resolveCryptoProvider } from "../../../../core/config/provider-entry"
import type { AdminCryptoBalancesQueryType } from "../validators"
import type { AdminCryptoBalancesResponse } from "../types"

/**
 * GET /admin/crypto/balances?fiat=USD — the balance of every coin the shop uses, with its value in
 * `fiat` at the gateway's current rate (src/core/books/balances.ts).
 */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoBalancesQueryType>, res: MedusaResponse<AdminCryptoBalancesResponse>) => {
  const { options, client } = await resolveCryptoProvider(req.scope, req.validatedQuery.provider_id)
  const balances = await readCryptoBalances(client, options, req.validatedQuery.fiat ?? "USD")
  res.json({ ...balances, fetched_at: new Date().toISOString() })
}
