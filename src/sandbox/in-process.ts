import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from "axios"

import type { SandboxHandler, SandboxOutcome, SandboxRequest } from "./http/handler"

/** A `fetch` that reaches the sandbox without a socket. */
export type SandboxFetch = (input: string | URL, init?: { method?: string; headers?: Record<string, string>; body?: string | Buffer; signal?: AbortSignal }) => Promise<Response>

/** The in-process transports of one sandbox: a `fetch` and an axios adapter (`GatewayClient`'s `httpAdapter`). */
export interface InProcessTransport {
  fetch: SandboxFetch
  axiosAdapter: AxiosAdapter
}

/** What a dropped connection looks like to a caller: node's ECONNRESET. */
function connectionReset(): Error & { code: string } {
  return Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })
}

/** A held connection: dropped after `ms`, or earlier when the caller gives up. */
function hang(ms: number, signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    const timer = setTimeout(() => reject(connectionReset()), ms)
    timer.unref()
    signal?.addEventListener("abort", () => {
      clearTimeout(timer)
      reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"))
    })
  })
}

function toResponse(outcome: Extract<SandboxOutcome, { kind: "reply" }>): Response {
  const empty = outcome.status === 204 || outcome.status === 304 || (outcome.status >= 300 && outcome.status < 400 && outcome.body.length === 0)
  return new Response(empty ? null : new Uint8Array(outcome.body), { status: outcome.status, headers: outcome.headers })
}

function lowerCaseHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === "string") {
      out[name.toLowerCase()] = value
    } else if (typeof value === "number") {
      out[name.toLowerCase()] = String(value)
    }
  }
  return out
}

/**
 * The sandbox without a port (msw's core/node split): requests go straight to the transport-free
 * handler, faults included (`reset` and a held `timeout` reject as a dropped connection would).
 * The URL's origin is ignored; only its path and query matter.
 */
export function inProcessTransport(handler: SandboxHandler, options: { ip?: string } = {}): InProcessTransport {
  const run = (request: SandboxRequest): Promise<SandboxOutcome> => handler.handle({ ip: options.ip ?? "127.0.0.1", ...request })

  const sandboxFetch: SandboxFetch = async (input, init = {}) => {
    const url = new URL(String(input))
    init.signal?.throwIfAborted()
    const body = init.body === undefined ? undefined : Buffer.from(init.body)
    const outcome = await run({
      method: (init.method ?? "GET").toUpperCase(),
      url: `${url.pathname}${url.search}`,
      headers: lowerCaseHeaders(init.headers ?? {}),
      body,
    })
    if (outcome.kind === "reset") {
      throw new TypeError("fetch failed", { cause: connectionReset() })
    }
    if (outcome.kind === "hang") {
      return hang(outcome.ms, init.signal).catch((e: unknown) => {
        throw e instanceof Error && "code" in e ? new TypeError("fetch failed", { cause: e }) : e
      })
    }
    return toResponse(outcome)
  }

  const axiosAdapter: AxiosAdapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    const url = new URL(axiosUri(config))
    const data: unknown = config.data
    const body = typeof data === "string" ? Buffer.from(data) : Buffer.isBuffer(data) ? data : undefined
    const controller = new AbortController()
    const timeoutMs = config.timeout ?? 0
    const timeoutCode = config.transitional?.clarifyTimeoutError === true ? AxiosError.ETIMEDOUT : AxiosError.ECONNABORTED
    const work = (async (): Promise<AxiosResponse> => {
      const outcome = await run({
        method: (config.method ?? "get").toUpperCase(),
        url: `${url.pathname}${url.search}`,
        headers: lowerCaseHeaders(config.headers.toJSON()),
        body,
      })
      if (outcome.kind === "reset") {
        throw new AxiosError("socket hang up", "ECONNRESET", config)
      }
      if (outcome.kind === "hang") {
        await hang(outcome.ms, controller.signal).catch(() => {
          throw new AxiosError("socket hang up", "ECONNRESET", config)
        })
      }
      const reply = outcome as Extract<SandboxOutcome, { kind: "reply" }>
      const response: AxiosResponse = {
        data: config.responseType === "arraybuffer" ? reply.body : reply.body.toString("utf8"),
        status: reply.status,
        statusText: "",
        headers: AxiosHeaders.from(reply.headers),
        config,
        request: {},
      }
      const validate = config.validateStatus
      if (validate !== undefined && validate !== null && !validate(reply.status)) {
        throw new AxiosError(`Request failed with status code ${reply.status}`, AxiosError.ERR_BAD_RESPONSE, config, {}, response)
      }
      return response
    })()
    if (timeoutMs <= 0) {
      return work
    }
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        controller.abort()
        reject(new AxiosError(`timeout of ${timeoutMs}ms exceeded`, timeoutCode, config))
      }, timeoutMs)
    })
    try {
      return await Promise.race([work, timeout])
    } finally {
      clearTimeout(timer)
    }
  }

  return { fetch: sandboxFetch, axiosAdapter }
}

/** The absolute request URL axios would call (base URL, url and params). */
function axiosUri(config: InternalAxiosRequestConfig): string {
  const base = config.baseURL ?? ""
  const path = config.url ?? ""
  const joined = /^[a-z][a-z0-9+.-]*:\/\//i.test(path) || base === "" ? path : `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`
  const url = new URL(joined)
  const params: unknown = config.params
  if (params !== undefined && params !== null && typeof params === "object") {
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined && value !== null) {
        url.searchParams.append(key, String(value))
      }
    }
  }
  return url.toString()
}
