/**
 * A real HTTP server on port 0 that plays the gateway for unit tests: each path has a queue of
 * scripted replies (the last one repeats), and every request is recorded.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"
import { GatewayClient, type GatewayClientOptions } from "../.."

export interface RecordedRequest {
  method: string
  /** Raw path as received (still percent-encoded). */
  path: string
  query: URLSearchParams
  /** Raw query string as received. */
  rawQuery: string
}

export type Reply =
  | { status: number; body?: string; contentType?: string }
  /** Accept the request and never answer (for timeouts). */
  | { hang: true }
  /** Destroy the socket without answering (connection reset). */
  | { reset: true }

/** `{"status":"success","data":<dataJson>}` with `dataJson` inserted verbatim (numbers keep their text). */
export function success(dataJson: string, status = 200): Reply {
  return { status, body: `{"status":"success","data":${dataJson}}`, contentType: "application/json" }
}

/** The error envelope of spec §7, `message` JSON-encoded as a string. */
export function failure(status: number, data: { name?: string; message: string; code: number }): Reply {
  return { status, body: JSON.stringify({ status: "error", data }), contentType: "application/json" }
}

export const TEST_API_KEY = "sk_test_9f8e7d6c5b4a_SECRET"

export class FakeGateway {
  readonly requests: RecordedRequest[] = []
  private readonly routes = new Map<string, Reply[]>()
  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<FakeGateway> {
    const server = http.createServer()
    const gateway = new FakeGateway(server)
    server.on("request", (req, res) => gateway.handle(req, res))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    return gateway
  }

  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo
    return `http://127.0.0.1:${port}`
  }

  /** Scripts the replies for a path below /api/v1 (e.g. "/operations"). */
  on(path: string, ...replies: Reply[]): this {
    this.routes.set(`/api/v1${path}`, replies)
    return this
  }

  /** Requests made to a path below /api/v1. */
  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.path === `/api/v1${path}`)
  }

  client(options: Partial<GatewayClientOptions> = {}): GatewayClient {
    return new GatewayClient({
      apiKey: TEST_API_KEY,
      baseUrl: this.baseUrl,
      timeoutMs: 2000,
      retry: { sleep: async () => undefined, random: () => 0.5 },
      ...options,
    })
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const raw = req.url ?? "/"
    const question = raw.indexOf("?")
    const path = question === -1 ? raw : raw.slice(0, question)
    const rawQuery = question === -1 ? "" : raw.slice(question + 1)
    this.requests.push({ method: req.method ?? "", path, query: new URLSearchParams(rawQuery), rawQuery })
    const queue = this.routes.get(path)
    const reply: Reply = queue === undefined || queue.length === 0 ? { status: 404, body: "" } : queue.length > 1 ? queue.shift()! : queue[0]!
    if ("hang" in reply) return
    if ("reset" in reply) {
      req.socket.destroy()
      return
    }
    res.writeHead(reply.status, reply.contentType ? { "content-type": reply.contentType } : {})
    res.end(reply.body ?? "")
  }
}

/** A base URL on which nothing listens (connection refused). */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

/** Runs `promise` and returns what it rejected with; fails the test if it resolved. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error: unknown) {
    return error
  }
  throw new Error("expected the call to fail, but it succeeded")
}
