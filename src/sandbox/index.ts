import type { AddressInfo } from "node:net"

import type { AxiosAdapter } from "axios"

import { signCallback } from "../gateway/core/callbacks"
import { SandboxClock } from "./core/clock"
import { DEFAULT_RETRY, type CallbackSigner, type Delivery, type RetryPolicy } from "./core/dispatcher"
import { SandboxCore } from "./core/sandbox-core"
import { parseSeed } from "./core/seed"
import { loadState, saveState } from "./core/state-file"
import type { Seed } from "./core/types"
import { createControlClient, type ControlFetch, type SandboxControl } from "./control/control-client"
import { createSandboxHandler } from "./http/handler"
import { createSandboxServer } from "./http/server"
import { FaultInjector } from "./http/faults"
import { inProcessTransport, type InProcessTransport, type SandboxFetch } from "./in-process"
import defaultSeedJson from "./seed/default.json"

export { SandboxClock } from "./core/clock"
export { SandboxCore } from "./core/sandbox-core"
export type { CreateInvoiceInput, PayInput, OperationRecord } from "./core/sandbox-core"
export { SeedError, parseSeed } from "./core/seed"
export { redactUrl } from "./http/server"
export type { Delivery, DeliveryAttempt, RetryPolicy } from "./core/dispatcher"
export type { Fault, FaultMode } from "./http/faults"
export type { Invoice, InvoiceStatus, Seed, SeedCoin, SeedShop } from "./core/types"
export { SandboxControlError, createControlClient } from "./control/control-client"
export type { ClockState, ControlClientOptions, ControlFetch, FaultOptions, PayInState, PayOptions, SandboxControl } from "./control/control-client"
export type { CashInState, InvoiceState, InvoiceTxState, ShopSettingsState } from "./control/state-views"
export { createSandboxHandler } from "./http/handler"
export type { SandboxHandler, SandboxOutcome, SandboxRequest } from "./http/handler"
export { inProcessTransport } from "./in-process"
export type { InProcessTransport, SandboxFetch } from "./in-process"

/** The bundled seed (src/sandbox/seed/default.json), validated. */
export function defaultSeed(): Seed {
  return parseSeed(structuredClone(defaultSeedJson))
}

export interface StartSandboxOptions {
  /** 0 (default) picks a free port */
  port?: number
  /** default 127.0.0.1 */
  host?: string
  /** a seed object (validated); default: the bundled seed */
  seed?: unknown
  /** base URL in invoice_url and links, when the sandbox is reached through another address */
  publicUrl?: string
  /** Status URL (and Success URL) for every shop whose seed has none: deposit callbacks go there */
  statusUrl?: string
  retry?: Partial<RetryPolicy>
  /** freeze the clock (at now, or at the given epoch milliseconds): it then moves only when told */
  frozenClock?: boolean | number
  /** how long `pending internal` lasts (default 60 s of sandbox time) */
  internalTransferSeconds?: number
  /** load the state from this JSON file at start and save every change to it */
  stateFile?: string
  /** one line per request (api_key redacted) */
  log?: (line: string) => void
  /** how often the clock is checked for expiries when no request comes (default 1000 ms; 0: never) */
  tickIntervalMs?: number
}

export interface SandboxShop {
  id: string
  name: string
  secretKey: string
  whiteLabel: boolean
}

/** A sandbox without a port: driven through `fetch` / `httpAdapter`, or its core directly. */
export interface Sandbox {
  /** the base URL to give clients; with no server, any request to it must go through `fetch` or `httpAdapter` */
  url: string
  shops: SandboxShop[]
  core: SandboxCore
  clock: SandboxClock
  faults: FaultInjector
  /** the control API acting as the seed's first shop (the white-label one in the bundled seed); `.as(apiKey)` for another */
  control: SandboxControl
  /** a `fetch` that reaches this sandbox in process (the HTTP sandbox's goes over the network) */
  fetch: SandboxFetch
  /** an axios adapter reaching this sandbox in process: `new GatewayClient({ httpAdapter })` */
  httpAdapter: AxiosAdapter
  /** resolves when every callback attempt in flight or scheduled is done */
  callbacksIdle: () => Promise<void>
  deliveries: () => Delivery[]
  close: () => Promise<void>
}

/** A sandbox listening on a port: `url` is its HTTP address, `control` speaks HTTP to it. */
export type RunningSandbox = Sandbox

/** The signer the sandbox uses: the gateway client's own (spec §6.3), multipart or JSON. */
const sign: CallbackSigner = (fields, options) => signCallback(fields, options)

/** The base URL of a sandbox without a server; its invoice pages are not reachable by a browser. */
export const IN_PROCESS_URL = "http://sandbox.in-process"

interface Assembled {
  seed: Seed
  core: SandboxCore
  clock: SandboxClock
  faults: FaultInjector
  setBaseUrl: (url: string) => void
  /** stops the ticker and the state file timer, saves, closes the dispatcher */
  stop: () => void
}

