import type { MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { AdminCryptoConflictResponse } from "./types"

/**
 * Answers 409 with our own message when a money-out workflow refused a payment that is already
 * held at the gateway by an earlier one that failed there (docs/money-out.md#failed-at-the-gateway).
 * Medusa's error handler would answer a CONFLICT with a generic message that names neither the
 * earlier withdrawal nor its operation, so the route answers it itself. False for any other error.
 */
export function answeredConflict(error: unknown, res: MedusaResponse<AdminCryptoConflictResponse>): boolean {
  // A workflow may hand the step's error back as a plain object: its `type` is what counts.
  const type = typeof error === "object" && error !== null && "type" in error ? error.type : undefined
  if (type !== MedusaError.Types.CONFLICT) return false
  const message = error instanceof Error ? error.message : typeof error === "object" && error !== null && "message" in error ? String(error.message) : "Conflict"
  res.status(409).json({ type: "conflict", message })
  return true
}
