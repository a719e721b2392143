#!/usr/bin/env node
// `npm run bench:store`: the crypto plugin's paths side by side with Medusa's own in the demo store
// (pp_system_default and pp_crypto_crypto enabled on the same region), the gateway sandbox as the
// gateway, all on 127.0.0.1, in one or both of two topologies (BENCH_MODE):
//
//   shared         ONE shared Medusa instance with Medusa's defaults (local event bus, in-memory
//                  workflow engine and locking): measurements 1–4 below.
//   server-worker  TWO processes on the machine's Redis (REDIS_URL, default redis://127.0.0.1:6379;
//                  Redis DB BENCH_REDIS_DB, default 14, and a key prefix of this run's own, deleted at
//                  the end): Medusa's Redis event bus, Redis workflow engine, Redis cache and Redis
//                  locking, as `npm run test:scale` runs them; one `MEDUSA_WORKER_MODE=server`, pinned
//                  with `taskset -c 0`, and one `worker`, pinned with `taskset -c 1` (unpinned, and
//                  said so, without taskset or with fewer than 2 cores): measurement 5 below.
//   both           shared, then server-worker, on the same database.
// The default is server-worker: with the default sizes `both` does not fit in the 10 minutes on a
// 2-core machine (it makes about 1,600 carts); run BENCH_MODE=both with lower sizes.
//
// The load generator (this process), PostgreSQL, Redis and the sandbox are NOT pinned: on a 2-core
// machine they share the cores with the server and the worker. The machine may be noisy: compare the
// ratios of one run, not figures across runs.
//
//   1. Webhook answer p99 at 200 deliveries/s (open loop: a delivery every 5 ms whatever the answers;
//      10 s timeout per delivery, as the gateway's): Medusa's built-in /hooks/payment/system_default
//      vs our /hooks/crypto/crypto with distinct paid callbacks (each a real cart) and with one paid
//      callback re-sent. Blocks of each kind interleaved, ROUNDS times; medians of the block p99s.
//   2. Paid callback → order placed and captured (send, then poll the database every 5 ms) vs Medusa's
//      processPaymentWorkflow(captured) alone on a pp_system_default session (demo-test route that
//      awaits it); one at a time, interleaved; medians; CPU of the store's processes per operation.
//   3. Burst of 100 paid callbacks: orders per second until every cart has its captured order, vs the
//      store complete route (POST /store/carts/:id/complete) on 100 equivalent pp_system_default carts;
//      10 in flight, and all 100 at once. Carts still without an order after 90 s count as lost.
//   4. initiatePayment (POST /store/payment-collections/:id/payment-sessions, what a storefront calls):
//      time beyond its gateway calls (timed by a proxy in front of the sandbox), and gateway calls per
//      session, vs the same route for pp_system_default; one at a time, interleaved, medians.
//   5. (server-worker) What the SERVER does per delivery at 200 deliveries/s, open loop as in 1: answer
//      p50/p99 and the server's CPU per answer (CPU seconds of the server's process group, from /proc,
//      over the block, divided by the deliveries), each round: Medusa's built-in route; one paid
//      callback re-sent (the worker idle); distinct paid callbacks (each a real cart); the same paid
//      callback re-sent right after, while the worker still processes the distinct ones (under load);
//      then the worker drains (up to 120 s; its orders/s and CPU per order are recorded). An untimed
//      warm-up first; the re-sent callback is one cart's of its own. Medians over the rounds; errors
//      (non-2xx and timeouts) summed.
//
// Prints a markdown table (raw figures, ratios, the goal and whether it was met) and writes
// .test-results/bench-store.{json,md}. The goals are benchmarks, not assertions: the exit code only
// says whether the bench ran. Bounded to 10 minutes (BENCH_LIMIT_MINUTES): at the limit it prints the
// rows it has. Sizes (env): BENCH_ROUNDS (3), BENCH_BLOCK (200 deliveries per block), BENCH_BURST
// (100), BENCH_SAMPLES (15); carts are made in the store beforehand (about 1,000 for shared, ROUNDS ×
// BLOCK + 1 = 601 for server-worker with the defaults), which takes minutes on a busy machine: lower the sizes
// there and say so. `--no-build` skips `medusa plugin:build`.
const { spawnSync } = require("child_process")
const fs = require("fs")
const os = require("os")
const path = require("path")
const { root } = require("./lib/processes")
const {
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
  pingRedis,
  cleanRedis,
} = require("./lib/store-cluster")

