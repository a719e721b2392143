#!/usr/bin/env node
// `npm run bench:store`: the crypto plugin's paths side by side with Medusa's own, in ONE demo store
// (pp_system_default and pp_crypto_crypto enabled on the same region), the gateway sandbox as the
// gateway, Medusa's defaults (one shared instance, local event bus, in-memory workflow engine and
// locking), all on 127.0.0.1. The machine may be noisy: compare the ratios of one run, not figures
// across runs.
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
//
// Prints a markdown table (ratios and raw figures) and writes .test-results/bench-store.{json,md}.
// Bounded to 10 minutes (BENCH_LIMIT_MINUTES): at the limit it prints the rows it has. Sizes (env):
// BENCH_ROUNDS (3), BENCH_BLOCK (200 deliveries per block), BENCH_BURST (100), BENCH_SAMPLES (15);
// carts are made in the store beforehand (about 1,000 with the defaults), which takes minutes on a
// busy machine: lower the sizes there and say so. `--no-build` skips `medusa plugin:build`.
const fs = require("fs")
const os = require("os")
const path = require("path")
const {
  root,
  prepareStore,
  postJson,
  sandboxControl,
  makeCarts,
  pool,
  cartOutcomes,
  poll,
  percentile,
  median,
} = require("./lib/store-cluster")

const ROUNDS = Number(process.env.BENCH_ROUNDS || 3)
const SAMPLES = Number(process.env.BENCH_SAMPLES || 15)
const BURST = Number(process.env.BENCH_BURST || 100)
const RATE = 200 // deliveries per second
const BLOCK = Number(process.env.BENCH_BLOCK || 200) // deliveries per block (1 s at 200/s)
const LIMIT_MS = Number(process.env.BENCH_LIMIT_MINUTES || 10) * 60 * 1000
const TIMEOUT_MS = 10000
const started = Date.now()
const stateDir = path.join(root, ".demo", "bench")

function log(message) {
  process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s] ${message}\n`)
}

/** CPU seconds used so far by every process of a process group (Linux /proc). */
function groupCpuSeconds(pgid) {
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
  return ticks / 100
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

function fmt(n, digits = 1) {
  return n === null || n === undefined || Number.isNaN(n) ? "—" : Number(n).toFixed(digits)
}

function table(r) {
  const w = r.webhook
  const p = r.paid_path
  const rows = ["| What | Medusa's own path | This plugin | Ratio (plugin / Medusa) | Goal |", "|---|---|---|---|---|"]
  if (w) {
    rows.push(
      `| Webhook answer at ${RATE} deliveries/s, p99 (median of ${ROUNDS} blocks of ${BLOCK}) | built-in \`/hooks/payment/…\`: ${fmt(w.builtin.p99_ms)} ms, ${w.builtin.errors} errors | distinct paid callbacks: ${fmt(w.distinct.p99_ms)} ms, ${w.distinct.errors} errors (timeouts at ${TIMEOUT_MS / 1000} s); re-sent duplicates: ${fmt(w.duplicates.p99_ms)} ms, ${w.duplicates.errors} errors | ${fmt(w.distinct.p99_ms / w.builtin.p99_ms, 2)}× (duplicates ${fmt(w.duplicates.p99_ms / w.builtin.p99_ms, 2)}×) | ≤ 20 ms, 0 errors, ≤ 2× |`
    )
  }
  if (p) {
    rows.push(
      `| Paid callback → order placed and captured (median of ${SAMPLES}) | \`processPaymentWorkflow(captured)\` alone: ${fmt(p.medusa.median_ms)} ms, CPU ${fmt(p.medusa.median_cpu_s * 1000, 0)} ms | ${fmt(p.ours.median_ms)} ms, CPU ${fmt(p.ours.median_cpu_s * 1000, 0)} ms | ${fmt(p.ours.median_ms / p.medusa.median_ms, 2)}× (CPU ${fmt(p.ours.median_cpu_s / p.medusa.median_cpu_s, 2)}×) | ≤ 1.15× |`
    )
  }
  for (const b of r.bursts || []) {
    rows.push(
      `| ${BURST} paid callbacks, orders/s, ${b.in_flight === BURST ? `all ${BURST} at once` : `${b.in_flight} in flight`} | store complete route: ${fmt(b.complete.orders_per_s, 2)} orders/s (${b.complete.orders} orders in ${fmt(b.complete.seconds)} s) | ${fmt(b.callbacks.orders_per_s, 2)} orders/s (${b.callbacks.orders} in ${fmt(b.callbacks.seconds)} s; lost ${b.callbacks.lost} after 90 s, duplicated ${b.callbacks.duplicated}, ${b.callbacks.errors} errors) | ${fmt(b.callbacks.orders_per_s / b.complete.orders_per_s, 2)}× | ≥ 0.9×, 0 lost, 0 duplicated |`
    )
  }
  const i = r.initiate
  if (!i) {
    return rows.join("\n")
  }
  rows.push(
    `| \`initiatePayment\` (session route), time beyond its gateway calls, low load (median of ${SAMPLES}) | pp_system_default session: ${fmt(i.medusa.median_ms)} ms in all | +${fmt(i.ours.median_beyond_ms)} ms beyond ${fmt(i.ours.median_gateway_ms)} ms at the gateway (${fmt(i.ours.median_ms)} ms in all); ${i.ours.gateway_calls_per_session} gateway call(s) per session | ${fmt(i.ours.median_ms / i.medusa.median_ms, 2)}× in all | ≤ 10 ms beyond, 1 call |`
  )
  return rows.join("\n")
}

