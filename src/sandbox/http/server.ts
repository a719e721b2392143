import { createServer, type IncomingMessage, type Server } from "node:http"
import type { Socket } from "node:net"
import { performance } from "node:perf_hooks"

import type { SandboxCore } from "../core/sandbox-core"
import type { FaultInjector } from "./faults"
import { MAX_BODY, createSandboxHandler, redactSecrets, type SandboxOutcome } from "./handler"

export interface SandboxServerOptions {
  core: SandboxCore
  faults?: FaultInjector
  /** one line per request; api_key values never reach it */
  log?: (line: string) => void
}

/** The request URL for logs: every api_key value replaced (the key is a secret, spec §5). */
export const redactUrl = redactSecrets

/** `::ffff:127.0.0.1` → `127.0.0.1`, so an IPv4 allow-list entry matches a dual-stack socket. */
export function normalizeIp(address: string | undefined): string {
  if (address === undefined) {
    return ""
  }
  return address.startsWith("::ffff:") ? address.slice(7) : address
}

/** The body, cut one byte past the limit (the handler answers 400 for a longer one). */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      if (size > MAX_BODY) {
        return
      }
      size += chunk.length
      chunks.push(chunk)
    })
    req.on("end", () => resolve(Buffer.concat(chunks).subarray(0, MAX_BODY + 1)))
    req.on("error", reject)
  })
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) {
      headers[name] = Array.isArray(value) ? value.join(", ") : value
    }
  }
  return headers
}

/**
 * The HTTP transport over the transport-free handler (`handler.ts`): reads the request, writes the
 * answer, and plays the connection-level faults (`reset` destroys the socket, `timeout` holds it).
 */
export function createSandboxServer(options: SandboxServerOptions): { server: Server; faults: FaultInjector; destroyHeld: () => void } {
  const handler = createSandboxHandler(options.core, options.faults)
  const log = options.log ?? (() => undefined)
  const held = new Set<Socket>()

  async function serve(req: IncomingMessage, note: (text: string) => void): Promise<SandboxOutcome> {
    const body = req.method === "POST" ? await readBody(req) : undefined
    return handler.handle(
      { method: req.method ?? "GET", url: req.url ?? "/", headers: headersOf(req), body, ip: normalizeIp(req.socket.remoteAddress) },
      note
    )
  }

  const server = createServer((req, res) => {
    const started = performance.now()
    const notes: string[] = []
    const line = (status: string): string =>
      `${req.method ?? "?"} ${redactUrl(req.url ?? "/")} → ${status} ${Math.round(performance.now() - started)}ms${notes.length > 0 ? ` [${notes.join(", ")}]` : ""}`
    res.on("close", () => log(line(res.writableFinished ? String(res.statusCode) : "no answer")))
    serve(req, (text) => notes.push(text))
      .then((outcome) => {
        if (outcome.kind === "reset") {
          req.socket.destroy()
          return
        }
        if (outcome.kind === "hang") {
          held.add(req.socket)
          const timer = setTimeout(() => req.socket.destroy(), outcome.ms)
          timer.unref()
          req.socket.once("close", () => {
            clearTimeout(timer)
            held.delete(req.socket)
          })
          return
        }
        res.writeHead(outcome.status, outcome.headers)
        res.end(outcome.body)
      })
      .catch(() => req.socket.destroy())
  })
  return {
    server,
    faults: handler.faults,
    destroyHeld: () => {
      for (const socket of held) {
        socket.destroy()
      }
      held.clear()
    },
  }
}
