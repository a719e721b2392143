import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

import { GatewayClient } from "../../src/gateway"
import type { RunningSandbox, SandboxControl, SandboxShop } from "../../src/sandbox"

export interface ReceivedCallback {
  path: string
  contentType: string
  body: Buffer
}

export interface Receiver {
  url: string
  received: ReceivedCallback[]
  /** answer the next `n` posts with this status instead of 200 */
  failNext: (n: number, status?: number) => void
  close: () => Promise<void>
}

/** A merchant's callback endpoint: a real node:http server on a free port. */
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedCallback[] = []
  let failures: number[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      received.push({ path: req.url ?? "/", contentType: req.headers["content-type"] ?? "", body: Buffer.concat(chunks) })
      res.statusCode = failures.shift() ?? 200
      res.end("ok")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext: (n, status = 500) => {
      failures = Array.from({ length: n }, () => status)
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

export function shopOf(sandbox: RunningSandbox, kind: "white-label" | "plain" | "locked"): SandboxShop {
  const found =
    kind === "locked"
      ? sandbox.shops.find((s) => s.id.includes("locked"))
      : sandbox.shops.find((s) => s.whiteLabel === (kind === "white-label") && !s.id.includes("locked"))
  if (found === undefined) {
    throw new Error(`no ${kind} shop in the seed`)
  }
  return found
}

export function clientFor(sandbox: RunningSandbox, shop: SandboxShop): GatewayClient {
  return new GatewayClient({ apiKey: shop.secretKey, baseUrl: sandbox.url, maxRetries: 0, timeoutMs: 5000 })
}

export interface RawAnswer {
  status: number
  text: string
  json: unknown
  headers: Headers
}

/** A request the client would refuse to send (missing attributes, other spellings). */
export async function raw(sandbox: RunningSandbox, path: string, query: Record<string, string>, init: RequestInit = {}): Promise<RawAnswer> {
  const response = await fetch(`${sandbox.url}${path}?${new URLSearchParams(query).toString()}`, { redirect: "manual", ...init })
  const text = await response.text()
  let json: unknown = null
  try {
    json = text.length > 0 ? JSON.parse(text) : null
  } catch {
    json = null
  }
  return { status: response.status, text, json, headers: response.headers }
}

/** The typed control client acting as `shop` (src/sandbox/README.md, "Control API"). */
export function controlOf(sandbox: RunningSandbox, shop: SandboxShop): SandboxControl {
  return sandbox.control.as(shop.secretKey)
}

/**
 * A control-API request the typed client cannot send (a missing attribute): for tests of the control
 * API's own validation only. Every other control call goes through `controlOf`.
 */
export async function rawControl(sandbox: RunningSandbox, shop: SandboxShop, path: string, body: Record<string, unknown>): Promise<RawAnswer> {
  return raw(sandbox, `/_sandbox${path}`, { api_key: shop.secretKey }, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  })
}

/** The `data` of a success envelope, or a failure naming the answer. */
export function dataOf<T>(answer: RawAnswer): T {
  const body = answer.json as { status?: string; data?: T } | null
  if (body?.status !== "success" || body.data === undefined) {
    throw new Error(`expected success, got HTTP ${answer.status}: ${answer.text.slice(0, 300)}`)
  }
  return body.data
}
