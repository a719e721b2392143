// The demo store (demo/) on one machine, as `npm run test:scale` and `npm run bench:store` need it:
// an embedded PostgreSQL (scripts/embedded-pg.js), the gateway sandbox behind a timing proxy, a
// callback catcher (the store's public URL as the gateway sees it), and any number of Medusa
// processes of the demo store in server, worker or shared mode. Everything listens on 127.0.0.1.
const fs = require("fs")
const http = require("http")
const path = require("path")
const { startEmbeddedPostgres, THROWAWAY_FLAGS } = require("../embedded-pg")
const { root, demoDir, medusaBin, run, freePort, startMedusa, linkPluginIntoDemo } = require("./processes")
const { demoStoreEnv } = require("./demo-env")

/** Reads a whole request body. */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = []
    req.on("data", (chunk) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })
}

/**
 * A reverse proxy in front of the sandbox's /api/v1 that times every gateway call (from the request
 * reaching it to the answer's last byte), so a benchmark can subtract the gateway's time.
 */
async function startGatewayTimer(targetUrl) {
  const target = new URL(targetUrl)
  const calls = []
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  const server = http.createServer(async (req, res) => {
    const started = process.hrtime.bigint()
    const body = await readBody(req)
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode || 502, answer.headers)
        answer.pipe(res)
        answer.on("end", () => {
          calls.push({ path: req.url.split("?")[0], ms: Number(process.hrtime.bigint() - started) / 1e6, at: Date.now() })
        })
      }
    )
    upstream.on("error", () => {
      res.destroy()
    })
    upstream.end(body)
  })
  const port = await freePort()
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/**
 * The store's public address as the gateway sees it: the sandbox delivers every callback here and
 * this server keeps it (body and content type) and answers 200, so a test can replay the exact signed
 * delivery to the store's instances as often and as fast as it wants.
 */
async function startCallbackCatcher() {
  const byTxn = new Map()
  const waiters = []
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req)
    let fields = {}
    try {
      fields = JSON.parse(body.toString("utf8"))
    } catch {
      // a form body: not what the plugin asks for (?json=true), kept as is
    }
    const delivery = {
      path: req.url,
      contentType: req.headers["content-type"] || "",
      body,
      txnId: typeof fields.txn_id === "string" ? fields.txn_id : null,
      status: typeof fields.status === "string" ? fields.status : null,
    }
    if (delivery.txnId) {
      const list = byTxn.get(delivery.txnId) || []
      list.push(delivery)
      byTxn.set(delivery.txnId, list)
    }
    for (const waiter of waiters.splice(0)) {
      waiter()
    }
    res.writeHead(200, { "content-type": "application/json" })
    res.end('{"received":true}')
  })
  const port = await freePort()
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve))
  const find = (txnId, status) => (byTxn.get(txnId) || []).filter((d) => d.status === status).pop() || null
  return {
    url: `http://127.0.0.1:${port}`,
    find,
    /** The last delivery of `txnId` with `status`, waiting for it up to `timeoutMs`. */
    async waitFor(txnId, status, timeoutMs) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = find(txnId, status)
        if (found) {
          return found
        }
        if (Date.now() > deadline) {
          throw new Error(`no "${status}" callback for ${txnId} within ${timeoutMs / 1000} s`)
        }
        await new Promise((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 250)
        })
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/**
 * Builds the plugin, starts PostgreSQL, the sandbox (behind the gateway timer) and the callback
 * catcher, then migrates and seeds the demo store. Answers what starting instances needs; call
 * `cluster.stop()` at the end (also on failure).
 */