const ROUNDS = Number(process.env.BENCH_ROUNDS || 3)
const SAMPLES = Number(process.env.BENCH_SAMPLES || 15)
const BURST = Number(process.env.BENCH_BURST || 100)
const RATE = 200 // deliveries per second
const BLOCK = Number(process.env.BENCH_BLOCK || 200) // deliveries per block (1 s at 200/s)
const LIMIT_MS = Number(process.env.BENCH_LIMIT_MINUTES || 10) * 60 * 1000
const TIMEOUT_MS = 10000
// The default: server-worker. `both` makes about 1,600 carts with the default sizes, which does not fit
// in the 10 minutes on a 2-core machine (about 0.7 s per cart there while other work ran).
const MODE = process.env.BENCH_MODE || "server-worker"
const MODES = { shared: ["shared"], "server-worker": ["server-worker"], both: ["shared", "server-worker"] }
const DRAIN_MS = 120000 // server-worker: how long the worker may take to place a round's orders
const started = Date.now()
let stopping = false
const stateDir = path.join(root, ".demo", "bench")

function log(message) {
  process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s] ${message}\n`)
}

function deliver(instance, delivery) {
  return postJson(`${instance.url}${delivery.path}`, delivery.body, {
    headers: { "content-type": delivery.contentType },
    timeoutMs: TIMEOUT_MS,
  }).catch(() => ({ status: 0, ms: TIMEOUT_MS }))
}

/** Sends `count` requests made by `make(i)` at `RATE` per second, whatever the answers (open loop). */
async function openLoop(count, make) {
  const interval = 1000 / RATE
  const t0 = Date.now()
  const pending = []
  for (let i = 0; i < count; i += 1) {
    const due = t0 + i * interval
    const wait = due - Date.now()
    if (wait > 0) {
      await new Promise((r) => setTimeout(r, wait))
    }
    pending.push(make(i))
  }
  const answers = await Promise.all(pending)
  const times = answers.map((a) => a.ms)
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    errors: answers.filter((a) => a.status < 200 || a.status >= 300).length,
    timeouts: answers.filter((a) => a.status === 0).length,
    sent: count,
    sendSeconds: (Date.now() - t0) / 1000,
  }
}

async function payAndCatch(cluster, carts) {
  await pool(carts, 10, (cart) => sandboxControl(cluster, `/invoices/${encodeURIComponent(cart.data.txn_id)}/pay`, {}))
  return pool(carts, 50, (cart) => cluster.catcher.waitFor(cart.data.txn_id, "completed", 120000))
}

async function settle(cluster, carts, timeoutMs) {
  return poll(async () => {
    const outcomes = await cartOutcomes(cluster.db, carts)
    const done = outcomes.filter((o) => o.orders >= 1 && o.captured).length
    return {
      done: done === carts.length,
      placed: done,
      duplicated: outcomes.filter((o) => o.orders > 1 || o.payments > 1 || o.captures > 1).length,
    }
  }, timeoutMs, 200)
}

async function benchWebhookAnswers(cluster, store, cryptoCarts) {
  const builtin = []
  const distinct = []
  const duplicates = []
  let duplicate = null
  for (let round = 0; round < ROUNDS; round += 1) {
    const carts = cryptoCarts.slice(round * BLOCK, (round + 1) * BLOCK)
    const deliveries = await payAndCatch(cluster, carts)
    duplicate = duplicate || deliveries[0]
    log(`1. round ${round + 1}/${ROUNDS}: built-in webhook route`)
    builtin.push(
      await openLoop(BLOCK, (i) =>
        postJson(`${store.url}/hooks/payment/system_default`, { id: `evt_bench_${round}_${i}`, type: "bench" }, { timeoutMs: TIMEOUT_MS }).catch(() => ({ status: 0, ms: TIMEOUT_MS }))
      )
    )
    log(`1. round ${round + 1}/${ROUNDS}: ${BLOCK} distinct paid callbacks`)
    distinct.push(await openLoop(BLOCK, (i) => deliver(store, deliveries[i])))
    const drained = await settle(cluster, carts, 90000)
    log(`1. round ${round + 1}/${ROUNDS}: ${drained.placed}/${carts.length} orders placed and captured after the block`)
    distinct[distinct.length - 1].placedAfterDrain = drained.placed
    log(`1. round ${round + 1}/${ROUNDS}: one paid callback re-sent ${BLOCK} times`)
    duplicates.push(await openLoop(BLOCK, () => deliver(store, duplicate)))
    await new Promise((r) => setTimeout(r, 2000))
  }
  const med = (blocks, key) => median(blocks.map((b) => b[key]))
  return {
    builtin: { p99_ms: med(builtin, "p99"), p50_ms: med(builtin, "p50"), errors: builtin.reduce((s, b) => s + b.errors, 0), blocks: builtin },
    distinct: { p99_ms: med(distinct, "p99"), p50_ms: med(distinct, "p50"), errors: distinct.reduce((s, b) => s + b.errors, 0), blocks: distinct },
    duplicates: { p99_ms: med(duplicates, "p99"), p50_ms: med(duplicates, "p50"), errors: duplicates.reduce((s, b) => s + b.errors, 0), blocks: duplicates },
  }
}

async function benchPaidPath(cluster, store, cryptoCarts, systemCarts) {
  const deliveries = await payAndCatch(cluster, cryptoCarts)
  const ours = []
  const medusa = []
  const pgid = store.child.pid
  for (let i = 0; i < cryptoCarts.length; i += 1) {
    let cpu = groupCpuSeconds(pgid)
    let t0 = process.hrtime.bigint()
    const answer = await postJson(`${store.url}/demo-test/process-payment`, { session_id: systemCarts[i].session_id, amount: systemCarts[i].amount }, { timeoutMs: 60000 })
    if (answer.status !== 200) {
      throw new Error(`processPaymentWorkflow answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    }
    medusa.push({ ms: Number(process.hrtime.bigint() - t0) / 1e6, cpu: groupCpuSeconds(pgid) - cpu })

    cpu = groupCpuSeconds(pgid)
    t0 = process.hrtime.bigint()
    await deliver(store, deliveries[i])
    const done = await poll(async () => {
      const [outcome] = await cartOutcomes(cluster.db, [cryptoCarts[i]])
      return { done: outcome.orders === 1 && outcome.captured }
    }, 60000, 5)
    if (!done.done) {
      throw new Error(`cart ${cryptoCarts[i].cart_id} got no captured order within 60 s of its paid callback`)
    }
    ours.push({ ms: Number(process.hrtime.bigint() - t0) / 1e6, cpu: groupCpuSeconds(pgid) - cpu })
  }
  return {
    medusa: { median_ms: median(medusa.map((s) => s.ms)), median_cpu_s: median(medusa.map((s) => s.cpu)), samples: medusa },
    ours: { median_ms: median(ours.map((s) => s.ms)), median_cpu_s: median(ours.map((s) => s.cpu)), samples: ours },
  }
}

