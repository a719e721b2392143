import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { toMedusaError } from "../../../core/errors"
import { resolveCryptoProvider } from "../../../core/provider-entry"
import { toWire } from "../../../core/money"

export interface CreateCryptoExchangeInput {
  from_currency: string
  to_currency: string
  to_address: string
  from_amount?: string
  to_amount?: string
  amount_currency?: string
  provider_id?: string
}

export const createCryptoExchangeStepId = "create-crypto-exchange"

/**
 * Creates an exchange (spec §4.11), once: the client does not retry it, and an unsure outcome is
 * reported as such (look at the exchange list before trying again).
 */
export const createCryptoExchangeStep = createStep(createCryptoExchangeStepId, async (input: CreateCryptoExchangeInput, { container }) => {
  const { client } = await resolveCryptoProvider(container, input.provider_id)
  try {
    const exchange = await client.exchanges.create({
      from_currency: input.from_currency,
      to_currency: input.to_currency,
      to_address: input.to_address,
      ...(input.from_amount !== undefined ? { from_amount: input.from_amount } : {}),
      ...(input.to_amount !== undefined ? { to_amount: input.to_amount } : {}),
      ...(input.amount_currency !== undefined ? { amount_currency: input.amount_currency } : {}),
    })
    return new StepResponse(toWire(exchange))
  } catch (error) {
    throw toMedusaError(error, "Creating the exchange")
  }
})
