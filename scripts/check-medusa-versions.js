#!/usr/bin/env node
// The packed plugin in a fresh Medusa store on the OLDEST and the NEWEST Medusa the package declares
// it supports, as a merchant installs it (README "Install"):
//   - oldest: the floor of the `@medusajs/medusa` peer range in package.json (">=2.17.2 <3" → 2.17.2),
//     so the range and what CI proves cannot drift apart;
//   - newest: what the registry's `latest` tag says at run time (the day a new 2.x ships, CI tries it;
//     a `latest` outside the peer range fails here, telling us to decide the range).
// For each version: a store folder in the OS temp folder (package.json with @medusajs/medusa,
// framework and cli at that exact version plus the plugin's tarball from `npm pack`, and the demo
// store's config, demo/medusa-config.ts, and seed, demo/src/lib/seed-store.ts, compiled to JavaScript;
// the admin disabled through the config's DEMO_DISABLE_ADMIN);
// `npm install` with NO --legacy-peer-deps (a peer conflict fails here); `medusa db:migrate`; the seed
// and an admin user; `medusa start`; one checkout with crypto through the store API (the demo's
// scripted checkout, scripts/demo-checkout.js), paid through the bundled sandbox (started from the
// installed package): first seen unconfirmed, whose signed callback places the order (the default
// `orderOnDetection`), then confirmed, whose callback captures its payment. One counted check per
// version. Then the package's types in that same store (scripts/check-package-types.js), one more
// counted check per version.
// Every wait is bounded; the whole run stops at MEDUSA_VERSIONS_LIMIT_MINUTES (default 25); every
// process it starts is stopped and the temp folders removed (unless --keep).
// Results in .test-results/medusa-versions.json ({ passed, failed, checks }); exit 1 on any failure.
//
//   node scripts/check-medusa-versions.js [--no-build] [--keep] [--versions 2.20.0,latest]
//     --no-build  pack what .medusa/ holds now instead of running `npm run build` first
//     --keep      leave the scratch stores (their paths are printed)
//     --versions  the Medusa versions to try instead of the range's floor and `latest`
const { spawnSync } = require("child_process")
const fs = require("fs")
const os = require("os")
const path = require("path")
const ts = require("typescript")
const { startEmbeddedPostgres, THROWAWAY_FLAGS } = require("./embedded-pg")
const { root, run, freePort, tail, startMedusa, writeResults } = require("./lib/processes")
const { runCheckout } = require("./demo-checkout")
const { demoStoreEnv } = require("./lib/demo-env")
const { checkPackageTypes } = require("./check-package-types")

const npm = process.platform === "win32" ? "npm.cmd" : "npm"
const args = process.argv.slice(2)
const keep = args.includes("--keep")
const limitMs = Number(process.env.MEDUSA_VERSIONS_LIMIT_MINUTES || 25) * 60000
const ADMIN = { email: "admin@example.com", password: "supersecret" }
const MEDUSA_PACKAGES = ["@medusajs/medusa", "@medusajs/framework", "@medusajs/cli"]
const started = Date.now()
const checks = []
const stops = []
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "mpc-medusa-versions-"))

function log(message) {
  process.stderr.write(`[versions ${((Date.now() - started) / 1000).toFixed(0)}s] ${message}\n`)
}

function report(ok, name, detail) {
  checks.push({ name, ok, detail: detail || "" })
  process.stdout.write(`${ok ? "PASS" : "FAIL"} ${name}${detail ? ` (${detail})` : ""}\n`)
}

const npmEnv = { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" }
for (const key of Object.keys(npmEnv)) {
  // settings of an `npm run` that started this script (e.g. legacy-peer-deps) must not reach the store's install
  if (/^npm_config_(legacy_peer_deps|force|strict_peer_deps|prefix|global)$/i.test(key)) {
    delete npmEnv[key]
  }
}

/** The floor of the @medusajs/medusa peer range (">=2.20.0 <3" → "2.20.0"). */
function rangeFloor(range) {
  const match = /^>=\s*(\d+\.\d+\.\d+)\s+<\s*(\d+)/.exec(range)
  if (!match) {
    throw new Error(`the @medusajs/medusa peer range "${range}" is not of the form ">=X.Y.Z <N"`)
  }
  return { floor: match[1], belowMajor: Number(match[2]) }
}

function inRange(version, { floor, belowMajor }) {
  const [a, b] = [version, floor].map((v) => v.split("-")[0].split(".").map(Number))
  const atLeast = a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] >= b[2]
  return atLeast && a[0] < belowMajor
}

