import "server-only"
import type { HttpTypes } from "@medusajs/types"
import { sdk } from "../config"

/** The demo store has one region; a real storefront picks it from the shopper's country. */
export async function getRegion(): Promise<HttpTypes.StoreRegion> {
  const { regions } = await sdk.store.region.list({}, { cache: "no-store" })
  const region = regions[0]
  if (region === undefined) {
    throw new Error("The store has no region: seed it first (npm run demo does)")
  }
  return region
}
