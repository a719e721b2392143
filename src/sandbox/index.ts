import type { AddressInfo } from "node:net"

import { signCallback } from "../gateway/core/callbacks"
import { SandboxClock } from "./core/clock"
import { DEFAULT_RETRY, type CallbackSigner, type Delivery, type RetryPolicy } from "./core/dispatcher"
import { SandboxCore } from "./core/sandbox-core"
import { parseSeed } from "./core/seed"
import { loadState, saveState } from "./core/state-file"
import type { Seed } from "./core/types"
import { createSandboxServer } from "./http/server"
import type { FaultInjector } from "./http/faults"
import defaultSeedJson from "./seed/default.json"

export { SandboxClock } from "./core/clock"
export { SandboxCore } from "./core/sandbox-core"
export type { CreateInvoiceInput, PayInput, OperationRecord } from "./core/sandbox-core"
export { SeedError, parseSeed } from "./core/seed"
export { redactUrl } from "./http/server"
export type { Delivery, DeliveryAttempt, RetryPolicy } from "./core/dispatcher"
export type { Fault, FaultMode } from "./http/faults"
export type { Invoice, InvoiceStatus, Seed, SeedCoin, SeedShop } from "./core/types"

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

export interface RunningSandbox {
  url: string
  shops: SandboxShop[]
  core: SandboxCore
  clock: SandboxClock
  faults: FaultInjector
  /** resolves when every callback attempt in flight or scheduled is done */
  callbacksIdle: () => Promise<void>
  deliveries: () => Delivery[]
  close: () => Promise<void>
}

/** The signer the sandbox uses: the gateway client's own (spec §6.3), multipart or JSON. */
const sign: CallbackSigner = (fields, options) => signCallback(fields, options)

/** Starts the gateway sandbox over HTTP (see src/sandbox/README.md). */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
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
  const { server, faults, destroyHeld } = createSandboxServer({ core: running, log: options.log })
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
  if (baseUrl === "") {
    baseUrl = url
  }
  const interval = options.tickIntervalMs ?? 1000
  const ticker = interval > 0 ? setInterval(() => running.tick(), interval) : null
  ticker?.unref()
  return {
    url,
    shops: seed.shops.map((s) => ({ id: s.id, name: s.name, secretKey: s.secret_key, whiteLabel: s.white_label })),
    core: running,
    clock,
    faults,
    callbacksIdle: () => running.dispatcher.idle(),
    deliveries: () => running.dispatcher.list(),
    close: async () => {
      if (ticker !== null) {
        clearInterval(ticker)
      }
      if (saveTimer !== null) {
        clearTimeout(saveTimer)
        saveTimer = null
      }
      persist()
      running.dispatcher.close()
      destroyHeld()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}

export { CallbackDispatcher, formatForUrl } from "./core/dispatcher"
export { figures, nextState, isTerminal, STATUS_CODES } from "./core/invoice-machine"
export { convertCoin, cryptoForFiat, fiatForCrypto, priceInFiat, splitCommission } from "./core/rates"
export { Dec } from "./core/money"
