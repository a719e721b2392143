import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveCryptoModule } from "../../modules/crypto"
import { raiseCryptoAttentions } from "./raise-crypto-attention"

/** After this many failed processings a delivery is raised for the merchant (`callback_failed`). */
export const CALLBACK_FAILURES_BEFORE_ATTENTION = 3

export const recordCryptoCallbackFailureStepId = "record-crypto-callback-failure"

/**
 * Counts one failed processing of a stored delivery and keeps the reason. The reconciliation job
 * retries it; once it has failed CALLBACK_FAILURES_BEFORE_ATTENTION times it is raised in the
 * attention queue with its coin and amount, so money announced by a callback never waits unseen.
 */
export const recordCryptoCallbackFailureStep = createStep(recordCryptoCallbackFailureStepId, async (input: { callback_id: string; error: string }, { container }) => {
  const cryptoModule = resolveCryptoModule(container)
  // One atomic count (two processes failing at once both count), then the row for its evidence.
  const failures = await cryptoModule.countCryptoCallbackFailure(input.callback_id, input.error)
  if (failures === null) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `crypto callback ${input.callback_id} was not found`)
  }
  const callback = await cryptoModule.retrieveCryptoCallback(input.callback_id)
  if (failures >= CALLBACK_FAILURES_BEFORE_ATTENTION) {
    const fields = typeof callback.fields === "object" && callback.fields !== null ? (callback.fields as Record<string, unknown>) : {}
    const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : null)
    await raiseCryptoAttentions(container, [
      {
        kind: "callback_failed",
        provider_id: callback.provider_id,
        subject_id: callback.id,
        psys_cid: text("psys_cid"),
        currency: text("currency"),
        amount: text("amount"),
        evidence: {
          callback_id: callback.id,
          ipn_type: callback.ipn_type,
          txn_id: callback.txn_id,
          order_number: callback.order_number,
          status: callback.status,
          failures,
          last_error: input.error.slice(0, 1000),
        },
      },
    ])
  }
  return new StepResponse({ callback_id: callback.id, failures })
})