async function benchBurst(cluster, store, cryptoCarts, systemCarts, inFlight) {
  const deliveries = await payAndCatch(cluster, cryptoCarts)
  const headers = { "x-publishable-api-key": cluster.seeded.publishableKey }
  // Medusa's store complete route on equivalent carts
  let t0 = Date.now()
  const completes = await pool(systemCarts, inFlight, (cart) =>
    postJson(`${store.url}/store/carts/${cart.cart_id}/complete`, {}, { headers, timeoutMs: 120000 }).catch(() => ({ status: 0 }))
  )
  const completeSeconds = (Date.now() - t0) / 1000
  const completeOrders = completes.filter((a) => a.status === 200 && a.body && a.body.type === "order").length
  // the same number of paid callbacks
  t0 = Date.now()
  const answers = await pool(deliveries, inFlight, (delivery) => deliver(store, delivery))
  const settled = await settle(cluster, cryptoCarts, 90000)
  const callbackSeconds = (Date.now() - t0) / 1000
  return {
    in_flight: inFlight,
    complete: { orders: completeOrders, seconds: completeSeconds, orders_per_s: completeOrders / completeSeconds },
    callbacks: {
      orders: settled.placed,
      lost: cryptoCarts.length - settled.placed,
      duplicated: settled.duplicated,
      errors: answers.filter((a) => a.status < 200 || a.status >= 300).length,
      seconds: callbackSeconds,
      orders_per_s: settled.placed / callbackSeconds,
    },
  }
}

