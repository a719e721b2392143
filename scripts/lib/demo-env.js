// What `npm run demo` gives the demo store (scripts/demo.js), built from `process.env` and the
// services the demo started, with nothing started here, so a test can check it
// (integration-tests/contract/demo-env.spec.ts). The other scripts that run the demo store (the
// production, scale and Medusa-versions checks, the store bench) build its environment here too.

/**
 * Which storefront the demo store serves. `STOREFRONT_URL` names the developer's own storefront
 * (e.g. Medusa's Next.js starter, docs/storefront.md): the store's `storefrontUrl` option (so the
 * gateway's return URLs) and STORE_CORS point at it, and the example storefront is not started.
 * Without it, the example storefront (when requested) on `examplePort`, `localhost` and not
 * 127.0.0.1: the browser keeps the cart cookie per host.
 * @param {Record<string, string | undefined>} env usually process.env
 * @param {{ exampleRequested: boolean, examplePort: number }} options
 * @returns {{ own: boolean, startExample: boolean, url: string, origin: string }}
 */
function demoStorefront(env, { exampleRequested, examplePort }) {
  const raw = (env.STOREFRONT_URL || "").trim()
  if (raw === "") {
    const url = `http://localhost:${examplePort}`
    return { own: false, startExample: exampleRequested, url, origin: url }
  }
  let parsed
  try {
    parsed = new URL(raw)
  } catch {
    parsed = null
  }
  if (parsed === null || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw new Error(`STOREFRONT_URL must be your storefront's http(s) URL, e.g. http://localhost:8000; got ${JSON.stringify(raw)}`)
  }
  // The provider appends its return path (`/checkout/crypto/return?cart_id=…`) to this URL.
  const url = raw.replace(/\/+$/, "")
  return { own: true, startExample: false, url, origin: parsed.origin }
}

/** The storefront's origin first, then the origins STORE_CORS already lists, each once. */
function storeCors(env, origin) {
  const listed = (env.STORE_CORS || "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
  return [...new Set([origin, ...listed])].join(",")
}

/**
 * The demo store's environment (demo/medusa-config.ts reads it). Without `storefront`, the config's
 * defaults (and whatever `env` sets) stand for the storefront's URL and CORS.
 * @param {Record<string, string | undefined>} env usually process.env
 * @param {{ databaseUrl: string, backendUrl: string, sandboxUrl: string, apiKey: string, whiteLabel: boolean, seedOutput: string,
 *   storefront?: { url: string, origin: string } }} services
 * @returns {Record<string, string | undefined>}
 */
function demoStoreEnv(env, { databaseUrl, backendUrl, sandboxUrl, apiKey, whiteLabel, seedOutput, storefront }) {
  return {
    ...env,
    NODE_ENV: "development", // serves the admin without a separate build step
    DATABASE_URL: databaseUrl,
    MEDUSA_BACKEND_URL: backendUrl,
    ...(storefront ? { STOREFRONT_URL: storefront.url, STORE_CORS: storeCors(env, storefront.origin) } : {}),
    CRYPTO_GATEWAY_BASE_URL: sandboxUrl,
    CRYPTO_GATEWAY_API_KEY: apiKey,
    CRYPTO_GATEWAY_WHITE_LABEL: String(Boolean(whiteLabel)),
    DEMO_SEED_OUTPUT: seedOutput,
    MEDUSA_DISABLE_TELEMETRY: "true",
    LOG_LEVEL: env.LOG_LEVEL || "info",
  }
}

module.exports = { demoStorefront, demoStoreEnv }
