#!/usr/bin/env node
// `npm run test:scale`: the demo store on several instances, as docs/production.md describes it:
// an embedded PostgreSQL, the machine's Redis (REDIS_URL, default redis://127.0.0.1:6379; Redis DB
// SCALE_REDIS_DB, default 13, and a key prefix of its own per run), the gateway sandbox, TWO server
// processes and ONE worker (workerMode "server" / "worker", Redis event bus, workflow engine, cache
// and locking).
//
//   (a) the same paid callback 10 times, split over both servers, while the storefront completes the
//       cart on both servers → one order, one payment, one capture; no error to the shopper;
//   (b) 200 distinct paid callbacks sent as fast as the servers answer them (50 in flight) → every
//       cart gets exactly one captured order, none lost;
//   (c) 30 paid callbacks, the worker killed with SIGKILL while they are processed, then started
//       again (one worker at a time: the restarted worker takes the work over) → every cart ends with
//       one captured order, and no delivery was processed while no worker ran.
//
// The gateway's deliveries are caught (scripts/lib/store-cluster.js) and replayed byte for byte, so
// each check chooses which server gets which copy. One line per check, then "N passed, N failed";
// exit 1 on any failure. Results also go to .test-results/scale.json. Bounded to 10 minutes.
// `--no-build` skips `medusa plugin:build` (when .medusa/server is current).
const fs = require("fs")
const path = require("path")
const { root, tail, writeResults } = require("./lib/processes")
const {
  prepareStore,
  postJson,
  sandboxControl,
  makeCarts,
  pool,
  cartOutcomes,
  poll,
  percentile,
  redisTarget,
  redisClient,
  cleanRedis,
} = require("./lib/store-cluster")

// 10 minutes on an idle 2-core machine; SCALE_LIMIT_MINUTES raises it on a machine shared with other work.
const LIMIT_MS = Number(process.env.SCALE_LIMIT_MINUTES || 10) * 60 * 1000
const GATEWAY_TIMEOUT_MS = 10000 // the gateway gives up on a delivery after 10 s (src/sandbox/README.md)
const started = Date.now()
const stateDir = path.join(root, ".demo", "scale")
const checks = []

function log(message) {
  process.stderr.write(`[scale ${((Date.now() - started) / 1000).toFixed(0)}s] ${message}\n`)
}

function check(name, ok, detail) {
  checks.push({ name, ok: Boolean(ok), detail: detail || "" })
  process.stdout.write(`${ok ? "PASS" : "FAIL"} ${name}${detail ? ` — ${detail}` : ""}\n`)
}

/** Replays a caught delivery to a store instance, as the gateway would send it. */
function deliver(instance, delivery) {
  return postJson(`${instance.url}${delivery.path}`, delivery.body, {
    headers: { "content-type": delivery.contentType },
    timeoutMs: GATEWAY_TIMEOUT_MS,
  }).catch((error) => ({ status: 0, body: String(error && error.message), ms: GATEWAY_TIMEOUT_MS }))
}

/** Pays each cart's invoice through the sandbox and answers the signed "completed" callback of each. */
async function payAndCatch(cluster, carts) {
  await pool(carts, 10, (cart) => sandboxControl(cluster, `/invoices/${encodeURIComponent(cart.data.txn_id)}/pay`, {}))
  return pool(carts, 50, (cart) => cluster.catcher.waitFor(cart.data.txn_id, "completed", 60000))
}

function summarize(outcomes) {
  const lost = outcomes.filter((o) => o.orders === 0)
  const duplicated = outcomes.filter((o) => o.orders > 1 || o.payments > 1 || o.captures > 1)
  const uncaptured = outcomes.filter((o) => !o.captured)
  return { lost: lost.length, duplicated: duplicated.length, uncaptured: uncaptured.length, done: lost.length === 0 && uncaptured.length === 0 }
}

async function unprocessedCount(db, txnIds) {
  const { rows } = await db.query(
    "select count(*)::int as n from crypto_callback where txn_id = any($1) and processed_at is null and deleted_at is null",
    [txnIds]
  )
  return rows[0].n
}

async function processedCount(db, txnIds) {
  const { rows } = await db.query(
    "select count(*)::int as n from crypto_callback where txn_id = any($1) and processed_at is not null and deleted_at is null",
    [txnIds]
  )
  return rows[0].n
}

