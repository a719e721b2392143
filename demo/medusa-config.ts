// The demo store: a Medusa 2.21 app with medusa-payment-crypto, run by `npm run demo`
// (scripts/demo.js sets every variable below, scripts/lib/demo-env.js). It is the one configuration
// every script runs: the demo, the browser, production, scale and bench runs start this app, and
// `scripts/check-medusa-versions.js` compiles this file into the store it installs on each Medusa
// version. A merchant's config, each option explained: medusa-config.example.ts.
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

const backendUrl = process.env.MEDUSA_BACKEND_URL || "http://localhost:9000"

// One gateway shop registered twice (README "Options"): `crypto` in the white-label mode of the
// sandbox's white-label shop (session data carries address, amount, QR and expiry, and the
// storefront shows them: examples/storefront, "pay here"), and `crypto-hosted` (provider id
// pp_crypto_crypto-hosted), where the shopper pays on the gateway's page and comes back to the
// storefront's return page.
function cryptoProvider(id: string, whiteLabel: boolean) {
  return {
    resolve: "medusa-payment-crypto/providers/crypto",
    id,
    options: {
      apiKey: process.env.CRYPTO_GATEWAY_API_KEY,
      baseUrl: process.env.CRYPTO_GATEWAY_BASE_URL,
      backendUrl,
      storefrontUrl: process.env.STOREFRONT_URL || "http://localhost:8000",
      whiteLabel,
      // The demo's payout addresses are usable as soon as they are saved in the address book; a
      // store's default cooling-off is 24 hours (docs/money-out.md#money-out-policy).
      moneyOut: { cooling_off_minutes: 0 },
    },
  }
}

// Several instances on one database (docs/production.md): with REDIS_URL set, the event bus, the
// workflow engine, the cache and the locking provider are Redis modules that every instance shares,
// and MEDUSA_WORKER_MODE makes this instance a "server" (HTTP only) or a "worker" (subscribers,
// jobs, background workflows). REDIS_PREFIX keeps the queues and keys of one store apart from
// another's on the same Redis (`npm run test:scale` uses it).
const redisUrl = process.env.REDIS_URL
const redisPrefix = process.env.REDIS_PREFIX || ""
const workerMode = process.env.MEDUSA_WORKER_MODE as "shared" | "worker" | "server" | undefined
const redisModules = redisUrl
  ? [
      {
        resolve: "@medusajs/medusa/event-bus-redis",
        options: { redisUrl, queueName: `${redisPrefix}events-queue` },
      },
      {
        resolve: "@medusajs/medusa/workflow-engine-redis",
        options: {
          redis: {
            redisUrl,
            queueName: `${redisPrefix}medusa-workflows`,
            jobQueueName: `${redisPrefix}medusa-workflows-jobs`,
          },
        },
      },
      {
        resolve: "@medusajs/medusa/cache-redis",
        options: { redisUrl, namespace: `${redisPrefix}medusa` },
      },
      {
        resolve: "@medusajs/medusa/locking",
        options: {
          providers: [
            {
              resolve: "@medusajs/medusa/locking-redis",
              id: "locking-redis",
              is_default: true,
              options: { redisUrl, namespace: `${redisPrefix}medusa_lock:` },
            },
          ],
        },
      },
    ]
  : []

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    ...(workerMode ? { workerMode } : {}),
    ...(redisUrl ? { redisUrl } : {}),
    http: {
      storeCors: process.env.STORE_CORS || "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS || backendUrl,
      authCors: process.env.AUTH_CORS || backendUrl,
      jwtSecret: process.env.JWT_SECRET || "demo-jwt-secret",
      cookieSecret: process.env.COOKIE_SECRET || "demo-cookie-secret",
    },
  },
  admin: {
    // Baked into the admin at `medusa build` time; "/" (DEMO_ADMIN_BACKEND_URL) makes the admin call
    // the server that serves it, whatever its public address (the production check uses it).
    backendUrl: process.env.DEMO_ADMIN_BACKEND_URL || backendUrl,
    // A worker serves no HTTP, and the scale test's servers need no admin.
    disable: process.env.DEMO_DISABLE_ADMIN === "true" || workerMode === "worker",
  },
  plugins: [{ resolve: "medusa-payment-crypto", options: {} }],
  modules: [
    ...redisModules,
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [cryptoProvider("crypto", process.env.CRYPTO_GATEWAY_WHITE_LABEL === "true"), cryptoProvider("crypto-hosted", false)],
      },
    },
    // The shopper's e-mails (docs/notifications.md: payment instructions, payment received, pay the
    // rest) through Medusa's local provider: each is written to the log (.demo/medusa.log). A store
    // puts its e-mail provider here instead (SendGrid, Resend…) with channels ["email"]. The admin
    // feed keeps Medusa's default local provider.
    {
      resolve: "@medusajs/medusa/notification",
      options: {
        providers: [
          { resolve: "@medusajs/medusa/notification-local", id: "local", options: { name: "Local Notification Provider", channels: ["feed"] } },
          { resolve: "@medusajs/medusa/notification-local", id: "local-email", options: { name: "Local e-mail (log)", channels: ["email"] } },
        ],
      },
    },
  ],
})
