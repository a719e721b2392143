// A test-only Medusa app that loads this plugin from source (research §6.4). The app's root is
// .server/ (it holds `src`, a symlink to the repository's src/, so API routes, workflows and jobs
// load as the app's own, and requires this file); the provider and our module are registered by
// path. Values come from the environment the HTTP
// tests set before the app boots (`startTestSandbox` in integration-tests/http/helpers.ts).
import path from "node:path"
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv("test", process.cwd())

// Absolute: defineConfig requires module paths from its own folder, not from this file.
const repoSrc = path.resolve(__dirname, "..", "..", "src")

// The deployment's money-out policy (docs/money-out.md#money-out-policy): the address book stays on
// (the product default), and a saved address is usable at once unless a file sets its own cooling-off
// (money-out-policy.spec.ts sets an hour and moves the clock past it). The suites that pay save their addresses
// first (useSavedAddresses in integration-tests/http/helpers.ts).
const moneyOut = { cooling_off_minutes: Number(process.env.MPC_TEST_COOLING_OFF_MINUTES ?? "0") }

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: "*",
      adminCors: "*",
      authCors: "*",
      jwtSecret: "test-jwt-secret",
      cookieSecret: "test-cookie-secret",
    },
  },
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          {
            resolve: path.join(repoSrc, "providers", "crypto"),
            id: "crypto",
            options: {
              apiKey: process.env.MPC_TEST_GATEWAY_API_KEY,
              baseUrl: process.env.MPC_TEST_GATEWAY_URL,
              backendUrl: process.env.MPC_TEST_BACKEND_URL,
              storefrontUrl: "http://localhost:8000",
              underpaidTolerancePercent: process.env.MPC_TEST_TOLERANCE ?? "0",
              // Default (24 hours) unless a test file cancels an order placed on detection at once (0).
              ...(process.env.MPC_TEST_PAY_REST_HOURS === undefined ? {} : { payRestHours: Number(process.env.MPC_TEST_PAY_REST_HOURS) }),
              // store.spec.ts runs the storefront's white-label checkout (address, QR, expiry in the session).
              whiteLabel: process.env.MPC_TEST_WHITE_LABEL === "true",
              // A test that makes the gateway hang sets a short per-request timeout (checkout.spec.ts).
              ...(process.env.MPC_TEST_GATEWAY_TIMEOUT_MS === undefined ? {} : { gatewayTimeoutMs: Number(process.env.MPC_TEST_GATEWAY_TIMEOUT_MS) }),
              moneyOut,
            },
          },
          // A second entry with the key of a shop without white-label (admin.spec.ts: withdrawals whose
          // operations carry no address or amount, spec §2.2). Only when a test sets its key.
          ...(process.env.MPC_TEST_PLAIN_GATEWAY_API_KEY === undefined
            ? []
            : [
                {
                  resolve: path.join(repoSrc, "providers", "crypto"),
                  id: "crypto_plain",
                  options: {
                    apiKey: process.env.MPC_TEST_PLAIN_GATEWAY_API_KEY,
                    baseUrl: process.env.MPC_TEST_GATEWAY_URL,
                    backendUrl: process.env.MPC_TEST_BACKEND_URL,
                    storefrontUrl: "http://localhost:8000",
                    ...(process.env.MPC_TEST_GATEWAY_TIMEOUT_MS === undefined ? {} : { gatewayTimeoutMs: Number(process.env.MPC_TEST_GATEWAY_TIMEOUT_MS) }),
                    moneyOut,
                  },
                },
              ]),
        ],
      },
    },
    { resolve: path.join(repoSrc, "modules", "crypto") },
    // The shopper's e-mails (docs/notifications.md) go to Medusa's local provider, which logs them and
    // keeps each in the notification table, where attention-events.spec.ts reads them back. The
    // admin feed keeps Medusa's default local provider.
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
