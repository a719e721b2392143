import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

import { verifyCallback } from "../../gateway/core/callbacks"
import { CallbackDispatcher, formatForUrl } from "../index"
import { signCallback } from "../../gateway/core/callbacks"

const SECRET = "unit-secret"
const FIELDS = { txn_id: "INV-1", ipn_type: "invoice", status: "completed", amount: "0.1", tx_urls: ["https://x.test/tx/1?a=1&b=2"] }

interface Receiver {
  url: string
  bodies: { contentType: string; body: Buffer }[]
  close: () => Promise<void>
}

/** A fake merchant: answers each POST with the next status of `statuses` (then 200). */
async function receiver(statuses: number[]): Promise<Receiver> {
  const bodies: Receiver["bodies"] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      bodies.push({ contentType: req.headers["content-type"] ?? "", body: Buffer.concat(chunks) })
      res.statusCode = statuses.shift() ?? 200
      res.end("ok")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

let nextId = 0
const dispatcher = (maxAttempts: number): CallbackDispatcher =>
  new CallbackDispatcher((f, o) => signCallback(f, o), { maxAttempts, baseDelayMs: 5, timeoutMs: 2000 }, () => `d${++nextId}`, () => SECRET)

describe("callback dispatcher", () => {
  it("chooses JSON when the URL's query holds json=true, multipart otherwise", () => {
    expect([formatForUrl("http://a.test/h?json=true"), formatForUrl("http://a.test/h?json=false"), formatForUrl("http://a.test/h")]).toEqual([
      "json",
      "multipart",
      "multipart",
    ])
  })

  it("a 2xx answer on the first attempt marks the delivery delivered", async () => {
    const r = await receiver([200])
    const d = dispatcher(3)
    const delivery = d.enqueue({ shopId: "s", event: "invoice", ref: "INV-1", url: r.url, fields: FIELDS })
    await d.idle()
    await r.close()
    expect([delivery.state, delivery.attempts.length, delivery.attempts[0].http_status]).toEqual(["delivered", 1, 200])
  })

  it("a delivery without a 2xx is retried until it gets one", async () => {
    const r = await receiver([500, 503, 200])
    const d = dispatcher(5)
    const delivery = d.enqueue({ shopId: "s", event: "invoice", ref: "INV-1", url: r.url, fields: FIELDS })
    await d.idle()
    await r.close()
    expect(delivery.attempts.map((a) => a.http_status)).toEqual([500, 503, 200])
  })

  it("retries stop after maxAttempts and the delivery is failed", async () => {
    const r = await receiver([500, 500, 500, 500])
    const d = dispatcher(3)
    const delivery = d.enqueue({ shopId: "s", event: "invoice", ref: "INV-1", url: r.url, fields: FIELDS })
    await d.idle()
    await r.close()
    expect([delivery.state, delivery.attempts.length]).toEqual(["failed", 3])
  })

  it("an unreachable receiver is logged as an attempt with an error and no status", async () => {
    const r = await receiver([])
    await r.close()
    const d = dispatcher(1)
    const delivery = d.enqueue({ shopId: "s", event: "invoice", ref: "INV-1", url: r.url, fields: FIELDS })
    await d.idle()
    expect([delivery.attempts[0].http_status, typeof delivery.attempts[0].error]).toEqual([null, "string"])
  })

  it("every attempt records its latency", async () => {
    const r = await receiver([200])
    const d = dispatcher(1)
    const delivery = d.enqueue({ shopId: "s", event: "invoice", ref: "INV-1", url: r.url, fields: FIELDS })
    await d.idle()
    await r.close()
    expect(Number.isInteger(delivery.attempts[0].latency_ms) && delivery.attempts[0].latency_ms >= 0).toBe(true)
  })

  it("a multipart delivery verifies with the shop key", async () => {
    const r = await receiver([200])
    const d = dispatcher(1)
    d.enqueue({ shopId: "s", event: "invoice", ref: "INV-1", url: r.url, fields: FIELDS })
    await d.idle()
    await r.close()
    const verified = verifyCallback({ body: r.bodies[0].body, contentType: r.bodies[0].contentType, secretKey: SECRET })
    expect([verified.format, r.bodies[0].contentType.startsWith("multipart/form-data"), verified.fields.status]).toEqual([
      "form",
      true,
      "completed",
    ])
  })

  it("a JSON delivery verifies with the shop key and keeps tx_urls as an array", async () => {
    const r = await receiver([200])
    const d = dispatcher(1)
    d.enqueue({ shopId: "s", event: "invoice", ref: "INV-1", url: `${r.url}?json=true`, fields: FIELDS })
    await d.idle()
    await r.close()
    const verified = verifyCallback({ body: r.bodies[0].body, contentType: r.bodies[0].contentType, secretKey: SECRET })
    expect([verified.format, verified.fields.tx_urls]).toEqual(["json", FIELDS.tx_urls])
  })

  it("redeliver makes one more attempt of a failed delivery", async () => {
    const r = await receiver([500, 200])
    const d = dispatcher(1)
    const delivery = d.enqueue({ shopId: "s", event: "invoice", ref: "INV-1", url: r.url, fields: FIELDS })
    await d.idle()
    await d.redeliver(delivery.id)
    await r.close()
    expect([delivery.state, delivery.attempts.map((a) => a.http_status)]).toEqual(["delivered", [500, 200]])
  })

  it("a callback the signer refuses is logged as a failed delivery instead of throwing", () => {
    const d = new CallbackDispatcher(
      () => {
        throw new TypeError("cannot carry this field")
      },
      { maxAttempts: 3, baseDelayMs: 5, timeoutMs: 2000 },
      () => "refused",
      () => SECRET
    )
    const delivery = d.enqueue({ shopId: "s", event: "invoice", ref: "INV-1", url: "http://127.0.0.1:9/hook", fields: FIELDS })
    expect([delivery.state, delivery.attempts[0].error]).toEqual(["failed", "signing failed: cannot carry this field"])
  })
})