function versionsToTry(pkg) {
  const range = rangeFloor(pkg.peerDependencies["@medusajs/medusa"])
  for (const name of ["@medusajs/admin-sdk", "@medusajs/cli", "@medusajs/framework", "@medusajs/test-utils"]) {
    if (pkg.peerDependencies[name] !== pkg.peerDependencies["@medusajs/medusa"]) {
      throw new Error(`the peer range of ${name} (${pkg.peerDependencies[name]}) differs from @medusajs/medusa's`)
    }
  }
  const at = args.indexOf("--versions")
  const wanted = at >= 0 ? args[at + 1].split(",") : [range.floor, "latest"]
  return wanted.map((tag) => {
    const version = /^\d+\.\d+\.\d+/.test(tag)
      ? tag
      : JSON.parse(run(npm, ["view", `@medusajs/medusa@${tag}`, "version", "--json"], { env: npmEnv, timeoutMs: 60000 }))
    return { tag, version, inRange: inRange(version, range) }
  })
}

/**
 * The demo store's config and seed (demo/medusa-config.ts, demo/src/lib/seed-store.ts,
 * demo/src/scripts/seed.ts) as CommonJS: the store under test is configured as the demo store is.
 */
function writeDemoSources(store) {
  for (const [from, to] of [
    ["demo/medusa-config.ts", "medusa-config.js"],
    ["demo/src/lib/seed-store.ts", "src/lib/seed-store.js"],
    ["demo/src/scripts/seed.ts", "src/scripts/seed.js"],
  ]) {
    const source = fs.readFileSync(path.join(root, from), "utf8")
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2021, esModuleInterop: true },
    })
    fs.mkdirSync(path.dirname(path.join(store, to)), { recursive: true })
    fs.writeFileSync(path.join(store, to), outputText)
  }
}

/**
 * Every export of a Medusa package the plugin's compiled server code reads (`utils_1.Name` after
 * `const utils_1 = require("@medusajs/…")`), by module specifier. The admin bundle (src/admin) is
 * left out: it is built against the store's own admin at `medusa build`.
 */
function medusaApisUsed(serverSrc) {
  const used = new Map()
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== "__tests__" && file !== path.join(serverSrc, "admin")) {
          walk(file)
        }
      } else if (entry.name.endsWith(".js")) {
        const text = fs.readFileSync(file, "utf8")
        for (const [, variable, specifier] of text.matchAll(/(?:const|var|let)\s+(\w+)\s*=\s*(?:__importDefault\()?require\("(@medusajs\/[^"]+)"\)/g)) {
          const names = used.get(specifier) || new Set()
          for (const [, name] of text.matchAll(new RegExp(`\\b${variable}\\.(\\w+)`, "g"))) {
            names.add(name)
          }
          used.set(specifier, names)
        }
      }
    }
  }
  walk(serverSrc)
  return used
}

/**
 * Throws naming each export the plugin uses that this store's Medusa lacks. Looked up in a child
 * process in the store's folder: Medusa's packages register their workflows globally when loaded, so
 * two versions cannot be loaded in one process.
 */
