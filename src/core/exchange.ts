/** Our status for an exchange the gateway reports (spec §4.11 leaves the statuses open). */
export function statusOfExchange(gatewayStatus: unknown): "created" | "completed" | "error" {
  if (gatewayStatus === "completed" || gatewayStatus === "success") return "completed"
  if (gatewayStatus === "error" || gatewayStatus === "failed" || gatewayStatus === "cancelled" || gatewayStatus === "canceled" || gatewayStatus === "expired") return "error"
  return "created"
}

/** Is a stored exchange unresolved (the merchant may need to decide)? */
export const UNRESOLVED_EXCHANGE_STATUSES = ["requested", "sending", "outcome_unknown"] as const
