import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { storeDefaultCurrency } from "../../../core/books/charts"
import { exchangeRatesNow } from "../../../core/books/export"
import { toMedusaError, failureReason } from "../../../core/errors"
import { statusOfExchange } from "../../../core/money-out/exchange"
import { toWire } from "../../../core/money"
import { CryptoOutcomeEvents, emitOutcomeUnknown } from "../../../core/money-out/outcome-events"
import { resolveCryptoProvider } from "../../../core/config/provider-entry"
import { isClearRefusal } from "../../../core/money-out/withdrawal"
import { GatewayApiError } from "../../../gateway"
import { resolveCryptoModule } from "../../../modules/crypto"
import type { CryptoExchangeRecord, CryptoExchangeReservation } from "./reserve-crypto-exchange"

export interface SentCryptoExchange {
  exchange: CryptoExchangeRecord
  /** True when the exchange was already recorded under this key (nothing was sent now). */
  replayed: boolean
}

export const sendCryptoExchangeStepId = "send-crypto-exchange"

/**
 * Creates a freshly reserved exchange at the gateway (spec §4.11), once, and writes the result back:
 * - an answer: `created` / `completed` / `error` with the gateway's exchange id and answer;
 * - anything that is not a clear refusal (timeout, reset, 5xx, a 2xx whose body is not JSON):
 *   `outcome_unknown` and an event; the gateway has no exchange list to search, so the merchant
 *   resolves it (POST /admin/crypto/exchanges/:id/resolve);
 * - a clear refusal (4xx): `rejected` with the merchant's message, then thrown.
 */
export const sendCryptoExchangeStep = createStep(sendCryptoExchangeStepId, async (reservation: CryptoExchangeReservation, { container }) => {
  const { exchange, reserved } = reservation
  if (!reserved) {
    return new StepResponse<SentCryptoExchange>({ exchange, replayed: true })
  }
  const service = resolveCryptoModule(container)
  const { client } = await resolveCryptoProvider(container, exchange.provider_id)
  // Both legs' value in the store currency at this moment, for the books (docs/books.md#fiat-values).
  const rates = await exchangeRatesNow(client, service, await storeDefaultCurrency(container), { from: exchange.from_currency, to: exchange.to_currency })
  await service.updateCryptoExchanges({ id: exchange.id, status: "sending", sent_at: new Date(), ...rates })
  try {
    const result = await client.exchanges.create({
      from_currency: exchange.from_currency,
      to_currency: exchange.to_currency,
      to_address: exchange.to_address,
      ...(exchange.from_amount !== null ? { from_amount: exchange.from_amount } : {}),
      ...(exchange.to_amount !== null ? { to_amount: exchange.to_amount } : {}),
      ...(exchange.amount_currency !== null ? { amount_currency: exchange.amount_currency } : {}),
    })
    const status = statusOfExchange(result.status)
    const updated = await service.updateCryptoExchanges({
      id: exchange.id,
      status,
      exchange_id: typeof result.id === "string" ? result.id : null,
      gateway_status: typeof result.status === "string" ? result.status : null,
      // Amounts as decimal strings (toWire), never floats.
      result: toWire(result) as Record<string, unknown>,
      resolved_at: status === "created" ? null : new Date(),
    })
    return new StepResponse<SentCryptoExchange>({ exchange: updated, replayed: false })
  } catch (error) {
    if (!isClearRefusal(error)) {
      const reason = failureReason(error)
      const updated = await service.updateCryptoExchanges({
        id: exchange.id,
        status: "outcome_unknown",
        error_message: `The gateway did not confirm the exchange (${reason}). It may have been created; it is not sent again. Check the gateway, then resolve it here.`,
      })
      await emitOutcomeUnknown(container, CryptoOutcomeEvents.EXCHANGE_OUTCOME_UNKNOWN, {
        id: updated.id,
        provider_id: updated.provider_id,
        psys_cid: updated.from_amount !== null ? updated.from_currency : updated.to_currency,
        amount: updated.from_amount ?? updated.to_amount ?? "0",
      })
      return new StepResponse<SentCryptoExchange>({ exchange: updated, replayed: false })
    }
    const translated = toMedusaError(error, "Creating the exchange")
    await service.updateCryptoExchanges({
      id: exchange.id,
      status: "rejected",
      resolved_at: new Date(),
      error_message: translated.message,
      error_code: error instanceof GatewayApiError && error.code !== undefined ? String(error.code) : null,
    })
    throw translated
  }
})
