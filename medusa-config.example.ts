// Example medusa-config.ts of a store that takes crypto payments with medusa-payment-crypto.
// Copy the `plugins` and `modules` entries into your own medusa-config.ts.
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS || "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS || "http://localhost:9000",
      authCors: process.env.AUTH_CORS || "http://localhost:9000",
      jwtSecret: process.env.JWT_SECRET || "supersecret",
      cookieSecret: process.env.COOKIE_SECRET || "supersecret",
    },
  },
  plugins: [
    {
      // Loads the plugin's API routes (callbacks, store and admin routes), its data module,
      // workflows, jobs and admin extensions.
      resolve: "medusa-payment-crypto",
      options: {},
    },
  ],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          {
            // Registered as pp_crypto_crypto: enable it on a region in Admin → Settings → Regions.
            resolve: "medusa-payment-crypto/providers/crypto",
            id: "crypto",
            options: {
              // The shop's secret key from the gateway's API settings. It also verifies callbacks.
              apiKey: process.env.CRYPTO_GATEWAY_API_KEY,
              // The gateway's {base_url}. For local development, the bundled sandbox:
              // `npx medusa-payment-crypto-sandbox --port 4010` → http://localhost:4010
              baseUrl: process.env.CRYPTO_GATEWAY_BASE_URL,
              // Public URL of this Medusa server: the gateway posts callbacks to
              // {backendUrl}/hooks/crypto/crypto?json=true (the last segment is this entry's id)
              backendUrl: process.env.MEDUSA_BACKEND_URL || "http://localhost:9000",
              // Where the invoice page's "To the site" button sends the shopper.
              storefrontUrl: process.env.STOREFRONT_URL || "http://localhost:8000",
            },
          },
        ],
      },
    },
  ],
})
