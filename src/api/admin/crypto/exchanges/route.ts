import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { resolveCryptoModule } from "../../../../modules/crypto"
import { createCryptoExchangeWorkflow } from "../../../../workflows/admin"
import type { AdminCreateCryptoExchangeType, AdminCryptoExchangesQueryType } from "../validators"
import type { AdminCryptoExchangeCreatedResponse, AdminCryptoExchangesResponse } from "../types"

/**
 * POST /admin/crypto/exchanges — creates the exchange the merchant confirmed (`confirmed: true`,
 * spec §4.11), recorded under `idempotency_key` first. 201 with the recorded exchange (`replayed:
 * true`, 200, when the key was seen before: nothing was sent again); 202 when the gateway's answer
 * was not a clear one (`status: "outcome_unknown"`: resolve it with POST /exchanges/:id/resolve).
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCreateCryptoExchangeType>, res: MedusaResponse<AdminCryptoExchangeCreatedResponse>) => {
  const { confirmed: _confirmed, ...input } = req.validatedBody
  const { result } = await createCryptoExchangeWorkflow(req.scope).run({ input: { ...input, requested_by: req.auth_context?.actor_id ?? null } })
  const { exchange, replayed } = result
  if (replayed && exchange.status === "rejected") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, exchange.error_message ?? "This exchange was refused by the gateway")
  }
  res.status(exchange.status === "outcome_unknown" ? 202 : replayed ? 200 : 201).json({ exchange, replayed })
}

/** GET /admin/crypto/exchanges — the exchanges recorded here, newest first. */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoExchangesQueryType>, res: MedusaResponse<AdminCryptoExchangesResponse>) => {
  const { status, limit, offset } = req.validatedQuery
  const [exchanges, count] = await resolveCryptoModule(req.scope).listAndCountCryptoExchanges(status ? { status } : {}, { take: limit, skip: offset, order: { created_at: "DESC" } })
  res.json({ exchanges, count, limit, offset })
}