/** The parts every transport shares: seed, clock, core, state file, ticker. */
function assemble(options: StartSandboxOptions): Assembled {
  const seed = options.seed === undefined ? defaultSeed() : parseSeed(structuredClone(options.seed))
  if (options.statusUrl !== undefined) {
    for (const shop of seed.shops) {
      shop.status_url = shop.status_url ?? options.statusUrl
      shop.success_url = shop.success_url ?? options.statusUrl
    }
  }
  const frozen = options.frozenClock
  const clock = new SandboxClock(frozen === undefined || frozen === false ? null : frozen === true ? Date.now() : frozen)
  let baseUrl = options.publicUrl ?? ""
  let saveTimer: NodeJS.Timeout | null = null
  let core: SandboxCore | null = null
  const stateFile = options.stateFile
  const persist = (): void => {
    if (stateFile !== undefined && core !== null) {
      saveState(stateFile, core.snapshot())
    }
  }
  core = new SandboxCore({
    seed,
    sign,
    clock,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    publicUrl: () => baseUrl,
    internalTransferSeconds: options.internalTransferSeconds,
    onChange: () => {
      if (stateFile !== undefined && saveTimer === null) {
        saveTimer = setTimeout(() => {
          saveTimer = null
          persist()
        }, 200)
      }
    },
  })
  if (stateFile !== undefined) {
    const saved = loadState(stateFile)
    if (saved !== null) {
      core.restore(saved)
    }
  }
  const running = core
  const interval = options.tickIntervalMs ?? 1000
  const ticker = interval > 0 ? setInterval(() => running.tick(), interval) : null
  ticker?.unref()
  return {
    seed,
    core: running,
    clock,
    faults: new FaultInjector(),
    setBaseUrl: (url) => {
      if (baseUrl === "") {
        baseUrl = url
      }
    },
    stop: () => {
      if (ticker !== null) {
        clearInterval(ticker)
      }
      if (saveTimer !== null) {
        clearTimeout(saveTimer)
        saveTimer = null
      }
      persist()
      running.dispatcher.close()
    },
  }
}

function sandboxOf(parts: Assembled, url: string, transport: InProcessTransport, controlFetch: ControlFetch, close: () => Promise<void>): Sandbox {
  const shops = parts.seed.shops.map((s) => ({ id: s.id, name: s.name, secretKey: s.secret_key, whiteLabel: s.white_label }))
  return {
    url,
    shops,
    core: parts.core,
    clock: parts.clock,
    faults: parts.faults,
    control: createControlClient({ baseUrl: url, apiKey: shops[0].secretKey, fetch: controlFetch }),
    fetch: transport.fetch,
    httpAdapter: transport.axiosAdapter,
    callbacksIdle: () => parts.core.dispatcher.idle(),
    deliveries: () => parts.core.dispatcher.list(),
    close,
  }
}

/**
 * Creates the gateway sandbox WITHOUT a port (see src/sandbox/README.md, "In process"): the same
 * handler as the HTTP server, reached through `sandbox.fetch`, `sandbox.httpAdapter` and
 * `sandbox.control`. Callbacks still go out over HTTP to their targets.
 */
export function createSandbox(options: Omit<StartSandboxOptions, "port" | "host" | "log"> = {}): Sandbox {
  const parts = assemble({ tickIntervalMs: 0, ...options })
  parts.setBaseUrl(IN_PROCESS_URL)
  const transport = inProcessTransport(createSandboxHandler(parts.core, parts.faults))
  return sandboxOf(parts, IN_PROCESS_URL, transport, transport.fetch, () => {
    parts.stop()
    return Promise.resolve()
  })
}

/** Starts the gateway sandbox over HTTP (see src/sandbox/README.md). */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const parts = assemble(options)
  const { server, destroyHeld } = createSandboxServer({ core: parts.core, faults: parts.faults, log: options.log })
  const host = options.host ?? "127.0.0.1"
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const address: AddressInfo | string | null = server.address()
  if (address === null || typeof address === "string") {
    throw new Error("the sandbox server has no TCP address")
  }
  const shownHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host
  const url = `http://${shownHost}:${address.port}`
  parts.setBaseUrl(url)
  const transport = inProcessTransport(createSandboxHandler(parts.core, parts.faults))
  return sandboxOf(parts, url, transport, (target, init) => fetch(target, init), async () => {
    parts.stop()
    destroyHeld()
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  })
}

/**
 * A control client for a sandbox reached only by URL (another process: the CLI, `npm run sandbox`).
 * Same API as `sandbox.control`.
 */
export function connectSandboxControl(options: { url: string; apiKey: string }): SandboxControl {
  return createControlClient({ baseUrl: options.url, apiKey: options.apiKey })
}

export { CallbackDispatcher, formatForUrl } from "./core/dispatcher"
export { figures, nextState, isTerminal, STATUS_CODES } from "./core/invoice-machine"
export { convertCoin, cryptoForFiat, fiatForCrypto, priceInFiat, splitCommission } from "./core/rates"
export { Dec } from "./core/money"
