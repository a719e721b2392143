import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"

/**
 * The demo store's test routes (`/demo-test/*`) exist only for `npm run test:scale` and
 * `npm run bench:store`, which start the store with DEMO_TEST_ROUTES=true on 127.0.0.1. Anywhere
 * else they answer 404: they create carts and run payment workflows without authentication.
 */
export function demoTestRoutesOnly(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  if (process.env.DEMO_TEST_ROUTES !== "true") {
    res.status(404).json({ message: "Not found" })
    return
  }
  next()
}
