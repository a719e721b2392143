// The processes the scripts start, in one place: a command run to completion, a free port, a server
// (a Medusa app, the example storefront) in its own process group that is waited for until it
// answers and stopped with its whole group, and a bounded wait on a state. Used by `npm run demo`,
// the browser, production, scale and Medusa-versions checks and the store bench.
const { spawn, spawnSync } = require("child_process")
const fs = require("fs")
const net = require("net")
const path = require("path")

const root = path.resolve(__dirname, "..", "..")
const demoDir = path.join(root, "demo")
const medusaBin = path.join(root, "node_modules", ".bin", "medusa")

/**
 * Runs a command to completion (within `timeoutMs` when given); answers its stdout, or throws naming
 * the command, why it failed and its last output lines.
 */
function run(cmd, args, { cwd = root, env = process.env, timeoutMs } = {}) {
  const result = spawnSync(cmd, args, {
    cwd,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
    ...(timeoutMs === undefined ? {} : { timeout: timeoutMs, killSignal: "SIGKILL" }),
  })
  if (result.status !== 0) {
    const why = result.error && result.error.code === "ETIMEDOUT" ? `timed out after ${timeoutMs / 1000} s` : `exit ${result.status}`
    const output = `${result.stdout || ""}\n${result.stderr || ""}`.trim().split("\n").slice(-60).join("\n")
    throw new Error(`${path.basename(cmd)} ${args.join(" ")} failed (${why}) in ${cwd}:\n${output}`)
  }
  return result.stdout
}

/** A free TCP port on `host`: `preferred` when it is free, else (or with 0) one the OS picks. */
function freePort({ preferred = 0, host = "127.0.0.1" } = {}) {
  const listen = (port) =>
    new Promise((resolve, reject) => {
      const server = net.createServer()
      server.once("error", reject)
      server.listen(port, host, () => {
        const { port: bound } = server.address()
        server.close(() => resolve(bound))
      })
    })
  return preferred === 0 ? listen(0) : listen(preferred).catch(() => listen(0))
}

/** The last `lines` lines of a log file ("" when it cannot be read). */
function tail(file, lines) {
  try {
    return fs.readFileSync(file, "utf8").trim().split("\n").slice(-lines).join("\n")
  } catch {
    return ""
  }
}

/** Calls `probe` every `intervalMs` until it answers a truthy value, which it answers; throws after `timeoutMs`. */
async function waitFor(what, probe, timeoutMs = 60000, intervalMs = 500) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) {
      return value
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`)
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/**
 * Starts `command` in a process group of its own (Medusa and Next fork workers: the group is what
 * stops), its output to `logFile`. `stop()` sends the group SIGTERM, then SIGKILL after 5 s.
 */
function startGroup(command, args, { cwd, env, logFile }) {
  const out = fs.openSync(logFile, "w")
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", out, out], detached: true })
  fs.closeSync(out)
  const group = {
    child,
    logFile,
    get exited() {
      return child.exitCode !== null || child.signalCode !== null
    },
    signal(sig) {
      try {
        process.kill(-child.pid, sig)
      } catch {
        // already gone
      }
    },
    async stop() {
      if (group.exited) {
        return
      }
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          group.signal("SIGKILL")
          resolve()
        }, 5000)
        child.once("exit", () => {
          clearTimeout(timer)
          resolve()
        })
        group.signal("SIGTERM")
      })
    },
  }
  return group
}

/**
 * Polls `url` every 500 ms (each request bounded to 10 s) until `ready(response)`, at most
 * `timeoutMs`; throws when the group's process exits first or the time runs out, with the end of its log.
 */
async function waitForAnswer(url, group, { name, timeoutMs, ready = (response) => response.ok }) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (group.exited) {
      throw new Error(`${name} exited (code ${group.child.exitCode}) before it answered ${url} (log: ${group.logFile}):\n${tail(group.logFile, 20)}`)
    }
    try {
      if (ready(await fetch(url, { signal: AbortSignal.timeout(10000) }))) {
        return
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`${name} did not answer ${url} within ${timeoutMs / 1000} s (log: ${group.logFile}):\n${tail(group.logFile, 20)}`)
}

/**
 * `medusa start` of the app in `cwd` (`bin`: its Medusa CLI) on `port`, and on `host` when given.
 * With `cpus` ("0", "1", "0-1") it runs under `taskset -c <cpus>` (util-linux), which execs `medusa
 * start`: the process and everything it forks stay on those cores, and its pid is still the group's.
 * MEDUSA_NODE_ARGS: Node flags for the process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile
 * the server and the worker under the bench's load (Node refuses --cpu-prof in NODE_OPTIONS).
 * `waitReady(timeoutMs)` waits for its /health.
 */
function startMedusa({ name = "the store", bin = medusaBin, cwd, env, port, host = null, logFile, cpus = null }) {
  const nodeArgs = (process.env.MEDUSA_NODE_ARGS || "").split(" ").filter(Boolean)
  const start = nodeArgs.length > 0 ? [process.execPath, ...nodeArgs, bin, "start"] : [bin, "start"]
  const [command, args] = cpus === null ? [start[0], start.slice(1)] : ["taskset", ["-c", String(cpus), ...start]]
  const group = startGroup(command, args, {
    cwd,
    env: { ...env, PORT: String(port), ...(host ? { HOST: host } : {}) },
    logFile,
  })
  const url = `http://${host || "localhost"}:${port}`
  return Object.assign(group, {
    name,
    url,
    port,
    cpus,
    waitReady: (timeoutMs) => waitForAnswer(`${url}/health`, group, { name, timeoutMs }),
  })
}

/**
 * Links this repository into demo/node_modules: the demo app resolves the plugin by its package name,
 * as a merchant's store does after `npm install medusa-payment-crypto`.
 */
function linkPluginIntoDemo() {
  const modules = path.join(demoDir, "node_modules")
  const target = path.join(modules, "medusa-payment-crypto")
  fs.mkdirSync(modules, { recursive: true })
  try {
    fs.lstatSync(target)
  } catch {
    fs.symlinkSync(path.relative(modules, root), target, "dir")
  }
}

/**
 * Writes .test-results/<name>.json, `{ passed, failed, ...details }`, which .ci/run adds to its
 * closing line; answers this check's own closing line "N passed, N failed".
 */
function writeResults(name, { passed, failed, ...details }) {
  fs.mkdirSync(path.join(root, ".test-results"), { recursive: true })
  fs.writeFileSync(path.join(root, ".test-results", `${name}.json`), JSON.stringify({ passed, failed, ...details }, null, 2))
  return `${passed} passed, ${failed} failed`
}

module.exports = {
  root,
  demoDir,
  medusaBin,
  run,
  freePort,
  tail,
  waitFor,
  startGroup,
  waitForAnswer,
  startMedusa,
  linkPluginIntoDemo,
  writeResults,
}
