#!/usr/bin/env node
// `npm run test:production`: the demo store as a merchant deploys it (docs/production.md):
//   1. `medusa plugin:build` of this plugin, then `medusa build` of the demo store (demo/), which
//      compiles the store and bundles the admin with the plugin's admin extensions into
//      demo/.medusa/server;
//   2. an embedded PostgreSQL and the gateway sandbox; `medusa db:migrate`, the seed and an admin user,
//      run FROM THE BUILD OUTPUT with NODE_ENV=production;
//   3. `medusa start` from demo/.medusa/server with NODE_ENV=production, behind a local proxy that
//      plays the TLS-terminating reverse proxy (X-Forwarded-Proto: https), because in production
//      Medusa's session cookie is Secure;
//   4. Chromium (playwright-core, Debian's /usr/bin/chromium) logs into the admin and opens the
//      Crypto page, which shows the gateway balances.
// The build output finds its packages through Node's resolution upwards (demo/node_modules links the
// plugin, the repository's node_modules has the rest): what `npm install` in .medusa/server gives a
// merchant, without a second install here.
// One line per step and "N passed, N failed"; results in .test-results/production.json
// ({ passed, failed, steps }); exit 1 on failure. Bounded to 10 minutes (PRODUCTION_LIMIT_MINUTES).
// `--no-build` skips `medusa plugin:build` of the plugin (when .medusa/server is current);
// `--reuse-store-build` keeps an existing demo/.medusa/server (for re-running the later steps).
const fs = require("fs")
const http = require("http")
const path = require("path")
const { startEmbeddedPostgres } = require("./embedded-pg")
const { demoStoreEnv } = require("./lib/demo-env")
const { root, demoDir, medusaBin, freePort, run, startMedusa, linkPluginIntoDemo, writeResults } = require("./lib/processes")
const { launchChromium, logInToAdmin, openCryptoPage } = require("./lib/admin-browser")

const ADMIN = { email: "admin@example.com", password: "supersecret" }
const stateDir = path.join(root, ".demo", "production")
const buildDir = path.join(demoDir, ".medusa", "server")
const steps = []
const stops = []
const started = Date.now()

function log(message) {
  process.stderr.write(`[production ${((Date.now() - started) / 1000).toFixed(0)}s] ${message}\n`)
}

async function step(name, fn) {
  const t0 = Date.now()
  try {
    const detail = await fn()
    steps.push({ name, ok: true })
    process.stdout.write(`ok   ${name} (${Date.now() - t0} ms)${detail ? ` — ${detail}` : ""}\n`)
  } catch (error) {
    steps.push({ name, ok: false, error: String(error && error.message) })
    process.stdout.write(`FAIL ${name}: ${String(error && error.message)}\n`)
    throw error
  }
}

/** The TLS-terminating proxy a production store sits behind, minus the TLS. */
async function startForwardedProtoProxy(targetPort) {
  const agent = new http.Agent({ keepAlive: true })
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: targetPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-proto": "https" },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode || 502, answer.headers)
        answer.pipe(res)
      }
    )
    upstream.on("error", () => res.destroy())
    req.pipe(upstream)
  })
  const port = await freePort()
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve))
  stops.push(() => new Promise((resolve) => server.close(() => resolve())))
  return port
}

