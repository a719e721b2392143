import type { IEventBusModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { failureReason } from "../core/errors"
import { callbackConcurrency, ProcessLimit } from "../core/config/process-limit"
import { CALLBACK_EVENT_OPTIONS, CART_RETRY_DELAYS_MS, CRYPTO_CALLBACK_RECEIVED, type CryptoCallbackReceivedEvent } from "../core/events"
import { recordCryptoCallbackFailureWorkflow } from "../workflows/record-crypto-callback-failure"
import { syncCryptoInvoiceWorkflow } from "../workflows/sync-crypto-invoice"

/** What handling one event needs; built from the container (`callbackEventDepsOf`), fakes in unit tests. */
export interface CallbackEventDeps {
  /** `syncCryptoInvoiceWorkflow` with the delivery: lock per invoice group, gateway re-read, forward-only apply; its outcome. */
  process(callbackId: string): Promise<{ outcome: string }>
  /** `recordCryptoCallbackFailureWorkflow`: counts the failure, raises `callback_failed` after a few. */
  recordFailure(callbackId: string, reason: string): Promise<void>
  /** Emits the event again, later. */
  emit(event: CryptoCallbackReceivedEvent, delayMs: number): Promise<void>
  logger: Pick<Logger, "error" | "warn">
}

export function callbackEventDepsOf(container: MedusaContainer): CallbackEventDeps {
  return {
    process: async (callbackId) => (await syncCryptoInvoiceWorkflow(container).run({ input: { callback_id: callbackId } })).result,
    recordFailure: async (callbackId, reason) => {
      await recordCryptoCallbackFailureWorkflow(container).run({ input: { callback_id: callbackId, error: reason } })
    },
    emit: async (event, delayMs) => {
      await container.resolve<IEventBusModuleService>(Modules.EVENT_BUS).emit({ name: CRYPTO_CALLBACK_RECEIVED, data: event }, { ...CALLBACK_EVENT_OPTIONS, delay: delayMs })
    },
    logger: container.resolve<Logger>(ContainerRegistrationKeys.LOGGER),
  }
}

/**
 * Processes one stored delivery through `syncCryptoInvoiceWorkflow`, which keeps every guarantee of
 * processing (a lock per invoice group, forward-only, idempotent) and marks the delivery processed.
 * - It fails: the failure is counted on the delivery (raised for the merchant after a few) and
 *   rethrown, so the Redis event bus retries with backoff; the local event bus only logs it and
 *   the reconciliation job retries the unprocessed delivery (docs/production.md).
 * - The money is there but Medusa could not complete the cart yet (`incomplete`): the event is
 *   emitted again after a few seconds (CART_RETRY_DELAYS_MS), before the job's slower pass.
 */
export async function handleCallbackEvent(deps: CallbackEventDeps, event: CryptoCallbackReceivedEvent): Promise<void> {
  let outcome: string
  try {
    outcome = (await deps.process(event.id)).outcome
  } catch (error) {
    const reason = failureReason(error)
    deps.logger.error(`crypto callback ${event.id}: processing failed, it will be retried: ${reason}`)
    await deps.recordFailure(event.id, reason).catch((failure: unknown) =>
      deps.logger.error(`crypto callback ${event.id}: its failure could not be recorded: ${failureReason(failure)}`)
    )
    throw error
  }
  const retry = event.retry ?? 0
  if (outcome === "incomplete" && retry < CART_RETRY_DELAYS_MS.length) {
    deps.logger.warn(`crypto callback ${event.id}: the cart could not be completed yet; retrying in ${CART_RETRY_DELAYS_MS[retry] / 1000} s`)
    await deps.emit({ id: event.id, retry: retry + 1 }, CART_RETRY_DELAYS_MS[retry])
  }
}

/** `crypto.callback.received` → `syncCryptoInvoiceWorkflow` (docs/architecture.md#the-callback-path). */
/** Deliveries this process works on at once (src/core/config/process-limit.ts); the rest wait their turn. */
const processing = new ProcessLimit(callbackConcurrency(process.env.CRYPTO_CALLBACK_CONCURRENCY))

export default async function cryptoCallbackReceived({ event, container }: SubscriberArgs<CryptoCallbackReceivedEvent>): Promise<void> {
  await processing.run(() => handleCallbackEvent(callbackEventDepsOf(container), event.data))
}

export const config: SubscriberConfig = {
  event: CRYPTO_CALLBACK_RECEIVED,
  context: { subscriberId: "crypto-callback-received" },
}