async function scenarioA(cluster, [serverA, serverB], cart) {
  log("(a) paying one invoice; 10 copies of its paid callback over both servers while the shopper completes on both…")
  const [delivery] = await payAndCatch(cluster, [cart])
  const headers = { "x-publishable-api-key": cluster.seeded.publishableKey }
  const complete = (instance) =>
    postJson(`${instance.url}/store/carts/${cart.cart_id}/complete`, {}, { headers, timeoutMs: 60000 }).catch((error) => ({
      status: 0,
      body: String(error && error.message),
    }))
  const sends = []
  for (let i = 0; i < 10; i += 1) {
    sends.push(deliver(i % 2 === 0 ? serverA : serverB, delivery))
    if (i === 2) {
      sends.push(complete(serverA))
    }
    if (i === 6) {
      sends.push(complete(serverB))
    }
  }
  const answers = await Promise.all(sends)
  const completes = [answers[3], answers[8]]
  const callbacks = answers.filter((_, i) => i !== 3 && i !== 8)
  const badCallbacks = callbacks.filter((a) => a.status < 200 || a.status >= 300)
  check(
    `(a) all 10 copies of the paid callback answered 2xx within the gateway's ${GATEWAY_TIMEOUT_MS / 1000} s`,
    badCallbacks.length === 0,
    badCallbacks.length === 0
      ? `answers in ${callbacks.map((a) => a.ms.toFixed(0)).join(", ")} ms`
      : `${badCallbacks.length} failed, e.g. ${badCallbacks[0].status} ${JSON.stringify(badCallbacks[0].body).slice(0, 160)}`
  )
  const badCompletes = completes.filter((a) => a.status !== 200 || a.body.type !== "order")
  check(
    "(a) the shopper's complete on both servers answered the order, no error",
    badCompletes.length === 0,
    badCompletes.map((a) => `${a.status} ${JSON.stringify(a.body).slice(0, 200)}`).join("; ") ||
      `both answered order ${completes[0].body.order && completes[0].body.order.id}`
  )
  const orderIds = new Set(completes.filter((a) => a.status === 200 && a.body.order).map((a) => a.body.order.id))
  const final = await poll(async () => {
    const [outcome] = await cartOutcomes(cluster.db, [cart])
    return { ...outcome, done: outcome.orders >= 1 && outcome.captured }
  }, 60000)
  check("(a) exactly one order for the cart", final.orders === 1 && orderIds.size <= 1, `orders=${final.orders}, distinct order ids answered=${orderIds.size}`)
  check("(a) exactly one payment and one capture", final.payments === 1 && final.captures === 1 && final.captured, `payments=${final.payments}, captures=${final.captures}`)
}

async function scenarioB(cluster, [serverA, serverB], carts) {
  log(`(b) paying ${carts.length} invoices and catching their paid callbacks…`)
  const deliveries = await payAndCatch(cluster, carts)
  log(`(b) sending ${deliveries.length} distinct paid callbacks, 50 in flight, alternating servers…`)
  const sentAt = Date.now()
  const answers = await pool(deliveries, 50, (delivery, i) => deliver(i % 2 === 0 ? serverA : serverB, delivery))
  const answeredIn = Date.now() - sentAt
  const bad = answers.filter((a) => a.status < 200 || a.status >= 300)
  const times = answers.map((a) => a.ms)
  check(
    `(b) all ${deliveries.length} callbacks answered 2xx within the gateway's ${GATEWAY_TIMEOUT_MS / 1000} s`,
    bad.length === 0,
    `${bad.length} failed${bad.length ? ` (e.g. ${bad[0].status} ${JSON.stringify(bad[0].body).slice(0, 160)})` : ""}; ` +
      `answer p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms; all answered in ${(answeredIn / 1000).toFixed(1)} s`
  )
  const final = await poll(async () => summarize(await cartOutcomes(cluster.db, carts)), 180000, 1000)
  const processedIn = (Date.now() - sentAt) / 1000
  check(
    `(b) every one of the ${carts.length} carts has exactly one order (none lost, none duplicated)`,
    final.lost === 0 && final.duplicated === 0,
    `lost=${final.lost}, duplicated=${final.duplicated}; settled ${processedIn.toFixed(1)} s after the first send`
  )
  check(`(b) every order's payment is captured exactly once`, final.uncaptured === 0 && final.duplicated === 0, `uncaptured=${final.uncaptured}`)
  // The retry of (b)'s stragglers by the worker must not need the 3-minute reconciliation job.
}

