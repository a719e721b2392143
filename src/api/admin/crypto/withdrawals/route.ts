import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { createCryptoWithdrawalWorkflow } from "../../../../workflows/admin"
import { resolveCryptoModule } from "../../../../modules/crypto"
import { answerWithdrawalRun } from "../conflict"
import type { AdminCreateCryptoWithdrawalType, AdminCryptoWithdrawalsQueryType } from "../validators"
import type { AdminCryptoConflictResponse, AdminCryptoWithdrawalCreatedResponse, AdminCryptoWithdrawalsResponse } from "../types"

/**
 * POST /admin/crypto/withdrawals — a `cash_out` (one recipient) or `mass_cash_out` (several),
 * recorded under `idempotency_key` before it is sent. 200 with the withdrawal (`replayed: true`
 * when the key was seen before: nothing was sent again); 202 when the gateway's answer was lost
 * (`status: "outcome_unknown"`: POST /withdrawals/:id/reconcile, or the merchant's POST /withdrawals/:id/resolve); 4xx with the merchant's
 * message when the gateway refused it (a replay of a refused key gets the same refusal). 200 with
 * `status: "error"` and its evidence when the gateway answered `error` (spec §2.3): the same payment
 * then answers 409, naming that withdrawal and its operation, until the merchant resolves it
 * `failed` (docs/money-out.md#failed-at-the-gateway). 400 naming the field for an amount beyond
 * the coin's decimal places: nothing recorded, nothing sent.
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCreateCryptoWithdrawalType>, res: MedusaResponse<AdminCryptoWithdrawalCreatedResponse | AdminCryptoConflictResponse>) => {
  await answerWithdrawalRun(
    res,
    () => createCryptoWithdrawalWorkflow(req.scope).run({ input: { ...req.validatedBody, requested_by: req.auth_context?.actor_id ?? null, purpose: "withdrawal" } }),
    "This withdrawal was refused by the gateway"
  )
}

/** GET /admin/crypto/withdrawals — the withdrawals (crypto refunds included) recorded here, newest first; filters `status`, `purpose`, `order_id`. */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoWithdrawalsQueryType>, res: MedusaResponse<AdminCryptoWithdrawalsResponse>) => {
  const { status, purpose, order_id, limit, offset } = req.validatedQuery
  const [withdrawals, count] = await resolveCryptoModule(req.scope).listAndCountCryptoWithdrawals(
    { ...(status ? { status } : {}), ...(purpose ? { purpose } : {}), ...(order_id ? { order_id } : {}) },
    { take: limit, skip: offset, order: { created_at: "DESC" } }
  )
  res.json({ withdrawals, count, limit, offset })
}
