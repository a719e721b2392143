import { Modules } from "@medusajs/framework/utils"

/** The part of Medusa's config module this check reads (`configModule` in a container). */
export interface DeploymentConfig {
  projectConfig?: { workerMode?: string }
  modules?: Record<string, unknown>
}

/** Medusa's locking providers that hold a lock across processes (docs/production.md#a-shared-locking-provider-is-required-with-more-than-one-instance). */
const SHARED_LOCKING_PROVIDERS = [/locking-redis/, /locking-postgres/]

function resolvesOf(moduleConfig: unknown): string[] {
  if (typeof moduleConfig !== "object" || moduleConfig === null) return []
  const options = (moduleConfig as { options?: { providers?: unknown } }).options
  const providers = Array.isArray(options?.providers) ? (options.providers as unknown[]) : []
  return providers.flatMap((provider) => {
    const resolve = typeof provider === "object" && provider !== null ? (provider as { resolve?: unknown }).resolve : undefined
    return typeof resolve === "string" ? [resolve] : []
  })
}

/**
 * A store split into server and worker instances (`projectConfig.workerMode` "server" or
 * "worker") runs more than one process on one database. Medusa's `completeCartWorkflow` (the
 * storefront's complete) and `processPaymentWorkflow` (our paid callback) both lock the cart id
 * through the locking module; with its default in-memory provider that lock holds only inside one
 * process, so the two can race and the shopper's complete fails ("Cannot create multiple links
 * between 'order' and 'payment'", docs/gateway-readings.md#cart-completion-races). Returns the
 * warning to log at boot, or undefined when the store runs in one process or has a shared
 * provider (Redis or PostgreSQL).
 */
export function sharedLockingWarning(config: DeploymentConfig | undefined): string | undefined {
  const mode = config?.projectConfig?.workerMode ?? "shared"
  if (mode === "shared") return undefined
  const resolves = resolvesOf(config?.modules?.[Modules.LOCKING])
  if (resolves.some((resolve) => SHARED_LOCKING_PROVIDERS.some((pattern) => pattern.test(resolve)))) return undefined
  return (
    `medusa-payment-crypto: this instance runs in "${mode}" mode with Medusa's in-memory locking provider. ` +
    `A store on several instances needs a shared locking provider (@medusajs/medusa/locking-redis or @medusajs/medusa/locking-postgres): ` +
    `otherwise a paid callback processed on one instance and the shopper's cart completion on another can race, ` +
    `and the shopper's complete fails (docs/production.md#a-shared-locking-provider-is-required-with-more-than-one-instance).`
  )
}