async function prepareStore(opts) {
  const { stateDir, log, seedProviders = [], redis = null } = opts
  fs.mkdirSync(stateDir, { recursive: true })
  const stops = []
  const cluster = {
    instances: [],
    async stop() {
      for (const instance of cluster.instances) {
        await instance.stop().catch(() => undefined)
      }
      for (const stop of stops.reverse()) {
        await stop().catch(() => undefined)
      }
    },
  }
  try {
    if (!opts.skipBuild) {
      log("building the plugin (medusa plugin:build)…")
      run(medusaBin, ["plugin:build"])
    }
    linkPluginIntoDemo()

    log("starting PostgreSQL (embedded)…")
    const pg = await startEmbeddedPostgres({ prefix: "medusa-payment-crypto-cluster-pg", postgresFlags: THROWAWAY_FLAGS })
    stops.push(() => pg.stop())
    await pg.createDatabase("medusa_cluster")
    const databaseUrl = pg.url("medusa_cluster").replace("@localhost:", "@127.0.0.1:")

    log("starting the gateway sandbox, its timer and the callback catcher…")
    const { startSandbox } = require(path.join(root, ".medusa/server/src/sandbox/index.js"))
    const sandbox = await startSandbox({ port: 0, host: "127.0.0.1", internalTransferSeconds: 0 })
    stops.push(() => sandbox.close())
    const shop = sandbox.shops.find((s) => s.whiteLabel) || sandbox.shops[0]
    const gateway = await startGatewayTimer(sandbox.url)
    stops.push(() => gateway.close())
    const catcher = await startCallbackCatcher()
    stops.push(() => catcher.close())

    const baseEnv = {
      ...demoStoreEnv(process.env, {
        databaseUrl,
        backendUrl: catcher.url,
        sandboxUrl: gateway.url,
        apiKey: shop.secretKey,
        whiteLabel: shop.whiteLabel,
        seedOutput: path.join(stateDir, "seed.json"),
      }),
      NODE_ENV: opts.nodeEnv || "development",
      DEMO_SEED_PAYMENT_PROVIDERS: seedProviders.join(","),
      DEMO_TEST_ROUTES: "true",
      DEMO_DISABLE_ADMIN: "true",
      LOG_LEVEL: process.env.LOG_LEVEL || "warn",
    }
    delete baseEnv.REDIS_URL
    delete baseEnv.MEDUSA_WORKER_MODE
    if (redis) {
      baseEnv.REDIS_URL = redis.url
      baseEnv.REDIS_PREFIX = redis.prefix
    }

    log("migrating and seeding the demo store…")
    run(medusaBin, ["db:migrate"], { cwd: demoDir, env: baseEnv })
    run(medusaBin, ["exec", "./src/scripts/seed.ts"], { cwd: demoDir, env: baseEnv })
    const seeded = JSON.parse(fs.readFileSync(baseEnv.DEMO_SEED_OUTPUT, "utf8"))

    const { Client } = require("pg")
    const db = new Client({ connectionString: databaseUrl })
    await db.connect()
    stops.push(() => db.end())

    Object.assign(cluster, {
      pg,
      databaseUrl,
      db,
      sandbox,
      shop,
      gateway,
      catcher,
      seeded,
      baseEnv,
      /**
       * Starts a Medusa process; `mode` is "shared", "server" or "worker"; `cpus` pins it to cores
       * with taskset (startMedusa, scripts/lib/processes.js).
       */
      async startInstance(name, mode, extraEnv = {}, { cpus = null } = {}) {
        const port = await freePort()
        const env = { ...baseEnv, ...extraEnv }
        if (mode !== "shared") {
          env.MEDUSA_WORKER_MODE = mode
        }
        const instance = startMedusa({ name, cwd: demoDir, env, port, host: "127.0.0.1", logFile: path.join(stateDir, `${name}.log`), cpus })
        cluster.instances.push(instance)
        return instance
      },
    })
    return cluster
  } catch (error) {
    await cluster.stop()
    throw error
  }
}

/** POST JSON; answers { status, body, ms }; never throws for an HTTP status, only for transport. */
async function postJson(url, body, { headers = {}, timeoutMs = 30000 } = {}) {
  const started = process.hrtime.bigint()
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const text = await response.text()
  let parsed = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed, ms: Number(process.hrtime.bigint() - started) / 1e6 }
}

/** The sandbox control API (src/sandbox/README.md, "Control API"). */
async function sandboxControl(cluster, route, params = {}) {
  const url = `${cluster.sandbox.url}/_sandbox${route}?api_key=${encodeURIComponent(cluster.shop.secretKey)}`
  const answer = await postJson(url, params)
  if (answer.status < 200 || answer.status >= 300) {
    throw new Error(`sandbox ${route} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  }
  return answer.body
}

/**
 * `count` carts with a payment session of `providerId` (none without it), made inside `instance`
 * (demo/src/api/demo-test), 20 per request so that no request outlives fetch's 5-minute header wait
 * on a loaded machine.
 */
async function makeCarts(cluster, instance, count, providerId, data) {
  const { seeded } = cluster
  const carts = []
  while (carts.length < count) {
    const n = Math.min(20, count - carts.length)
    const answer = await postJson(
      `${instance.url}/demo-test/carts`,
      {
        count: n,
        region_id: seeded.regionId,
        sales_channel_id: seeded.salesChannelId,
        variant_id: seeded.variantId,
        shipping_option_id: seeded.shippingOptionId,
        ...(providerId ? { provider_id: providerId } : {}),
        data,
        concurrency: 4,
      },
      { timeoutMs: 280000 }
    )
    if (answer.status !== 200) {
      throw new Error(`making ${n} carts on ${instance.name} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    }
    carts.push(...answer.body.carts)
  }
  return carts
}

