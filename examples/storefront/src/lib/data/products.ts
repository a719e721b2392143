import "server-only"
import type { HttpTypes } from "@medusajs/types"
import { sdk } from "../config"
import { getRegion } from "./regions"

export async function listProducts(): Promise<HttpTypes.StoreProduct[]> {
  const region = await getRegion()
  const { products } = await sdk.store.product.list(
    { region_id: region.id, fields: "*variants.calculated_price", limit: 12 },
    { cache: "no-store" }
  )
  return products
}
