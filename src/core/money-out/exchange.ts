import type { GatewayClient } from "../../gateway"
import type { RateCacheStore } from "../payment/currency-cache"
import { checkAmounts, placesOfCoin } from "./withdrawal"

/** Our status for an exchange the gateway reports (spec §4.11 leaves the statuses open). */
export function statusOfExchange(gatewayStatus: unknown): "created" | "completed" | "error" {
  if (gatewayStatus === "completed" || gatewayStatus === "success") return "completed"
  if (gatewayStatus === "error" || gatewayStatus === "failed" || gatewayStatus === "cancelled" || gatewayStatus === "canceled" || gatewayStatus === "expired") return "error"
  return "created"
}

/** Is a stored exchange unresolved (the merchant may need to decide)? */
export const UNRESOLVED_EXCHANGE_STATUSES = ["requested", "sending", "outcome_unknown"] as const

/**
 * An exchange's amount checked like every money-out amount (docs/money-out.md#amounts):
 * `from_amount` within `from_currency`'s places, `to_amount` within `to_currency`'s (spec §4.11
 * does not say more of the amounts; this is our reading).
 */
export async function checkExchangeAmounts(
  client: { currencies: Pick<GatewayClient["currencies"], "list"> },
  store: RateCacheStore,
  input: { from_currency: string; to_currency: string; from_amount?: string | null; to_amount?: string | null }
): Promise<void> {
  if (input.from_amount !== undefined && input.from_amount !== null) {
    checkAmounts([{ field: "from_amount", value: input.from_amount }], await placesOfCoin(client, store, input.from_currency), input.from_currency)
  }
  if (input.to_amount !== undefined && input.to_amount !== null) {
    checkAmounts([{ field: "to_amount", value: input.to_amount }], await placesOfCoin(client, store, input.to_currency), input.to_currency)
  }
}