async function benchInitiate(cluster, store, cryptoCarts, systemCarts) {
  const headers = { "x-publishable-api-key": cluster.seeded.publishableKey }
  const ours = []
  const medusa = []
  for (let i = 0; i < cryptoCarts.length; i += 1) {
    let t0 = process.hrtime.bigint()
    let answer = await postJson(`${store.url}/store/payment-collections/${systemCarts[i].payment_collection_id}/payment-sessions`, { provider_id: "pp_system_default" }, { headers })
    if (answer.status !== 200) {
      throw new Error(`pp_system_default session answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    }
    medusa.push({ ms: Number(process.hrtime.bigint() - t0) / 1e6 })

    const before = cluster.gateway.calls.length
    t0 = process.hrtime.bigint()
    answer = await postJson(
      `${store.url}/store/payment-collections/${cryptoCarts[i].payment_collection_id}/payment-sessions`,
      { provider_id: "pp_crypto_crypto", data: { psys_cid: "BTC" } },
      { headers }
    )
    const total = Number(process.hrtime.bigint() - t0) / 1e6
    if (answer.status !== 200) {
      throw new Error(`pp_crypto_crypto session answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    }
    const calls = cluster.gateway.calls.slice(before)
    const gatewayMs = calls.reduce((s, c) => s + c.ms, 0)
    ours.push({ ms: total, gateway_ms: gatewayMs, beyond_ms: total - gatewayMs, gateway_calls: calls.length, paths: calls.map((c) => c.path) })
  }
  return {
    medusa: { median_ms: median(medusa.map((s) => s.ms)) },
    ours: {
      median_ms: median(ours.map((s) => s.ms)),
      median_gateway_ms: median(ours.map((s) => s.gateway_ms)),
      median_beyond_ms: median(ours.map((s) => s.beyond_ms)),
      gateway_calls_per_session: median(ours.map((s) => s.gateway_calls)),
      samples: ours,
    },
  }
}

/** `command -v taskset` (util-linux): whether Medusa's processes can be pinned to cores. */
function hasTaskset() {
  return spawnSync("sh", ["-c", "command -v taskset"], { stdio: "ignore" }).status === 0
}

/** Deliveries of `txnIds` stored by the callback route and not processed yet. */
async function unprocessedCount(db, txnIds) {
  const { rows } = await db.query(
    "select count(*)::int as n from crypto_callback where txn_id = any($1) and processed_at is null and deleted_at is null",
    [txnIds]
  )
  return rows[0].n
}

/** An open-loop block at RATE to `server`, with the CPU the server's process group used for it. */
async function serverBlock(server, count, make) {
  const cpu = groupCpuSeconds(server.child.pid)
  const block = await openLoop(count, make)
  block.server_cpu_s = groupCpuSeconds(server.child.pid) - cpu
  block.cpu_ms_per_answer = (block.server_cpu_s * 1000) / count
  return block
}

/**
 * `cryptoCarts`: ROUNDS × BLOCK carts for the distinct callbacks, and one more whose paid callback is
 * the one re-sent.
 */
async function benchServerWorker(cluster, server, worker, cryptoCarts, publish) {
  const builtin = []
  const distinct = []
  const duplicatesIdle = []
  const duplicatesLoaded = []
  const drains = []
  const dupCart = cryptoCarts[ROUNDS * BLOCK]
  const [duplicate] = await payAndCatch(cluster, [dupCart])
  // Warm-up, untimed: the first answers of each route pay for loading and compiling its code; the
  // re-sent callback's first copy is processed by the worker before the first timed block.
  log(`5. server-worker: warm-up (50 built-in deliveries, the paid callback sent 50 times)`)
  await openLoop(50, (i) => postJson(`${server.url}/hooks/payment/system_default`, { id: `evt_bench_warm_${i}`, type: "bench" }, { timeoutMs: TIMEOUT_MS }).catch(() => ({ status: 0, ms: TIMEOUT_MS })))
  await openLoop(50, () => deliver(server, duplicate))
  await settle(cluster, [dupCart], 60000)
  const summary = (blocks) => ({
    p50_ms: median(blocks.map((b) => b.p50)),
    p99_ms: median(blocks.map((b) => b.p99)),
    cpu_ms_per_answer: median(blocks.map((b) => b.cpu_ms_per_answer)),
    errors: blocks.reduce((sum, b) => sum + b.errors, 0),
    timeouts: blocks.reduce((sum, b) => sum + b.timeouts, 0),
    sent: blocks.reduce((sum, b) => sum + b.sent, 0),
    blocks,
  })
  // The summary of the rounds done so far, so that the time limit reports them.
  const summarize = () => ({
    pinned: { server: server.cpus, worker: worker.cpus },
    rounds_done: drains.length,
    builtin: summary(builtin.slice(0, drains.length)),
    distinct: summary(distinct.slice(0, drains.length)),
    duplicates_idle: summary(duplicatesIdle.slice(0, drains.length)),
    duplicates_loaded: summary(duplicatesLoaded.slice(0, drains.length)),
    drain: {
      placed: drains.reduce((sum, d) => sum + d.placed, 0),
      of: drains.reduce((sum, d) => sum + d.of, 0),
      duplicated: drains.reduce((sum, d) => sum + d.duplicated, 0),
      orders_per_s: median(drains.map((d) => d.orders_per_s)),
      worker_cpu_ms_per_order: median(drains.filter((d) => d.worker_cpu_ms_per_order !== null).map((d) => d.worker_cpu_ms_per_order)),
      rounds: drains,
    },
  })
  for (let round = 0; round < ROUNDS; round += 1) {
    const carts = cryptoCarts.slice(round * BLOCK, (round + 1) * BLOCK)
    const deliveries = await payAndCatch(cluster, carts)
    const tag = `5. server-worker round ${round + 1}/${ROUNDS}`
    log(`${tag}: built-in webhook route`)
    builtin.push(
      await serverBlock(server, BLOCK, (i) =>
        postJson(`${server.url}/hooks/payment/system_default`, { id: `evt_bench_sw_${round}_${i}`, type: "bench" }, { timeoutMs: TIMEOUT_MS }).catch(() => ({
          status: 0,
          ms: TIMEOUT_MS,
        }))
      )
    )
    log(`${tag}: one paid callback re-sent ${BLOCK} times, the worker idle`)
    duplicatesIdle.push(await serverBlock(server, BLOCK, () => deliver(server, duplicate)))
    log(`${tag}: ${BLOCK} distinct paid callbacks`)
    const workerCpu = groupCpuSeconds(worker.child.pid)
    const drainStarted = Date.now()
    distinct.push(await serverBlock(server, BLOCK, (i) => deliver(server, deliveries[i])))
    const backlog = await unprocessedCount(cluster.db, carts.map((c) => c.data.txn_id))
    log(`${tag}: the paid callback re-sent ${BLOCK} times while the worker processes (${backlog} deliveries waiting)`)
    const loaded = await serverBlock(server, BLOCK, () => deliver(server, duplicate))
    loaded.backlog_at_start = backlog
    duplicatesLoaded.push(loaded)
    // Up to DRAIN_MS, and never past the time limit (the report then says how many were placed).
    const drained = await settle(cluster, carts, Math.max(1000, Math.min(DRAIN_MS, LIMIT_MS - (Date.now() - started) - 20000)))
    const drainSeconds = (Date.now() - drainStarted) / 1000
    const drain = {
      placed: drained.placed,
      of: carts.length,
      duplicated: drained.duplicated,
      seconds: drainSeconds,
      orders_per_s: drained.placed / drainSeconds,
      worker_cpu_s: groupCpuSeconds(worker.child.pid) - workerCpu,
    }
    drain.worker_cpu_ms_per_order = drained.placed > 0 ? (drain.worker_cpu_s * 1000) / drained.placed : null
    drains.push(drain)
    log(`${tag}: ${drained.placed}/${carts.length} orders placed and captured ${drainSeconds.toFixed(1)} s after the first distinct callback`)
    publish(summarize())
  }
  return summarize()
}

function fmt(n, digits = 1) {
  return n === null || n === undefined || Number.isNaN(n) ? "—" : Number(n).toFixed(digits)
}

/** "met" / "not met" / "—" (not measured) for a list of conditions. */
function verdict(...conditions) {
  if (conditions.some((c) => c === null || c === undefined || Number.isNaN(c))) {
    return "—"
  }
  return conditions.every(Boolean) ? "met" : "not met"
}

function table(r) {
  const w = r.webhook
  const p = r.paid_path
  const rows = ["| What | Medusa's own path | This plugin | Ratio (plugin / Medusa) | Goal | Met? |", "|---|---|---|---|---|---|"]
  if (w) {
    rows.push(
      `| Shared: webhook answer at ${RATE} deliveries/s, p99 (median of ${ROUNDS} blocks of ${BLOCK}) | built-in \`/hooks/payment/…\`: ${fmt(w.builtin.p99_ms)} ms, ${w.builtin.errors} errors | distinct paid callbacks: ${fmt(w.distinct.p99_ms)} ms, ${w.distinct.errors} errors (timeouts at ${TIMEOUT_MS / 1000} s); re-sent duplicates: ${fmt(w.duplicates.p99_ms)} ms, ${w.duplicates.errors} errors | ${fmt(w.distinct.p99_ms / w.builtin.p99_ms, 2)}× (duplicates ${fmt(w.duplicates.p99_ms / w.builtin.p99_ms, 2)}×) | 0 errors, p99 ≤ 3× built-in's | ${verdict(w.distinct.errors + w.duplicates.errors === 0, Math.max(w.distinct.p99_ms, w.duplicates.p99_ms) / w.builtin.p99_ms <= 3)} |`
    )
  }
  if (p) {
    rows.push(
      `| Shared: paid callback → order placed and captured (median of ${SAMPLES}) | \`processPaymentWorkflow(captured)\` alone: ${fmt(p.medusa.median_ms)} ms, CPU ${fmt(p.medusa.median_cpu_s * 1000, 0)} ms | ${fmt(p.ours.median_ms)} ms, CPU ${fmt(p.ours.median_cpu_s * 1000, 0)} ms | ${fmt(p.ours.median_ms / p.medusa.median_ms, 2)}× (CPU ${fmt(p.ours.median_cpu_s / p.medusa.median_cpu_s, 2)}×) | ≤ 1.1× | ${verdict(p.ours.median_ms / p.medusa.median_ms <= 1.1)} |`
    )
  }
  for (const b of r.bursts || []) {
    rows.push(
      `| Shared: ${BURST} paid callbacks, orders/s, ${b.in_flight === BURST ? `all ${BURST} at once` : `${b.in_flight} in flight`} | store complete route: ${fmt(b.complete.orders_per_s, 2)} orders/s (${b.complete.orders} orders in ${fmt(b.complete.seconds)} s) | ${fmt(b.callbacks.orders_per_s, 2)} orders/s (${b.callbacks.orders} in ${fmt(b.callbacks.seconds)} s; lost ${b.callbacks.lost} after 90 s, duplicated ${b.callbacks.duplicated}, ${b.callbacks.errors} errors) | ${fmt(b.callbacks.orders_per_s / b.complete.orders_per_s, 2)}× | ≥ 0.9×, 0 lost, 0 duplicated | ${verdict(b.callbacks.orders_per_s / b.complete.orders_per_s >= 0.9, b.callbacks.lost === 0, b.callbacks.duplicated === 0)} |`
    )
  }
  const i = r.initiate
  if (i) {
    rows.push(
      `| Shared: \`initiatePayment\` (session route), time beyond its gateway calls, low load (median of ${SAMPLES}) | pp_system_default session: ${fmt(i.medusa.median_ms)} ms in all | +${fmt(i.ours.median_beyond_ms)} ms beyond ${fmt(i.ours.median_gateway_ms)} ms at the gateway (${fmt(i.ours.median_ms)} ms in all); ${i.ours.gateway_calls_per_session} gateway call(s) per session | ${fmt(i.ours.median_ms / i.medusa.median_ms, 2)}× in all | ≤ 10 ms beyond, 1 call | ${verdict(i.ours.median_beyond_ms <= 10, i.ours.gateway_calls_per_session === 1)} |`
    )
  }
  const sw = r.server_worker
  if (sw && sw.rounds_done > 0) {
    const pin = sw.pinned.server === null ? "server and worker unpinned" : `server on core ${sw.pinned.server}, worker on core ${sw.pinned.worker}`
    const head = `Server + worker (${pin}): at ${RATE} deliveries/s, the server's answer (medians of ${sw.rounds_done} blocks of ${BLOCK})`
    const b = sw.builtin
    const builtinCell = `built-in \`/hooks/payment/…\`: p50 ${fmt(b.p50_ms)} ms, p99 ${fmt(b.p99_ms)} ms, CPU ${fmt(b.cpu_ms_per_answer, 2)} ms per answer, ${b.errors} errors`
    const cell = (x) => `p50 ${fmt(x.p50_ms)} ms, p99 ${fmt(x.p99_ms)} ms, CPU ${fmt(x.cpu_ms_per_answer, 2)} ms per answer, ${x.errors} errors (${x.timeouts} timeouts at ${TIMEOUT_MS / 1000} s)`
    const ratio = (x) => `p99 ${fmt(x.p99_ms / b.p99_ms, 2)}×, CPU ${fmt(x.cpu_ms_per_answer / b.cpu_ms_per_answer, 2)}×`
    const d = sw.distinct
    rows.push(
      `| ${head}, distinct paid callbacks (each a real cart) | ${builtinCell} | ${cell(d)}; the worker then placed ${sw.drain.placed}/${sw.drain.of} orders (${fmt(sw.drain.orders_per_s, 2)} orders/s, worker CPU ${fmt(sw.drain.worker_cpu_ms_per_order, 0)} ms per order, ${sw.drain.duplicated} duplicated) | ${ratio(d)} | p99 ≤ 20 ms, 0 errors, CPU per answer ≤ 1.0× built-in | ${verdict(d.p99_ms <= 20, d.errors === 0, d.cpu_ms_per_answer <= b.cpu_ms_per_answer)} |`
    )
    for (const [label, x] of [
      ["one paid callback re-sent, the worker idle", sw.duplicates_idle],
      [`the same paid callback re-sent under load (right after the distinct block, ${fmt(median(sw.duplicates_loaded.blocks.map((blk) => blk.backlog_at_start)), 0)} deliveries waiting for the worker)`, sw.duplicates_loaded],
    ]) {
      rows.push(
        `| ${head}, ${label} | ${builtinCell} | ${cell(x)} | ${ratio(x)}; vs distinct: p50 ${fmt(x.p50_ms / d.p50_ms, 2)}×, p99 ${fmt(x.p99_ms / d.p99_ms, 2)}× | never slower than distinct (p50 and p99 ≤ distinct's) | ${verdict(x.p50_ms <= d.p50_ms, x.p99_ms <= d.p99_ms)} |`
      )
    }
  }
  return rows.join("\n")
}

function report(result, load) {
  load.end = os.loadavg()
  const topologies = []
  if (result.modes.includes("shared")) {
    topologies.push("shared: one Medusa instance with Medusa's defaults")
  }
  if (result.modes.includes("server-worker")) {
    topologies.push(
      `server-worker: one server and one worker on Redis (event bus, workflow engine, cache, locking), ${
        result.pinning ? `pinned with taskset (server core ${result.pinning.server}, worker core ${result.pinning.worker}); the load generator, PostgreSQL, Redis and the sandbox are not pinned and share those cores` : "NOT pinned (no taskset, or fewer than 2 cores)"
      }`
    )
  }
  const markdown = [
    `Measured ${result.when} on ${load.cpus} cores (load average ${load.start.map((l) => l.toFixed(1)).join(", ")} at the start, ${load.end.map((l) => l.toFixed(1)).join(", ")} at the end); BENCH_MODE=${result.mode} (${topologies.join("; ")}); sizes: ${ROUNDS} rounds of ${BLOCK} deliveries, bursts of ${BURST}, ${SAMPLES} samples; ${((Date.now() - started) / 1000).toFixed(0)} s in all.${result.incomplete ? ` INCOMPLETE: ${result.incomplete}` : ""}`,
    "",
    table(result),
    "",
  ].join("\n")
  fs.mkdirSync(path.join(root, ".test-results"), { recursive: true })
  fs.writeFileSync(path.join(root, ".test-results", "bench-store.json"), JSON.stringify({ ...result, machine: load }, null, 2))
  fs.writeFileSync(path.join(root, ".test-results", "bench-store.md"), markdown)
  process.stdout.write(`${markdown}\nraw figures: .test-results/bench-store.json\n`)
}

async function runShared(cluster, result, sharedEnv) {
  const store = await cluster.startInstance("store", "shared", sharedEnv)
  try {
    await store.waitReady(240000)
    log(`making ${SAMPLES * 2 + BURST * 2 + ROUNDS * BLOCK} crypto carts and ${SAMPLES * 2 + BURST * 2} pp_system_default carts…`)
    const cryptoBare = await makeCarts(cluster, store, SAMPLES)
    const systemBare = await makeCarts(cluster, store, SAMPLES)
    const cryptoPaid = await makeCarts(cluster, store, SAMPLES, "pp_crypto_crypto", { psys_cid: "BTC" })
    const systemPaid = await makeCarts(cluster, store, SAMPLES, "pp_system_default")
    log("4. initiatePayment beyond its gateway calls…")
    result.initiate = await benchInitiate(cluster, store, cryptoBare, systemBare)
    log("2. paid callback → captured order vs processPaymentWorkflow…")
    result.paid_path = await benchPaidPath(cluster, store, cryptoPaid, systemPaid)
    for (const inFlight of [10, BURST]) {
      log(`3. bursts of ${BURST}, ${inFlight} in flight: making carts…`)
      const crypto = await makeCarts(cluster, store, BURST, "pp_crypto_crypto", { psys_cid: "BTC" })
      const system = await makeCarts(cluster, store, BURST, "pp_system_default")
      log(`3. bursts of ${BURST}, ${inFlight} in flight…`)
      result.bursts.push(await benchBurst(cluster, store, crypto, system, inFlight))
    }
    log(`1. webhook answers at ${RATE} deliveries/s: making ${ROUNDS * BLOCK} carts…`)
    const webhookCarts = await makeCarts(cluster, store, ROUNDS * BLOCK, "pp_crypto_crypto", { psys_cid: "BTC" })
    result.webhook = await benchWebhookAnswers(cluster, store, webhookCarts)
  } finally {
    await store.stop()
  }
}

async function runServerWorker(cluster, result) {
  const pin = hasTaskset() && os.cpus().length >= 2
  result.pinning = pin ? { server: "0", worker: "1" } : null
  if (!pin) {
    log("server-worker: taskset missing or fewer than 2 cores: the server and the worker run unpinned")
  }
  log(`server-worker: starting one server${pin ? " (taskset -c 0)" : ""} and one worker${pin ? " (taskset -c 1)" : ""} on Redis…`)
  const server = await cluster.startInstance("server", "server", {}, { cpus: pin ? "0" : null })
  const worker = await cluster.startInstance("worker", "worker", {}, { cpus: pin ? "1" : null })
  await Promise.all([server.waitReady(240000), worker.waitReady(240000)])
  log(`5. server-worker: making ${ROUNDS * BLOCK + 1} crypto carts…`)
  const carts = await makeCarts(cluster, server, ROUNDS * BLOCK + 1, "pp_crypto_crypto", { psys_cid: "BTC" })
  result.server_worker = await benchServerWorker(cluster, server, worker, carts, (partial) => {
    result.server_worker = partial
  })
}

async function main() {
  if (!MODES[MODE]) {
    throw new Error(`BENCH_MODE must be one of ${Object.keys(MODES).join(", ")}, not "${MODE}"`)
  }
  const modes = MODES[MODE]
  const load = { start: os.loadavg(), cpus: os.cpus().length }
  const result = { when: new Date().toISOString(), mode: MODE, modes, rounds: ROUNDS, block: BLOCK, burst: BURST, samples: SAMPLES, bursts: [] }
  const redis = modes.includes("server-worker") ? redisTarget({ db: Number(process.env.BENCH_REDIS_DB || 14), tag: "mpc-bench" }) : null
  if (redis) {
    try {
      await pingRedis(redis)
    } catch (error) {
      throw new Error(`server-worker mode needs Redis; none answers at ${redis.url}: ${error.message} (set REDIS_URL, or BENCH_MODE=shared)`)
    }
  }
  let cluster = null
  const finish = async () => {
    if (cluster) {
      await cluster.stop()
    }
    if (redis) {
      await cleanRedis(redis).catch((error) => log(`could not clean Redis keys: ${error.message}`))
    }
  }
  const watchdog = setTimeout(async () => {
    stopping = true
    result.incomplete = `stopped by the ${LIMIT_MS / 60000}-minute limit`
    report(result, load)
    await finish()
    process.exit(1)
  }, LIMIT_MS)
  try {
    // With Redis, the store is migrated and seeded with the Redis modules (as test:scale does); the
    // shared instance then runs without them (REDIS_URL empty: Medusa's defaults).
    cluster = await prepareStore({
      stateDir,
      log,
      redis,
      seedProviders: ["pp_system_default"],
      skipBuild: process.argv.includes("--no-build") && fs.existsSync(path.join(root, ".medusa/server/src/sandbox/index.js")),
    })
    if (modes.includes("shared")) {
      await runShared(cluster, result, redis ? { REDIS_URL: "", REDIS_PREFIX: "" } : {})
    }
    if (modes.includes("server-worker")) {
      await runServerWorker(cluster, result)
    }
    clearTimeout(watchdog)
    report(result, load)
  } finally {
    clearTimeout(watchdog)
    await finish()
  }
}

main().catch((error) => {
  if (stopping) {
    return // the time limit stopped the cluster under a running step; the watchdog reports and exits
  }
  process.stderr.write(`bench:store failed: ${error.stack || error.message}\n`)
  process.exit(1)
})