async function main() {
  fs.mkdirSync(stateDir, { recursive: true })
  await step("medusa build of the demo store with the plugin", async () => {
    if (!(process.argv.includes("--no-build") && fs.existsSync(path.join(root, ".medusa/server/src/sandbox/index.js")))) {
      run(medusaBin, ["plugin:build"])
    }
    linkPluginIntoDemo()
    // --reuse-store-build: keep an existing demo/.medusa/server (re-running the later steps only).
    if (!(process.argv.includes("--reuse-store-build") && fs.existsSync(path.join(buildDir, "medusa-config.js")))) {
      // The admin calls the server that serves it ("/"), wherever the proxy exposes it.
      run(medusaBin, ["build"], { cwd: demoDir, env: { ...process.env, NODE_ENV: "production", DEMO_ADMIN_BACKEND_URL: "/" } })
    }
    for (const file of ["medusa-config.js", "public/admin/index.html", "src/scripts/seed.js"]) {
      if (!fs.existsSync(path.join(buildDir, file))) {
        throw new Error(`the build output has no ${file} (${buildDir})`)
      }
    }
    return path.relative(root, buildDir)
  })

  const pg = await startEmbeddedPostgres({ prefix: "medusa-payment-crypto-production-pg" })
  stops.push(() => pg.stop())
  await pg.createDatabase("medusa_production")
  const { startSandbox } = require(path.join(root, ".medusa/server/src/sandbox/index.js"))
  const sandbox = await startSandbox({ port: 0, host: "127.0.0.1" })
  stops.push(() => sandbox.close())
  const shop = sandbox.shops.find((s) => s.whiteLabel) || sandbox.shops[0]
  const storePort = await freePort()
  const proxyPort = await startForwardedProtoProxy(storePort)
  // The public URL is the proxy's; the browser uses "localhost", a secure context for Secure cookies.
  const publicUrl = `http://localhost:${proxyPort}`
  const env = {
    ...demoStoreEnv(process.env, {
      databaseUrl: pg.url("medusa_production"),
      backendUrl: publicUrl,
      sandboxUrl: sandbox.url,
      apiKey: shop.secretKey,
      whiteLabel: shop.whiteLabel,
      seedOutput: path.join(stateDir, "seed.json"),
    }),
    NODE_ENV: "production",
    ADMIN_CORS: publicUrl,
    AUTH_CORS: publicUrl,
    JWT_SECRET: "production-check-jwt-secret",
    COOKIE_SECRET: "production-check-cookie-secret",
    LOG_LEVEL: process.env.LOG_LEVEL || "http", // Medusa's own default, as a deployed store logs
  }
  delete env.REDIS_URL
  delete env.MEDUSA_WORKER_MODE

  await step("migrations, seed and admin user from the build output (NODE_ENV=production)", async () => {
    run(medusaBin, ["db:migrate"], { cwd: buildDir, env })
    run(medusaBin, ["exec", "./src/scripts/seed.js"], { cwd: buildDir, env })
    run(medusaBin, ["user", "-e", ADMIN.email, "-p", ADMIN.password], { cwd: buildDir, env })
  })

  await step("the store starts from .medusa/server with NODE_ENV=production", async () => {
    const store = startMedusa({ cwd: buildDir, env, port: storePort, host: "127.0.0.1", logFile: path.join(stateDir, "medusa.log") })
    stops.push(() => store.stop())
    await store.waitReady(180000)
    const index = await fetch(`${publicUrl}/app`)
    if (!index.ok) {
      throw new Error(`/app answered ${index.status}`)
    }
    return `admin served from the build at ${publicUrl}/app`
  })

  const browser = await launchChromium()
  stops.push(() => browser.close())
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage()
  page.setDefaultTimeout(60000)
  const onFailure = async () => {
    const file = path.join(root, ".test-results", "production-failure.png")
    fs.mkdirSync(path.dirname(file), { recursive: true })
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined)
  }
  try {
    await step("the production admin logs in", () => logInToAdmin(page, `${publicUrl}/app`, ADMIN))
    await step("the production admin loads the Crypto page with the gateway's balances", () => openCryptoPage(page))
  } catch (error) {
    await onFailure()
    throw error
  }
}

async function finish() {
  for (const stop of stops.reverse()) {
    await stop().catch(() => undefined)
  }
  const passed = steps.filter((s) => s.ok).length
  const failed = steps.length - passed
  process.stdout.write(`${writeResults("production", { passed, failed, steps })}\n`)
  return failed
}

// 10 minutes on an idle 2-core machine; PRODUCTION_LIMIT_MINUTES raises it on a busy one.
const LIMIT_MINUTES = Number(process.env.PRODUCTION_LIMIT_MINUTES || 10)
const watchdog = setTimeout(async () => {
  steps.push({ name: `the production check finished within ${LIMIT_MINUTES} minutes`, ok: false })
  process.stdout.write(`FAIL the production check finished within ${LIMIT_MINUTES} minutes\n`)
  await finish()
  process.exit(1)
}, LIMIT_MINUTES * 60 * 1000)

main()
  .catch((error) => {
    if (steps.every((s) => s.ok)) {
      steps.push({ name: "the production check ran to its end", ok: false, error: String(error && error.message) })
      process.stdout.write(`FAIL the production check ran to its end: ${error && error.stack}\n`)
    }
  })
  .then(async () => {
    clearTimeout(watchdog)
    const failed = await finish()
    process.exit(failed > 0 ? 1 : 0)
  })
