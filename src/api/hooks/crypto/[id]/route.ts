import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { failureReason } from "../../../../core/errors"
import { CALLBACK_EVENT_OPTIONS, CRYPTO_CALLBACK_RECEIVED, type CryptoCallbackReceivedEvent } from "../../../../core/events"
import { providerIdFor, resolveCryptoProviderEntry, type CryptoProviderEntry } from "../../../../core/config/provider-entry"
import { verifyCallback, type VerifiedCallback } from "../../../../gateway"
import { resolveCryptoModule } from "../../../../modules/crypto"
import { isTestCallback, testCallbackAnswer } from "../../../../core/payment/test-callback"
import { callbackContentHash, callbackRefusal, callbackSummary, CallbackBodyTooLargeError, readRawBody, type CallbackAnswer } from "../callback-request"

/**
 * The gateway's callback URL: `POST /hooks/crypto/<provider entry id>?json=true` (spec §6).
 *
 * 401/400 at once for a forged or malformed body (only a log line, never the body or the key);
 * 200 with its nonce for a verified test callback, which is not a delivery and is not stored
 * (src/workflows/admin/test-callback.ts);
 * 200 as soon as the verified delivery is durably stored: one atomic insert, a redelivery one
 * atomic count (`storeCryptoCallback`), no lock, no workflow. Processing (a gateway re-read, then
 * Medusa's workflows) is handed to the event bus: `crypto.callback.received`, whose subscriber
 * runs on a worker instance in a server + worker store and in this process after the answer with
 * Medusa's defaults, the way Medusa's own `/hooks/payment` route works
 * (docs/architecture.md#callback-route). The gateway's delivery never waits on Medusa's slow
 * path, so it is not timed out and sent again. The stored row is the durable promise: a lost
 * event (a crash before the subscriber ran) leaves it unprocessed and the reconciliation job
 * processes it.
 */
export const POST = async (req: MedusaRequest, res: MedusaResponse<CallbackAnswer>): Promise<void> => {
  const logger = req.scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const entryId = req.params.id
  // The entry's key is all verification needs: no database read before the body is verified.
  let entry: CryptoProviderEntry
  try {
    entry = resolveCryptoProviderEntry(req.scope, providerIdFor(entryId))
  } catch (error) {
    if (MedusaError.isMedusaError(error) && (error.type === MedusaError.Types.NOT_FOUND || error.type === MedusaError.Types.NOT_ALLOWED)) {
      logger.warn(`crypto callback for unknown provider "${entryId}" refused`)
      res.status(404).json({ message: "Unknown crypto provider" })
      return
    }
    throw error
  }

  let body: Buffer
  try {
    body = await readRawBody(req)
  } catch (error) {
    if (error instanceof CallbackBodyTooLargeError) {
      logger.warn(`crypto callback refused: body over ${error.limit} bytes`)
      res.status(413).json({ message: "Callback body too large" })
      return
    }
    throw error
  }

  // The one verifier (spec §6.3, constant-time); a refused body is answered, never stored.
  let callback: VerifiedCallback
  try {
    callback = verifyCallback({ body, contentType: req.headers["content-type"], secretKey: entry.options.apiKey })
  } catch (error) {
    const refusal = callbackRefusal(error)
    logger.warn(`crypto callback refused (${refusal.reason}) for provider ${entry.providerId}`)
    res.status(refusal.status).json({ message: refusal.message })
    return
  }

  const { fields, format } = callback
  // The settings page's "Check the callback URL" (docs/troubleshooting.md#check-the-callback-url): a
  // verified test callback proves this store answers at its public URL; it is not a delivery, so it
  // is answered with its nonce and stored and emitted nowhere.
  if (isTestCallback(fields)) {
    logger.info(`crypto callback check: a test callback for provider ${entry.providerId} reached this store`)
    res.status(200).json(testCallbackAnswer(entry.providerId, fields))
    return
  }
  const stored = await resolveCryptoModule(req.scope).storeCryptoCallback({
    provider_id: entry.providerId,
    content_hash: callbackContentHash(fields),
    format,
    fields,
    ...callbackSummary(fields),
  })
  const duplicate = stored.delivery_count > 1
  // A first delivery is processed; a redelivery of one still in processing is not processed twice
  // (ten at once would queue ten workflows on one invoice lock), unless its processing has failed:
  // then the gateway's resend is a retry.
  if (!stored.processed && (!duplicate || stored.failure_count > 0)) {
    const event: CryptoCallbackReceivedEvent = { id: stored.id }
    await req.scope
      .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
      .emit({ name: CRYPTO_CALLBACK_RECEIVED, data: event }, CALLBACK_EVENT_OPTIONS)
      .catch((error: unknown) =>
        // The delivery is stored: the reconciliation job processes it even if the event is lost.
        logger.error(`crypto callback ${stored.id} is stored but its event could not be emitted; the reconciliation job will process it: ${failureReason(error)}`)
      )
  }
  res.status(200).json({ received: true, duplicate })
}
