import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { performance } from "node:perf_hooks"

import { isLosslessNumber, parse as parseLossless } from "lossless-json"

import { CONTROL_PREFIX, controlRoutes } from "../control/control-routes"
import { EmptyResponse, SandboxError, internalError, invalidAttribute, notFound } from "../core/errors"
import type { SandboxCore } from "../core/sandbox-core"
import { API_PREFIX, apiRoutes } from "./api-routes"
import { FaultInjector, type Fault } from "./faults"
import { pageRoutes } from "./invoice-page"
import { Params } from "./params"
import { Router, type Reply, type RequestContext } from "./router"
import { toJson, type JsonValue } from "./views"

const MAX_BODY = 64 * 1024

export interface SandboxServerOptions {
  core: SandboxCore
  faults?: FaultInjector
  /** one line per request; api_key values never reach it */
  log?: (line: string) => void
}

/** The request URL for logs: every api_key value replaced (the key is a secret, spec §5). */
export function redactUrl(rawUrl: string): string {
  return rawUrl.replace(/([?&]api_key=)[^&#]*/gi, "$1[redacted]")
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, so an IPv4 allow-list entry matches a dual-stack socket. */
export function normalizeIp(address: string | undefined): string {
  if (address === undefined) {
    return ""
  }
  return address.startsWith("::ffff:") ? address.slice(7) : address
}

class BadRequestBody extends Error {}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) {
        reject(new BadRequestBody("body too large"))
        req.resume()
        return
      }
      chunks.push(chunk)
    })
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })
}

function flatten(value: unknown): string | null {
  if (typeof value === "string") {
    return value
  }
  if (isLosslessNumber(value)) {
    return value.toString()
  }
  if (typeof value === "boolean") {
    return value ? "true" : "false"
  }
  return null
}

/** Query parameters, with a POST body (JSON, numbers read losslessly, or a form) merged over them. */
async function requestParams(req: IncomingMessage, url: URL): Promise<Params> {
  const values = new Map<string, string>()
  for (const [key, value] of url.searchParams) {
    if (!values.has(key)) {
      values.set(key, value)
    }
  }
  if (req.method !== "POST") {
    return new Params(values)
  }
  const body = (await readBody(req)).toString("utf8")
  if (body.trim().length === 0) {
    return new Params(values)
  }
  const type = req.headers["content-type"] ?? ""
  if (type.includes("application/x-www-form-urlencoded")) {
    for (const [key, value] of new URLSearchParams(body)) {
      values.set(key, value)
    }
    return new Params(values)
  }
  let parsed: unknown
  try {
    parsed = parseLossless(body)
  } catch {
    throw new BadRequestBody("malformed JSON")
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new BadRequestBody("the body must be a JSON object")
  }
  for (const [key, value] of Object.entries(parsed)) {
    const flat = flatten(value)
    if (flat !== null) {
      values.set(key, flat)
    }
  }
  return new Params(values)
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers }
  let body: Buffer | undefined
  if (reply.json !== undefined) {
    body = Buffer.from(toJson(reply.json as JsonValue))
    headers["content-type"] = "application/json; charset=UTF-8"
  } else if (reply.html !== undefined) {
    body = Buffer.from(reply.html)
    headers["content-type"] = "text/html; charset=UTF-8"
  } else if (reply.body !== undefined) {
    body = reply.body
    headers["content-type"] = reply.contentType ?? "application/octet-stream"
  }
  headers["content-length"] = String(body?.length ?? 0)
  res.writeHead(reply.status, headers)
  res.end(body)
}

const errorReply = (error: SandboxError): Reply => ({ status: error.httpStatus, json: error.envelope() })

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The HTTP transport: /api/v1 (spec §4), /_sandbox (control API), /invoice/:txn_id (hosted page).
 * Every answer is a success or the spec §7 envelope; an unexpected exception becomes 108, never a
 * stack trace.
 */