/** Runs `task(item)` over `items` with at most `limit` at once; answers the results in order. */
async function pool(items, limit, task) {
  const results = new Array(items.length)
  let next = 0
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next
      next += 1
      results[index] = await task(items[index], index)
    }
  })
  await Promise.all(lanes)
  return results
}

/**
 * For each cart: its orders, and the payments of its session with their captures, read from the
 * database (the truth a shopper and a merchant see).
 */
async function cartOutcomes(db, carts) {
  const cartIds = carts.map((c) => c.cart_id)
  const sessionIds = carts.map((c) => c.session_id)
  const orders = await db.query(
    "select cart_id, order_id from order_cart where cart_id = any($1) and deleted_at is null",
    [cartIds]
  )
  const payments = await db.query(
    `select p.payment_session_id, p.id, p.captured_at,
            (select count(*) from capture c where c.payment_id = p.id and c.deleted_at is null)::int as captures
       from payment p where p.payment_session_id = any($1) and p.deleted_at is null`,
    [sessionIds]
  )
  return carts.map((cart) => {
    const cartPayments = payments.rows.filter((p) => p.payment_session_id === cart.session_id)
    return {
      cart_id: cart.cart_id,
      orders: orders.rows.filter((o) => o.cart_id === cart.cart_id).length,
      payments: cartPayments.length,
      captures: cartPayments.reduce((sum, p) => sum + p.captures, 0),
      captured: cartPayments.length === 1 && cartPayments[0].captured_at !== null && cartPayments[0].captures === 1,
    }
  })
}

/** Polls `probe` until it answers truthy or `timeoutMs` passes; answers the last value. */
async function poll(probe, timeoutMs, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value.done || Date.now() > deadline) {
      return value
    }
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}

function percentile(values, p) {
  if (values.length === 0) {
    return null
  }
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

function median(values) {
  return percentile(values, 50)
}

/** CPU seconds (user + system) used so far by every process of a process group (Linux /proc). */
function groupCpuSeconds(pgid) {
  const ticksPerSecond = 100 // USER_HZ, 100 on every Linux architecture Node runs on
  let ticks = 0
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) {
      continue
    }
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (Number(fields[2]) === pgid) {
        ticks += Number(fields[11]) + Number(fields[12])
      }
    } catch {
      // the process ended
    }
  }
  return ticks / ticksPerSecond
}

/**
 * A Redis DB and a key prefix of this run's own on the machine's Redis (REDIS_URL, default
 * redis://127.0.0.1:6379; the DB is REDIS_URL's if it names one, else `db`), for prepareStore's
 * `redis` option. BullMQ queue names may not hold ":", hence the dashes.
 */
function redisTarget({ db = 13, tag = "mpc" } = {}) {
  const url = new URL(process.env.REDIS_URL || "redis://127.0.0.1:6379")
  if (url.pathname === "" || url.pathname === "/") {
    url.pathname = `/${db}`
  }
  return { url: url.toString(), prefix: `${tag}-${process.pid}-${Date.now().toString(36)}-` }
}

/** An ioredis client (the one Medusa's Redis modules use), not connected yet. */
function redisClient(url) {
  const Redis = require(require.resolve("ioredis", { paths: [path.dirname(require.resolve("@medusajs/event-bus-redis/package.json"))] }))
  return new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false })
}

/** Throws unless Redis answers PING at `redis.url`. */
async function pingRedis(redis) {
  const client = redisClient(redis.url)
  try {
    await client.connect()
    await client.ping()
  } finally {
    client.disconnect()
  }
}

/** Deletes a run's keys (queues, locks, cache: every key holding `redis.prefix`) from its Redis DB. */
async function cleanRedis(redis) {
  const client = redisClient(redis.url)
  try {
    await client.connect()
    let cursor = "0"
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `*${redis.prefix}*`, "COUNT", 1000)
      cursor = next
      if (keys.length > 0) {
        await client.del(...keys)
      }
    } while (cursor !== "0")
  } finally {
    client.disconnect()
  }
}

module.exports = {
  prepareStore,
  postJson,
  sandboxControl,
  makeCarts,
  pool,
  cartOutcomes,
  poll,
  percentile,
  median,
  groupCpuSeconds,
  redisTarget,
  redisClient,
  pingRedis,
  cleanRedis,
}
