import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { toMedusaError } from "../../../core/errors"
import { resolveCryptoProvider } from "../../../core/config/provider-entry"
import { toWire } from "../../../core/money"

export const createCryptoDepositStepId = "create-crypto-deposit"

/**
 * Asks the gateway for the deposit address of a customer (spec §4.10). The address stays tied to
 * the uid for good and asking again returns it, so there is nothing to compensate.
 */
export const createCryptoDepositStep = createStep(
  createCryptoDepositStepId,
  async (input: { uid: string; psys_cid: string[]; provider_id?: string }, { container }) => {
    const { client } = await resolveCryptoProvider(container, input.provider_id)
    try {
      const created = await client.deposits.create({ uid: input.uid, psys_cid: input.psys_cid })
      return new StepResponse(toWire(created))
    } catch (error) {
      throw toMedusaError(error, "Creating the deposit address")
    }
  }
)
