// The demo store: a Medusa 2.21 app with medusa-payment-crypto, run by `npm run demo`
// (scripts/demo.js sets every variable below). It is also the reference for a merchant's config.
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

const backendUrl = process.env.MEDUSA_BACKEND_URL || "http://localhost:9000"

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS || "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS || backendUrl,
      authCors: process.env.AUTH_CORS || backendUrl,
      jwtSecret: process.env.JWT_SECRET || "demo-jwt-secret",
      cookieSecret: process.env.COOKIE_SECRET || "demo-cookie-secret",
    },
  },
  admin: {
    backendUrl,
  },
  plugins: [{ resolve: "medusa-payment-crypto", options: {} }],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          {
            resolve: "medusa-payment-crypto/providers/crypto",
            id: "crypto",
            options: {
              apiKey: process.env.CRYPTO_GATEWAY_API_KEY,
              baseUrl: process.env.CRYPTO_GATEWAY_BASE_URL,
              backendUrl,
              storefrontUrl: process.env.STOREFRONT_URL || "http://localhost:8000",
              // The sandbox's white-label shop: session data carries address, amount, QR and expiry,
              // and the storefront shows them (examples/storefront: "pay here").
              whiteLabel: process.env.CRYPTO_GATEWAY_WHITE_LABEL === "true",
            },
          },
          {
            // The same gateway shop in hosted mode (provider id pp_crypto_crypto-hosted): the shopper
            // pays on the gateway's page and comes back to the storefront's return page.
            resolve: "medusa-payment-crypto/providers/crypto",
            id: "crypto-hosted",
            options: {
              apiKey: process.env.CRYPTO_GATEWAY_API_KEY,
              baseUrl: process.env.CRYPTO_GATEWAY_BASE_URL,
              backendUrl,
              storefrontUrl: process.env.STOREFRONT_URL || "http://localhost:8000",
              whiteLabel: false,
            },
          },
        ],
      },
    },
  ],
})
