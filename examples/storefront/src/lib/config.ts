import Medusa from "@medusajs/js-sdk"

/**
 * The Medusa store this storefront sells from. Read at run time on the server only (every store call
 * is a server action or a server component), so one `next build` serves any store: `npm run demo`
 * starts it with the demo store's URL and publishable key.
 */
export const MEDUSA_BACKEND_URL = process.env.MEDUSA_BACKEND_URL ?? "http://localhost:9000"
export const MEDUSA_PUBLISHABLE_KEY = process.env.MEDUSA_PUBLISHABLE_KEY ?? ""

export const sdk = new Medusa({ baseUrl: MEDUSA_BACKEND_URL, publishableKey: MEDUSA_PUBLISHABLE_KEY })

/** What the kit's server helpers need to reach the store (medusa-payment-crypto/storefront/server). */
export const storeConnection = { baseUrl: MEDUSA_BACKEND_URL, publishableKey: MEDUSA_PUBLISHABLE_KEY }
