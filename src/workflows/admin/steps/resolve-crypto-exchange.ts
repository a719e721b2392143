import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { toMedusaError } from "../../../core/errors"
import { statusOfExchange, UNRESOLVED_EXCHANGE_STATUSES } from "../../../core/money-out/exchange"
import { toWire } from "../../../core/money"
import { resolveCryptoProvider } from "../../../core/config/provider-entry"
import { resolveCryptoModule } from "../../../modules/crypto"

export type ResolveCryptoExchangeInput =
  | { id: string; resolution: "exchange"; exchange_id: string; note?: string | null; resolved_by: string | null }
  | { id: string; resolution: "not_sent"; note: string; resolved_by: string | null }

export const resolveCryptoExchangeStepId = "resolve-crypto-exchange"

/**
 * Records the merchant's resolution of an exchange whose outcome is unknown, with who and when:
 * `exchange` (the gateway's exchange id, read back to check coins and address; owned by no other
 * exchange) or `not_sent` (checked at the gateway; a note is required).
 */
export const resolveCryptoExchangeStep = createStep(resolveCryptoExchangeStepId, async (input: ResolveCryptoExchangeInput, { container }) => {
  const service = resolveCryptoModule(container)
  const [exchange] = await service.listCryptoExchanges({ id: input.id }, { take: 1 })
  if (exchange === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Exchange ${input.id} was not found`)
  }
  if (!(UNRESOLVED_EXCHANGE_STATUSES as readonly string[]).includes(exchange.status) || exchange.exchange_id) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Exchange ${exchange.id} is ${exchange.status.replace("_", " ")}: only an unknown outcome is resolved by hand (field: resolution)`)
  }
  const resolved = { resolved_by: input.resolved_by, resolved_at: new Date(), resolution_note: input.note ?? null }
  if (input.resolution === "not_sent") {
    return new StepResponse(await service.updateCryptoExchanges({ id: exchange.id, status: "not_sent", resolution: "not_sent", ...resolved }))
  }
  const [owner] = await service.listCryptoExchanges({ exchange_id: input.exchange_id }, { take: 1 })
  if (owner !== undefined && owner.id !== exchange.id) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Exchange ${input.exchange_id} is already recorded as ${owner.id} (field: exchange_id)`)
  }
  const { client } = await resolveCryptoProvider(container, exchange.provider_id)
  let result
  try {
    result = await client.exchanges.retrieve(input.exchange_id)
  } catch (error) {
    throw toMedusaError(error, `Reading exchange ${input.exchange_id}`)
  }
  const mismatch = (["from_currency", "to_currency", "to_address"] as const).filter((field) => typeof result[field] === "string" && result[field] !== exchange[field])
  if (mismatch.length > 0) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Exchange ${input.exchange_id} has another ${mismatch.join(", ")}: it cannot be this one (field: exchange_id)`)
  }
  return new StepResponse(
    await service.updateCryptoExchanges({
      id: exchange.id,
      status: statusOfExchange(result.status),
      exchange_id: input.exchange_id,
      gateway_status: typeof result.status === "string" ? result.status : null,
      result: toWire(result) as Record<string, unknown>,
      resolution: "exchange",
      ...resolved,
    })
  )
})
