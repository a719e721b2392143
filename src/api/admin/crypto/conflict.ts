import type { MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { AdminCryptoConflictResponse, AdminCryptoWithdrawalCreatedResponse } from "./types"

/**
 * Runs a money-out workflow and answers it: 200 with the withdrawal (`replayed: true` when its key
 * was seen before), 202 while its outcome is unknown or it waits for another admin's approval, the same refusal again for a replay of a
 * refused key (`refusal` when the gateway gave no message). A payment already held at the gateway
 * by an earlier one that failed there answers 409 with our own message
 * (docs/money-out.md#failed-at-the-gateway): Medusa's error handler would answer a CONFLICT with a
 * generic message that names neither the earlier withdrawal nor its operation.
 */
export async function answerWithdrawalRun(
  res: MedusaResponse<AdminCryptoWithdrawalCreatedResponse | AdminCryptoConflictResponse>,
  run: () => Promise<{ result: AdminCryptoWithdrawalCreatedResponse }>,
  refusal: string
): Promise<void> {
  let result: AdminCryptoWithdrawalCreatedResponse
  try {
    result = (await run()).result
  } catch (error) {
    // A workflow may hand the step's error back as a plain object: its `type` is what counts.
    const type = typeof error === "object" && error !== null && "type" in error ? error.type : undefined
    if (type !== MedusaError.Types.CONFLICT) throw error
    const message = error instanceof Error ? error.message : typeof error === "object" && error !== null && "message" in error ? String(error.message) : "Conflict"
    res.status(409).json({ type: "conflict", message })
    return
  }
  const { withdrawal, replayed } = result
  if (replayed && withdrawal.status === "rejected") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, withdrawal.error_message ?? refusal)
  }
  // 202: not done yet, its outcome unknown or waiting for another admin's approval (docs/money-out.md#money-out-policy).
  res.status(withdrawal.status === "outcome_unknown" || withdrawal.status === "awaiting_approval" ? 202 : 200).json({ withdrawal, replayed })
}
