import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveCryptoModule } from "../../modules/crypto"
import type { CryptoCallbackDelivery } from "../../modules/crypto/callback-upsert"

export type RecordCryptoCallbackStepInput = CryptoCallbackDelivery

export interface RecordedCryptoCallback {
  callback_id: string
  /** The same verified content was stored before (a redelivery). */
  duplicate: boolean
  /** The earlier delivery was already processed: nothing left to do. */
  processed: boolean
}

export const recordCryptoCallbackStepId = "record-crypto-callback"

/**
 * Stores one verified delivery, unique on its content hash. A redelivery (same content, any
 * transport) counts itself on the stored row, in the same single atomic statement as the insert
 * (`storeCryptoCallback`), so concurrent redeliveries on any number of instances need no lock.
 */
export const recordCryptoCallbackStep = createStep(
  recordCryptoCallbackStepId,
  async (input: RecordCryptoCallbackStepInput, { container }) => {
    const stored = await resolveCryptoModule(container).storeCryptoCallback(input)
    const duplicate = stored.delivery_count > 1
    return new StepResponse<RecordedCryptoCallback, { created_id: string | null }>(
      { callback_id: stored.id, duplicate, processed: stored.processed },
      { created_id: duplicate ? null : stored.id }
    )
  },
  async (compensation, { container }) => {
    if (compensation === undefined || compensation.created_id === null) {
      return
    }
    await resolveCryptoModule(container).deleteCryptoCallbacks(compensation.created_id)
  }
)
