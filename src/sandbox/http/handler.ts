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

/** Largest request body read; a larger one is answered 400. */
export const MAX_BODY = 64 * 1024

/** One request as a transport hands it over: no socket, no port. */
export interface SandboxRequest {
  method: string
  /** path and query (`/api/v1/balances?api_key=…`); an absolute URL is accepted, its origin ignored */
  url: string
  /** header names in lower case */
  headers?: Record<string, string>
  body?: Buffer
  /** the caller's address as the Request IP lists hold it (default 127.0.0.1) */
  ip?: string
}

/**
 * What the transport must do with a request. `reply`: send it. `reset`: drop the connection, the
 * request did not take effect. `hang`: the request took effect and no answer comes; drop the
 * connection after `ms` (the "outcome unknown" case, a `timeout` fault).
 */
export type SandboxOutcome =
  | { kind: "reply"; status: number; headers: Record<string, string>; body: Buffer }
  | { kind: "reset" }
  | { kind: "hang"; ms: number }

export interface SandboxHandler {
  handle: (request: SandboxRequest, note?: (text: string) => void) => Promise<SandboxOutcome>
  faults: FaultInjector
}

class BadRequestBody extends Error {}

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
function requestParams(request: SandboxRequest, url: URL): Params {
  const values = new Map<string, string>()
  for (const [key, value] of url.searchParams) {
    if (!values.has(key)) {
      values.set(key, value)
    }
  }
  if (request.method !== "POST" || request.body === undefined) {
    return new Params(values)
  }
  if (request.body.length > MAX_BODY) {
    throw new BadRequestBody("body too large")
  }
  const body = request.body.toString("utf8")
  if (body.trim().length === 0) {
    return new Params(values)
  }
  const type = request.headers?.["content-type"] ?? ""
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

function render(reply: Reply): SandboxOutcome {
  const headers: Record<string, string> = { ...reply.headers }
  let body: Buffer = Buffer.alloc(0)
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
  headers["content-length"] = String(body.length)
  return { kind: "reply", status: reply.status, headers, body }
}

const errorReply = (error: SandboxError): Reply => ({ status: error.httpStatus, json: error.envelope() })

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The sandbox's request handling without a transport (msw's core/node split): /api/v1 (spec §4),
 * /_sandbox (control API), /invoice/:txn_id (hosted page), and the injected faults. Every answer is
 * a success or the spec §7 envelope; an unexpected exception becomes 108, never a stack trace. The
 * HTTP server (`server.ts`) and the in-process transport (`../in-process.ts`) both call it.
 */
export function createSandboxHandler(core: SandboxCore, faults: FaultInjector = new FaultInjector()): SandboxHandler {
  const router = new Router().add(apiRoutes).add(controlRoutes(faults)).add(pageRoutes)

  async function handle(request: SandboxRequest, note: (text: string) => void = () => undefined): Promise<SandboxOutcome> {
    let url: URL
    try {
      url = new URL(request.url, "http://sandbox.invalid")
    } catch {
      return render(errorReply(invalidAttribute("url", "Malformed request URL.")))
    }
    const pathname = url.pathname
    let fault: Fault | undefined
    if (pathname.startsWith(`${API_PREFIX}/`) || pathname === API_PREFIX) {
      fault = faults.take(pathname)
    }
    if (fault !== undefined) {
      note(`fault:${fault.mode}`)
      if (fault.mode === "5xx") {
        return render(errorReply(internalError()))
      }
      if (fault.mode === "reset") {
        return { kind: "reset" }
      }
      if (fault.mode === "latency") {
        await sleep(fault.ms)
      }
    }
    if (pathname === "/" && request.method === "GET") {
      return render({
        status: 200,
        body: Buffer.from(`medusa-payment-crypto gateway sandbox\nAPI: ${API_PREFIX}\nControl: ${CONTROL_PREFIX}\n`),
        contentType: "text/plain; charset=UTF-8",
      })
    }
    let reply: Reply
    try {
      const match = router.match(request.method, pathname)
      if (match === null) {
        throw notFound()
      }
      if (match === "methodMismatch") {
        throw new SandboxError(405, 405, "Method Not Allowed", "Method Not Allowed. This URL can only handle other methods.")
      }
      const ctx: RequestContext = {
        core,
        headers: request.headers ?? {},
        url,
        path: match.path,
        params: requestParams(request, url),
        ip: request.ip ?? "127.0.0.1",
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
        note(`unexpected ${e instanceof Error ? redactSecrets(`${e.name}: ${e.message}`).slice(0, 200) : "error"}`)
        reply = errorReply(internalError())
      }
    }
    if (fault?.mode === "timeout") {
      return { kind: "hang", ms: fault.ms }
    }
    if (fault?.mode === "malformed") {
      const body = Buffer.from('{"status":"success","data":{"txn_id":')
      return {
        kind: "reply",
        status: 200,
        headers: { "content-type": "application/json; charset=UTF-8", "content-length": String(body.length) },
        body,
      }
    }
    return render(reply)
  }

  return {
    faults,
    handle: async (request, note) => {
      try {
        return await handle(request, note)
      } catch {
        return render(errorReply(internalError()))
      }
    },
  }
}

/** The request URL for logs: every api_key value replaced (the key is a secret, spec §5). */
export function redactSecrets(rawUrl: string): string {
  return rawUrl.replace(/([?&]api_key=)[^&#]*/gi, "$1[redacted]")
}
