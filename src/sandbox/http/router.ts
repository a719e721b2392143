import type { SandboxCore } from "../core/sandbox-core"
import { Params } from "./params"

export interface Reply {
  status: number
  /** JSON body (a `JsonValue` for the API; plain records for the control API); absent: no body */
  json?: unknown
  html?: string
  body?: Buffer
  contentType?: string
  headers?: Record<string, string>
}

export interface RequestContext {
  core: SandboxCore
  /** request headers, names in lower case */
  headers: Record<string, string>
  url: URL
  /** path parameters by name, already URL-decoded */
  path: Record<string, string>
  /** the query string, or for POST requests the body merged over it */
  params: Params
  /** the caller's address, IPv4-mapped IPv6 unwrapped */
  ip: string
}

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply

export interface Route {
  method: "GET" | "POST"
  pattern: string
  handler: Handler
}

interface CompiledRoute extends Route {
  regex: RegExp
  names: string[]
}

/** A small router: patterns like `/operations/:id`; a parameter matches one path segment. */
export class Router {
  private readonly routes: CompiledRoute[] = []

  add(routes: Route[]): this {
    for (const route of routes) {
      const names: string[] = []
      const source = route.pattern
        .split("/")
        .map((segment) => {
          if (segment.startsWith(":")) {
            names.push(segment.slice(1))
            return "([^/]+)"
          }
          return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        })
        .join("/")
      this.routes.push({ ...route, regex: new RegExp(`^${source}/?$`), names })
    }
    return this
  }

  /** The route and its decoded path parameters; `methodMismatch` when only the method differs. */
  match(method: string, pathname: string): { route: Route; path: Record<string, string> } | "methodMismatch" | null {
    let mismatch = false
    for (const route of this.routes) {
      const m = route.regex.exec(pathname)
      if (m === null) {
        continue
      }
      if (route.method !== method) {
        mismatch = true
        continue
      }
      const path: Record<string, string> = {}
      route.names.forEach((name, i) => {
        path[name] = safeDecode(m[i + 1])
      })
      return { route, path }
    }
    return mismatch ? "methodMismatch" : null
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
