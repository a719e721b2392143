import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { createCryptoRefundWorkflow } from "../../../../workflows/admin"
import { answerWithdrawalRun } from "../conflict"
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
  await answerWithdrawalRun(
    res,
    () => createCryptoRefundWorkflow(req.scope).run({ input: { ...req.validatedBody, requested_by: req.auth_context?.actor_id ?? null } }),
    "This refund was refused by the gateway"
  )
}
