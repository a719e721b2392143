// The example storefront (examples/storefront, Next.js) for `npm run demo`: installed, built and
// started beside the demo store. It consumes the storefront kit exactly as a merchant's storefront
// would: the plugin is built and packed with `npm pack` into a tarball, and that tarball is installed
// into the example like any registry package (no symlink into this repository, so the kit's `react`
// import resolves to the example's own React 19, never to the repository's React 18 that the admin
// uses; the plugin's Medusa peers are optional, so none is installed into the example).
const fs = require("fs")
const path = require("path")
const { root, run, startGroup, waitForAnswer } = require("./lib/processes")

const exampleDir = path.join(root, "examples", "storefront")

function npmBin() {
  return process.platform === "win32" ? "npm.cmd" : "npm"
}

/** The newest modification time under `dir` (files only), skipping build output and dependencies. */
function newestMtime(dir) {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", ".next", ".kit", "package-lock.json", "next-env.d.ts"].includes(entry.name) || entry.name.endsWith(".tsbuildinfo")) continue
    const full = path.join(dir, entry.name)
    const time = entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs
    newest = Math.max(newest, time)
  }
  return newest
}

/**
 * Builds the kit and packs the plugin (`npm pack`: the tarball a registry would serve) into
 * examples/storefront/.kit/medusa-payment-crypto.tgz, which the example's package.json names.
 */
function packKit(log) {
  log("building the storefront kit (npm run build:storefront) and packing the plugin…")
  run(npmBin(), ["run", "--silent", "build:storefront"], { cwd: root })
  const destination = path.join(exampleDir, ".kit")
  fs.rmSync(destination, { recursive: true, force: true })
  fs.mkdirSync(destination, { recursive: true })
  const output = run(npmBin(), ["pack", "--silent", "--pack-destination", destination], { cwd: root })
  const packed = path.join(destination, output.trim().split("\n").pop())
  const tarball = path.join(destination, "medusa-payment-crypto.tgz")
  fs.renameSync(packed, tarball)
  return tarball
}

/**
 * Installs the example's dependencies with the freshly packed plugin (npm keeps an installed
 * `file:` tarball even when its content changed, so that one package is removed first), and runs
 * `next build` when a source or the kit changed since the last build.
 */
function prepareStorefront({ log }) {
  packKit(log)
  fs.rmSync(path.join(exampleDir, "node_modules", "medusa-payment-crypto"), { recursive: true, force: true })
  forgetLockedKit()
  log("installing the example storefront's dependencies and the packed plugin (examples/storefront)…")
  run(npmBin(), ["install", "--no-audit", "--no-fund"], { cwd: exampleDir })
  const buildId = path.join(exampleDir, ".next", "BUILD_ID")
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0
  const kitChanged = !fs.existsSync(buildId) || !sameKitAsBuilt(exampleDir)
  if (!kitChanged && builtAt > newestMtime(exampleDir) && process.env.DEMO_STOREFRONT_REBUILD !== "1") {
    log("the example storefront's build is up to date")
    return
  }
  log("building the example storefront (next build; a few minutes the first time)…")
  run(path.join(exampleDir, "node_modules", ".bin", "next"), ["build"], { cwd: exampleDir, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } })
  fs.writeFileSync(path.join(exampleDir, ".next", "kit.sha256"), kitHash(exampleDir))
}

/**
 * npm reinstalls a `file:` tarball from its cache when the example's lockfile (not committed) pins
 * the integrity of an earlier pack: the lock's entry of the plugin goes, so the new pack is installed.
 */
function forgetLockedKit() {
  const lockFile = path.join(exampleDir, "package-lock.json")
  if (!fs.existsSync(lockFile)) return
  const lock = JSON.parse(fs.readFileSync(lockFile, "utf8"))
  if (lock.packages === undefined || lock.packages["node_modules/medusa-payment-crypto"] === undefined) return
  delete lock.packages["node_modules/medusa-payment-crypto"]
  fs.writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`)
}

/** A hash of the kit as installed in the example (the tarball's own bytes carry timestamps). */
function kitHash(dir) {
  const kit = path.join(dir, "node_modules", "medusa-payment-crypto", ".medusa", "storefront")
  return require("crypto").createHash("sha256").update(listKitFiles(kit)).digest("hex")
}

/** The kit's built files and their contents, in a stable order (the tarball's own bytes carry timestamps). */
function listKitFiles(dir) {
  if (!fs.existsSync(dir)) return ""
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((entry) => (entry.isDirectory() ? listKitFiles(path.join(dir, entry.name)) : `${entry.name}\n${fs.readFileSync(path.join(dir, entry.name), "utf8")}`))
    .join("\n")
}

function sameKitAsBuilt(dir) {
  const file = path.join(dir, ".next", "kit.sha256")
  return fs.existsSync(file) && fs.readFileSync(file, "utf8") === kitHash(dir)
}

/** `next start` on `port`, reading the store's URL and publishable key at run time. */
async function startStorefront({ stateDir, port, url, backendUrl, publishableKey, log, cleanups }) {
  const logFile = path.join(stateDir, "storefront.log")
  log(`starting the example storefront on ${url} (log: ${path.relative(root, logFile)})…`)
  const next = startGroup(path.join(exampleDir, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "localhost"], {
    cwd: exampleDir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      MEDUSA_BACKEND_URL: backendUrl,
      MEDUSA_PUBLISHABLE_KEY: publishableKey,
      STOREFRONT_URL: url,
    },
    logFile,
  })
  cleanups.push(() => next.stop())
  await waitForAnswer(url, next, { name: "the storefront", timeoutMs: 120000, ready: (response) => response.status < 500 })
  return { url }
}

module.exports = { prepareStorefront, startStorefront }
