import "server-only"
import type { HttpTypes } from "@medusajs/types"
import { sdk } from "../config"

export async function retrieveOrder(orderId: string): Promise<HttpTypes.StoreOrder | null> {
  try {
    const { order } = await sdk.store.order.retrieve(
      orderId,
      { fields: "*items,*payment_collections.payments,+total,+currency_code,+display_id,+email" },
      { cache: "no-store" }
    )
    return order
  } catch {
    return null
  }
}
