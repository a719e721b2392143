import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { createCryptoRefundWorkflow } from "../../../../workflows/admin"
import { answeredConflict } from "../conflict"
import type { AdminCreateCryptoRefundType } from "../validators"
import type { AdminCryptoConflictResponse, AdminCryptoWithdrawalCreatedResponse } from "../types"

/**
 * POST /admin/crypto/refunds — refund an order paid in crypto as a `cash_out` to `address`:
 * `kind: "refund"` converts the fiat `amount` at the confirmed `rate` and records the Medusa refund;
 * `overpayment` / `underpayment` send the coins the callback route recorded on the invoice.
 * Same idempotency rules and answers as POST /admin/crypto/withdrawals; while an earlier refund of
 * the order failed at the gateway undecided, 409 naming it (docs/money-out.md#failed-at-the-gateway).
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCreateCryptoRefundType>, res: MedusaResponse<AdminCryptoWithdrawalCreatedResponse | AdminCryptoConflictResponse>) => {
  let run
  try {
    run = await createCryptoRefundWorkflow(req.scope).run({ input: { ...req.validatedBody, requested_by: req.auth_context?.actor_id ?? null } })
  } catch (error) {
    if (answeredConflict(error, res)) return
    throw error
  }
  const { withdrawal, replayed } = run.result
  if (replayed && withdrawal.status === "rejected") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, withdrawal.error_message ?? "This refund was refused by the gateway")
  }
  res.status(withdrawal.status === "outcome_unknown" ? 202 : 200).json({ withdrawal, replayed })
}