function checkMedusaApis(store) {
  const used = medusaApisUsed(path.join(store, "node_modules", "medusa-payment-crypto", ".medusa", "server", "src"))
  const wanted = Object.fromEntries([...used].map(([specifier, names]) => [specifier, [...names]]))
  const lookup = `
    const wanted = JSON.parse(process.argv[1])
    const missing = []
    for (const [specifier, names] of Object.entries(wanted)) {
      let exported
      try {
        exported = require(require.resolve(specifier, { paths: [process.cwd()] }))
      } catch (error) {
        missing.push(specifier + " (" + String(error.message).split("\\n")[0] + ")")
        continue
      }
      for (const name of names) {
        if (name !== "default" && exported[name] === undefined) missing.push(specifier + ": " + name)
      }
    }
    process.stdout.write(JSON.stringify(missing))
  `
  const env = { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true" }
  delete env.NODE_OPTIONS
  const output = run(process.execPath, ["-e", lookup, JSON.stringify(wanted)], { cwd: store, env, timeoutMs: 120000 })
  const missing = JSON.parse(output.trim().split("\n").pop())
  if (missing.length > 0) {
    throw new Error(`this Medusa lacks what the plugin uses: ${missing.join(", ")}`)
  }
  return Object.values(wanted).reduce((sum, names) => sum + names.length, 0)
}

function withTimeout(promise, ms, what) {
  let timer
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms / 1000} s`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}

/** One Medusa version end to end; returns a one-line detail, throws with a clear message. */
async function checkVersion({ version }, tarball, pg, index) {
  const store = path.join(scratch, `medusa-${version}`)
  fs.mkdirSync(store, { recursive: true })
  const dependencies = Object.fromEntries(MEDUSA_PACKAGES.map((name) => [name, version]))
  dependencies["medusa-payment-crypto"] = `file:${tarball}`
  fs.writeFileSync(
    path.join(store, "package.json"),
    JSON.stringify({ name: `store-medusa-${version.replace(/\W/g, "-")}`, version: "0.0.0", private: true, dependencies }, null, 2)
  )
  writeDemoSources(store)

  log(`${version}: npm install (Medusa ${version} and the packed plugin, no --legacy-peer-deps)…`)
  const t0 = Date.now()
  run(npm, ["install", "--no-audit", "--no-fund"], { cwd: store, env: npmEnv, timeoutMs: 600000 })
  const installed = JSON.parse(fs.readFileSync(path.join(store, "node_modules", "@medusajs", "medusa", "package.json"), "utf8")).version
  if (installed !== version) {
    throw new Error(`npm installed @medusajs/medusa ${installed}, not ${version}`)
  }
  const apis = checkMedusaApis(store)
  log(`${version}: installed in ${((Date.now() - t0) / 1000).toFixed(0)} s; the ${apis} Medusa exports the plugin uses are all there`)

  const { startSandbox } = require(path.join(store, "node_modules", "medusa-payment-crypto", ".medusa", "server", "src", "sandbox", "index.js"))
  const sandbox = await startSandbox({ port: 0, host: "127.0.0.1" })
  stops.push(() => sandbox.close())
  const shop = sandbox.shops.find((s) => s.whiteLabel) || sandbox.shops[0]
  const database = `medusa_versions_${index}`
  await pg.createDatabase(database)
  const port = await freePort()
  const backendUrl = `http://127.0.0.1:${port}`
  const env = {
    ...demoStoreEnv(process.env, {
      databaseUrl: pg.url(database),
      backendUrl,
      sandboxUrl: sandbox.url,
      apiKey: shop.secretKey,
      whiteLabel: shop.whiteLabel,
      seedOutput: path.join(store, "seed.json"),
    }),
    // No admin build in a check of the server; the admin extensions are checked by `npm run test:production`.
    DEMO_DISABLE_ADMIN: "true",
    LOG_LEVEL: "info",
  }
  for (const key of ["REDIS_URL", "MEDUSA_WORKER_MODE", "NODE_OPTIONS"]) {
    delete env[key]
  }
  const medusa = path.join(store, "node_modules", ".bin", "medusa")
  log(`${version}: medusa db:migrate…`)
  const migrated = run(medusa, ["db:migrate"], { cwd: store, env, timeoutMs: 300000 })
  if (!/crypto/i.test(migrated)) {
    throw new Error(`medusa db:migrate did not mention the plugin's module:\n${migrated.trim().split("\n").slice(-15).join("\n")}`)
  }
  log(`${version}: seed and admin user…`)
  run(medusa, ["exec", "./src/scripts/seed.js"], { cwd: store, env, timeoutMs: 180000 })
  run(medusa, ["user", "-e", ADMIN.email, "-p", ADMIN.password], { cwd: store, env, timeoutMs: 120000 })
  const seeded = JSON.parse(fs.readFileSync(env.DEMO_SEED_OUTPUT, "utf8"))

  log(`${version}: medusa start on ${backendUrl} (log ${path.join(store, "medusa.log")})…`)
  const running = startMedusa({ bin: medusa, cwd: store, env, port, host: "127.0.0.1", logFile: path.join(store, "medusa.log") })
  stops.push(() => running.stop())
  try {
    await running.waitReady(180000)
    const result = await withTimeout(
      runCheckout({
        backendUrl,
        publishableKey: seeded.publishableKey,
        regionId: seeded.regionId,
        variantId: seeded.variantId,
        shippingOptionId: seeded.shippingOptionId,
        sandbox: { control: sandbox.control, apiKey: shop.secretKey },
        admin: ADMIN,
        log: (line) => log(`${version}: ${line}`),
        // The plugin's default path: the order placed when the payment is seen, captured when confirmed.
        detectionFirst: true,
      }),
      180000,
      "the checkout"
    )
    if (result.payment_status !== "captured") {
      throw new Error(`order ${result.order_id} is "${result.payment_status}", not "captured":\n${tail(running.logFile, 15)}`)
    }
    return { store, detail: `order #${result.display_id} ${result.total} ${result.currency_code.toUpperCase()} captured, invoice ${result.txn_id}` }
  } finally {
    await running.stop()
    await sandbox.close()
  }
}