async function scenarioC(cluster, [serverA, serverB], worker, carts) {
  log(`(c) paying ${carts.length} invoices and catching their paid callbacks…`)
  const deliveries = await payAndCatch(cluster, carts)
  const txnIds = carts.map((c) => c.data.txn_id)
  log(`(c) sending ${deliveries.length} paid callbacks, all at once; SIGKILL to the worker while they are processed…`)
  let answered = 0
  const sending = Promise.all(
    deliveries.map((delivery, i) =>
      deliver(i % 2 === 0 ? serverA : serverB, delivery).then((answer) => {
        answered += 1
        return answer
      })
    )
  )
  // Kill once a third of the deliveries are stored (the servers took them), or after 30 s at most.
  await poll(async () => {
    const { rows } = await cluster.db.query("select count(*)::int as n from crypto_callback where txn_id = any($1)", [txnIds])
    return { done: rows[0].n >= Math.ceil(deliveries.length / 3) }
  }, 30000, 50)
  const unprocessedAtKill = await unprocessedCount(cluster.db, txnIds)
  const processedAtKill = await processedCount(cluster.db, txnIds)
  worker.signal("SIGKILL")
  const killedAt = Date.now()
  log(`(c) worker killed (pid ${worker.child.pid}): ${processedAtKill} processed, ${unprocessedAtKill} stored and waiting, ${answered} answered`)
  // No worker until every delivery is answered, and for at least 20 s: whatever gets processed
  // meanwhile was processed by a server (on a busy machine a server needs seconds per delivery).
  await new Promise((r) => setTimeout(r, 20000))
  const answers = await sending
  const withoutWorkerSeconds = (Date.now() - killedAt) / 1000
  const processedWithoutWorker = (await processedCount(cluster.db, txnIds)) - processedAtKill
  const restarted = await cluster.startInstance("worker-restarted", "worker")
  await restarted.waitReady(180000)
  log(`(c) worker restarted ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`)
  const bad = answers.filter((a) => a.status < 200 || a.status >= 300)
  check(
    `(c) all ${deliveries.length} callbacks answered 2xx while the worker died`,
    bad.length === 0,
    `${bad.length} failed${bad.length ? ` (e.g. ${bad[0].status} ${JSON.stringify(bad[0].body).slice(0, 160)})` : ""}`
  )
  check(
    "(c) deliveries were still waiting for the worker when it was killed",
    unprocessedAtKill > 0,
    `${unprocessedAtKill} stored and unprocessed, ${processedAtKill} processed at the kill`
  )
  check(
    "(c) no delivery was processed while no worker ran (processing belongs to workers)",
    unprocessedAtKill > 0 && processedWithoutWorker === 0,
    unprocessedAtKill > 0
      ? `${processedWithoutWorker} processed in the ${withoutWorkerSeconds.toFixed(1)} s without a worker`
      : "not exercised: nothing was waiting for a worker at the kill"
  )
  const final = await poll(async () => summarize(await cartOutcomes(cluster.db, carts)), 150000, 1000)
  check(
    `(c) after the SIGKILL and a restart, each of the ${carts.length} carts has exactly one captured order`,
    final.done && final.duplicated === 0,
    `lost=${final.lost}, duplicated=${final.duplicated}, uncaptured=${final.uncaptured}; ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`
  )
}

async function main() {
  const redis = redisTarget({ db: process.env.SCALE_REDIS_DB || 13, tag: "mpc-scale" })
  const probe = redisClient(redis.url)
  try {
    await probe.connect()
    await probe.ping()
  } catch (error) {
    check(`Redis answers at ${redis.url}`, false, `${error.message} (set REDIS_URL)`)
    process.stdout.write("0 passed, 1 failed\n")
    return
  } finally {
    probe.disconnect()
  }

  const cluster = await prepareStore({
    stateDir,
    log,
    redis,
    skipBuild: process.argv.includes("--no-build") && fs.existsSync(path.join(root, ".medusa/server/src/sandbox/index.js")),
  })
  const watchdog = setTimeout(async () => {
    check(`the scale test finished within ${LIMIT_MS / 60000} minutes`, false, "stopped by its time limit")
    await finish(cluster, redis)
    process.exit(1)
  }, LIMIT_MS - (Date.now() - started))
  try {
    log("starting two servers and one worker (Redis event bus, workflow engine, cache, locking)…")
    const serverA = await cluster.startInstance("server-a", "server")
    const serverB = await cluster.startInstance("server-b", "server")
    const worker = await cluster.startInstance("worker", "worker")
    await Promise.all([serverA.waitReady(240000), serverB.waitReady(240000), worker.waitReady(240000)])
    log("making 231 carts with a crypto payment session (invoices at the sandbox)…")
    const [cartsA, cartsB] = await Promise.all([
      makeCarts(cluster, serverA, 116, "pp_crypto_crypto", { psys_cid: "BTC" }),
      makeCarts(cluster, serverB, 115, "pp_crypto_crypto", { psys_cid: "BTC" }),
    ])
    const carts = [...cartsA, ...cartsB]
    log(`carts ready`)
    await scenarioA(cluster, [serverA, serverB], carts[0])
    await scenarioB(cluster, [serverA, serverB], carts.slice(1, 201))
    await scenarioC(cluster, [serverA, serverB], worker, carts.slice(201, 231))
    for (const instance of cluster.instances) {
      const errors = tail(instance.logFile, 400)
        .split("\n")
        .filter((line) => /error/i.test(line))
      if (errors.length > 0) {
        log(`${instance.name}: ${errors.length} error line(s) in ${path.relative(root, instance.logFile)}, e.g. ${errors[0].slice(0, 300)}`)
      }
    }
  } catch (error) {
    check("the scale test ran to its end", false, error.stack || error.message)
  } finally {
    clearTimeout(watchdog)
    await finish(cluster, redis)
  }
}

async function finish(cluster, redis) {
  await cluster.stop()
  await cleanRedis(redis).catch((error) => log(`could not clean Redis keys: ${error.message}`))
  const passed = checks.filter((c) => c.ok).length
  const failed = checks.length - passed
  process.stdout.write(`${writeResults("scale", { passed, failed, checks })}\n`)
  return failed
}

main()
  .then(() => process.exit(checks.length > 0 && checks.every((c) => c.ok) ? 0 : 1))
  .catch((error) => {
    process.stdout.write(`FAIL the scale test could not start — ${error.stack || error.message}\n0 passed, 1 failed\n`)
    process.exit(1)
  })
