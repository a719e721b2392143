import { invalidAttribute } from "../core/errors"

export const FAULT_MODES = ["5xx", "timeout", "malformed", "reset", "latency"] as const
export type FaultMode = (typeof FAULT_MODES)[number]

export interface Fault {
  id: number
  /** a path prefix under /api/v1 (e.g. "/api/v1/invoices/new"); every API path when absent */
  path: string | null
  mode: FaultMode
  /** requests left to affect */
  remaining: number
  /** latency: the delay; timeout: how long the socket is held before it is dropped */
  ms: number
}

/**
 * Faults injected into the next matching /api/v1 requests (control API `POST /_sandbox/faults`).
 * Each affected request consumes one from `count`; the oldest matching fault applies first.
 */
export class FaultInjector {
  private faults: Fault[] = []
  private nextId = 1

  add(input: { path: string | null; mode: FaultMode; count: number; ms: number | null }): Fault {
    if (input.path !== null && !input.path.startsWith("/")) {
      throw invalidAttribute("path", "\"path\" must start with \"/\", e.g. /api/v1/invoices/new.")
    }
    const fault: Fault = {
      id: this.nextId++,
      path: input.path,
      mode: input.mode,
      remaining: input.count,
      ms: input.ms ?? (input.mode === "timeout" ? 60_000 : 1000),
    }
    this.faults.push(fault)
    return fault
  }

  take(pathname: string): Fault | undefined {
    const fault = this.faults.find((f) => f.path === null || pathname.startsWith(f.path))
    if (fault === undefined) {
      return undefined
    }
    fault.remaining -= 1
    if (fault.remaining <= 0) {
      this.faults = this.faults.filter((f) => f !== fault)
    }
    return { ...fault }
  }

  list(): Fault[] {
    return [...this.faults]
  }

  clear(): void {
    this.faults = []
  }
}