function report(result, load) {
  load.end = os.loadavg()
  const markdown = [
    `Measured ${result.when} on ${load.cpus} cores (load average ${load.start.map((l) => l.toFixed(1)).join(", ")} at the start, ${load.end.map((l) => l.toFixed(1)).join(", ")} at the end); one shared Medusa instance with Medusa's defaults; sizes: ${ROUNDS} rounds of ${BLOCK} deliveries, bursts of ${BURST}, ${SAMPLES} samples.${result.incomplete ? ` INCOMPLETE: ${result.incomplete}` : ""}`,
    "",
    table(result),
    "",
  ].join("\n")
  fs.mkdirSync(path.join(root, ".test-results"), { recursive: true })
  fs.writeFileSync(path.join(root, ".test-results", "bench-store.json"), JSON.stringify({ ...result, machine: load }, null, 2))
  fs.writeFileSync(path.join(root, ".test-results", "bench-store.md"), markdown)
  process.stdout.write(`${markdown}\nraw figures: .test-results/bench-store.json\n`)
}

async function main() {
  const load = { start: os.loadavg(), cpus: os.cpus().length }
  const result = { when: new Date().toISOString(), rounds: ROUNDS, block: BLOCK, burst: BURST, samples: SAMPLES, bursts: [] }
  let cluster = null
  const watchdog = setTimeout(async () => {
    result.incomplete = `stopped by the ${LIMIT_MS / 60000}-minute limit`
    report(result, load)
    if (cluster) {
      await cluster.stop()
    }
    process.exit(1)
  }, LIMIT_MS)
  cluster = await prepareStore({
    stateDir,
    log,
    seedProviders: ["pp_system_default"],
    skipBuild: process.argv.includes("--no-build") && fs.existsSync(path.join(root, ".medusa/server/src/sandbox/index.js")),
  })
  try {
    const store = await cluster.startInstance("store", "shared")
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
    clearTimeout(watchdog)
    report(result, load)
  } finally {
    clearTimeout(watchdog)
    await cluster.stop()
  }
}

main().catch((error) => {
  process.stderr.write(`bench:store failed: ${error.stack || error.message}\n`)
  process.exit(1)
})
