import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_MODULE } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"

export const markCryptoCallbackProcessedStepId = "mark-crypto-callback-processed"

/** Marks a delivery as handled, with what handling did (`applied`, `unchanged`, `recorded`...). */
export const markCryptoCallbackProcessedStep = createStep(
  markCryptoCallbackProcessedStepId,
  async (input: { callback_id: string; outcome: string }, { container }) => {
    const cryptoModule = container.resolve<CryptoModuleService>(CRYPTO_MODULE)
    await cryptoModule.updateCryptoCallbacks({ id: input.callback_id, processed_at: new Date(), outcome: input.outcome, last_error: null })
    return new StepResponse(undefined)
  }
)
