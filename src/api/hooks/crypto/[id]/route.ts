import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { providerIdFor, resolveCryptoProvider, type CryptoProvider } from "../../../../core/provider-entry"
import { handleCryptoCallbackWorkflow } from "../../../../workflows/handle-crypto-callback"
import { recordCryptoCallbackWorkflow } from "../../../../workflows/record-crypto-callback"
import { recordCryptoCallbackFailureWorkflow } from "../../../../workflows/record-crypto-callback-failure"
import { callbackContentHash, callbackSummary, CallbackBodyTooLargeError, decideCallback, readRawBody } from "../callback-request"

/**
 * The gateway's callback URL: `POST /hooks/crypto/<provider entry id>?json=true` (spec §6).
 *
 * 401/400 at once for a forged or malformed body (only a log line, never the body or the key);
 * 200 once the verified delivery is stored. Processing (a gateway re-read, then Medusa
 * workflows) runs before the answer; if it fails the delivery stays stored unprocessed and the
 * reconciliation job retries it, so the answer is still 200.
 */
export const POST = async (req: MedusaRequest, res: MedusaResponse): Promise<void> => {
  const logger = req.scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const entryId = req.params.id
  let provider: CryptoProvider
  try {
    provider = await resolveCryptoProvider(req.scope, providerIdFor(entryId))
  } catch (error) {
    if (MedusaError.isMedusaError(error) && (error.type === MedusaError.Types.NOT_FOUND || error.type === MedusaError.Types.NOT_ALLOWED)) {
      logger.warn(`crypto callback for unknown provider "${entryId}" refused`)
      res.status(404).json({ message: "Unknown crypto provider" })
      return
    }
    throw error
  }
  const { entry } = provider

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

  const decision = decideCallback({ body, contentType: req.headers["content-type"], secretKey: entry.options.apiKey })
  if (decision.kind === "reject") {
    logger.warn(`crypto callback refused (${decision.reason}) for provider ${entry.providerId}`)
    res.status(decision.status).json({ message: decision.message })
    return
  }

  const { fields, format } = decision.callback
  const { result: recorded } = await recordCryptoCallbackWorkflow(req.scope).run({
    input: {
      provider_id: entry.providerId,
      content_hash: callbackContentHash(fields),
      format,
      fields,
      ...callbackSummary(fields),
    },
  })

  if (!recorded.processed) {
    try {
      await handleCryptoCallbackWorkflow(req.scope).run({ input: { callback_id: recorded.callback_id } })
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      logger.error(`crypto callback ${recorded.callback_id} is stored but its processing failed; the reconciliation job will retry: ${reason}`)
      await recordCryptoCallbackFailureWorkflow(req.scope)
        .run({ input: { callback_id: recorded.callback_id, error: reason } })
        .catch((failure: unknown) => logger.error(`crypto callback ${recorded.callback_id}: its failure could not be recorded: ${failure instanceof Error ? failure.message : String(failure)}`))
    }
  }
  res.status(200).json({ received: true, duplicate: recorded.duplicate })
}