export function createSandboxServer(options: SandboxServerOptions): { server: Server; faults: FaultInjector; destroyHeld: () => void } {
  const core = options.core
  const faults = options.faults ?? new FaultInjector()
  const log = options.log ?? (() => undefined)
  const router = new Router().add(apiRoutes).add(controlRoutes(faults)).add(pageRoutes)
  const held = new Set<Socket>()

  async function handle(req: IncomingMessage, res: ServerResponse, note: (text: string) => void): Promise<void> {
    let url: URL
    try {
      url = new URL(req.url ?? "/", "http://sandbox.invalid")
    } catch {
      send(res, errorReply(invalidAttribute("url", "Malformed request URL.")))
      return
    }
    const pathname = url.pathname
    let fault: Fault | undefined
    if (pathname.startsWith(`${API_PREFIX}/`) || pathname === API_PREFIX) {
      fault = faults.take(pathname)
    }
    if (fault !== undefined) {
      note(`fault:${fault.mode}`)
      if (fault.mode === "5xx") {
        send(res, errorReply(internalError()))
        return
      }
      if (fault.mode === "reset") {
        req.socket.destroy()
        return
      }
      if (fault.mode === "latency") {
        await sleep(fault.ms)
      }
    }
    if (pathname === "/" && req.method === "GET") {
      send(res, {
        status: 200,
        body: Buffer.from(`medusa-payment-crypto gateway sandbox\nAPI: ${API_PREFIX}\nControl: ${CONTROL_PREFIX}\n`),
        contentType: "text/plain; charset=UTF-8",
      })
      return
    }
    let reply: Reply
    try {
      const match = router.match(req.method ?? "GET", pathname)
      if (match === null) {
        throw notFound()
      }
      if (match === "methodMismatch") {
        throw new SandboxError(405, 405, "Method Not Allowed", "Method Not Allowed. This URL can only handle other methods.")
      }
      const ctx: RequestContext = {
        core,
        req,
        url,
        path: match.path,
        params: await requestParams(req, url),
        ip: normalizeIp(req.socket.remoteAddress),
      }
      core.tick()
      reply = await match.route.handler(ctx)
    } catch (e) {
      if (e instanceof SandboxError) {
        reply = errorReply(e)
      } else if (e instanceof EmptyResponse) {
        reply = { status: e.httpStatus }
      } else if (e instanceof BadRequestBody) {
        reply = errorReply(new SandboxError(400, 400, "Bad Request", e.message))
      } else {
        note(`unexpected ${e instanceof Error ? redactUrl(`${e.name}: ${e.message}`).slice(0, 200) : "error"}`)
        reply = errorReply(internalError())
      }
    }
    if (fault?.mode === "timeout") {
      // The request took effect; its answer never comes (the "outcome unknown" case).
      held.add(req.socket)
      const timer = setTimeout(() => req.socket.destroy(), fault.ms)
      timer.unref()
      req.socket.once("close", () => {
        clearTimeout(timer)
        held.delete(req.socket)
      })
      return
    }
    if (fault?.mode === "malformed") {
      const body = Buffer.from('{"status":"success","data":{"txn_id":')
      res.writeHead(200, { "content-type": "application/json; charset=UTF-8", "content-length": String(body.length) })
      res.end(body)
      return
    }
    send(res, reply)
  }

  const server = createServer((req, res) => {
    const started = performance.now()
    const notes: string[] = []
    const line = (status: string): string =>
      `${req.method ?? "?"} ${redactUrl(req.url ?? "/")} → ${status} ${Math.round(performance.now() - started)}ms${notes.length > 0 ? ` [${notes.join(", ")}]` : ""}`
    res.on("close", () => log(line(res.writableFinished ? String(res.statusCode) : "no answer")))
    handle(req, res, (text) => notes.push(text)).catch(() => {
      if (!res.headersSent) {
        send(res, errorReply(internalError()))
      }
    })
  })
  return {
    server,
    faults,
    destroyHeld: () => {
      for (const socket of held) {
        socket.destroy()
      }
      held.clear()
    },
  }
}