async function stopAll() {
  for (const stop of stops.splice(0).reverse()) {
    try {
      await stop()
    } catch (error) {
      log(`cleanup: ${error.message}`)
    }
  }
}

function finish(code) {
  if (keep) {
    process.stdout.write(`scratch stores kept: ${scratch}\n`)
  } else {
    // rm -rf is several times faster than fs.rmSync on two stores' node_modules
    const removed = spawnSync("rm", ["-rf", scratch], { timeout: 300000 })
    if (removed.status !== 0) {
      fs.rmSync(scratch, { recursive: true, force: true })
    }
  }
  const failed = checks.filter((c) => !c.ok).length
  const closing = writeResults("medusa-versions", { passed: checks.length - failed, failed, checks })
  process.stdout.write(`${closing} (${((Date.now() - started) / 60000).toFixed(1)} min)\n`)
  process.exit(code !== 0 || failed > 0 || checks.length === 0 ? 1 : 0)
}

async function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))
  const versions = versionsToTry(pkg)
  log(`Medusa versions: ${versions.map((v) => `${v.version} (${v.tag})`).join(", ")}; peer range ${pkg.peerDependencies["@medusajs/medusa"]}`)

  if (!args.includes("--no-build")) {
    log("npm run build…")
    run(npm, ["run", "build"], { timeoutMs: 600000 })
  }
  // The build above is what prepack runs; --ignore-scripts keeps npm pack from building twice.
  const packed = JSON.parse(run(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", scratch], { env: npmEnv, timeoutMs: 300000 }))
  const tarball = path.join(scratch, packed[0].filename)
  log(`packed ${packed[0].filename} (${packed[0].entryCount} files)`)

  const pg = await startEmbeddedPostgres({ prefix: "medusa-payment-crypto-versions-pg", postgresFlags: THROWAWAY_FLAGS })
  stops.push(() => pg.stop())

  for (const [index, entry] of versions.entries()) {
    const name = `Medusa ${entry.version} (${entry.tag}): install the packed plugin, migrate, one crypto checkout through the sandbox: order placed on detection, captured on confirmation`
    let store = null
    if (!entry.inRange) {
      report(false, name, `${entry.version} is outside the peer range ${pkg.peerDependencies["@medusajs/medusa"]}: decide the range (docs/releasing.md)`)
      continue
    }
    try {
      const outcome = await checkVersion(entry, tarball, pg, index)
      store = outcome.store
      report(true, name, outcome.detail)
    } catch (error) {
      report(false, name, error.message)
      store = path.join(scratch, `medusa-${entry.version}`)
    }
    const typesName = `Medusa ${entry.version}: the package's types in a TypeScript program (gateway, sandbox, workflows, provider options, events)`
    if (fs.existsSync(path.join(store, "node_modules", "medusa-payment-crypto"))) {
      try {
        report(true, typesName, checkPackageTypes(store))
      } catch (error) {
        report(false, typesName, error.message)
      }
    } else {
      report(false, typesName, "the plugin is not installed in the store")
    }
  }
}

const watchdog = setTimeout(async () => {
  report(false, `the whole check within ${limitMs / 60000} minutes`, "stopped")
  await stopAll()
  finish(1)
}, limitMs)

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    clearTimeout(watchdog)
    await stopAll()
    finish(1)
  })
}

main()
  .then(async () => {
    clearTimeout(watchdog)
    await stopAll()
    finish(0)
  })
  .catch(async (error) => {
    clearTimeout(watchdog)
    report(false, "medusa versions check", error.stack || error.message)
    await stopAll()
    finish(1)
  })
