import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { failureReason } from "../../core/errors"
import { isDecimalString } from "../../gateway"
import { statusOfExchange } from "../../core/money-out/exchange"
import { completedShortfall, SETTLEMENT_ACTOR } from "../../core/money-out/settlement"
import { policyNow, readMoneyOutPolicy } from "../../core/money-out/policy"
import { toWire } from "../../core/money"
import { resolveCryptoProvider } from "../../core/config/provider-entry"
import { resolveCryptoModule } from "../../modules/crypto"
import { raiseCryptoAttentions } from "./raise-crypto-attention"

export const refreshCryptoExchangesStepId = "refresh-crypto-exchanges"

/** The bought amount a stored exchange answer names (`to_amount`, a decimal string), else null. */
const boughtOf = (result: unknown): string | null => {
  const value = typeof result === "object" && result !== null ? (result as Record<string, unknown>).to_amount : null
  return typeof value === "string" && isDecimalString(value) ? value : null
}

/**
 * Follows the exchanges the gateway took but had not finished (`created`) to their end (spec §4.11,
 * `GET /exchanges/{id}`), so the books count them as they ended (docs/books.md#gain-or-loss): the
 * answer replaces the stored one (the bought amount the books read). An exchange that ended in
 * `error`, or bought less than it was quoted by more than its settlement rule's difference (any
 * shortfall for the merchant's own exchanges), is raised in Needs attention as `exchange_failed`.
 * One that cannot be read now is counted in `failed` and read again on the next run.
 */
export const refreshCryptoExchangesStep = createStep(refreshCryptoExchangesStepId, async (input: { limit: number }, { container }) => {
  const service = resolveCryptoModule(container)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  // At most `limit` a run, a window that moves on every minute over all the open ones: an exchange
  // that stays open for long never holds up the others.
  const openIds = (await service.listCryptoExchanges({ status: "created", exchange_id: { $ne: null } }, { select: ["id"], order: { id: "ASC" } })).map((row) => row.id)
  const start = openIds.length <= input.limit ? 0 : (Math.floor(Date.now() / 60_000) * input.limit) % openIds.length
  const window = [...openIds, ...openIds].slice(start, start + Math.min(input.limit, openIds.length))
  const open = window.length === 0 ? [] : await service.listCryptoExchanges({ id: window })
  let ended = 0
  let failed = 0
  for (const exchange of open) {
    try {
      const { entry, client } = await resolveCryptoProvider(container, exchange.provider_id)
      const answer = await client.exchanges.retrieve(exchange.exchange_id as string)
      const status = statusOfExchange(answer.status)
      if (status === "created") continue
      const result = toWire(answer) as Record<string, unknown>
      await service.updateCryptoExchanges({ id: exchange.id, status, gateway_status: typeof answer.status === "string" ? answer.status : null, result, resolved_at: new Date() })
      ended += 1
      const quoted = boughtOf(exchange.result)
      const bought = boughtOf(result)
      let reason: string | null = status === "error" ? `the gateway ended the exchange in error (${String(answer.status)})` : null
      if (status === "completed" && quoted !== null && bought !== null) {
        const rule =
          exchange.requested_by === SETTLEMENT_ACTOR
            ? (await readMoneyOutPolicy(service, entry.providerId, entry.options.moneyOut, policyNow())).settlement[exchange.from_currency]?.convert ?? null
            : null
        const shortfall = completedShortfall(quoted, bought, rule?.max_difference_percent ?? "0")
        if (shortfall !== null) reason = `it bought ${bought} ${exchange.to_currency}, ${shortfall.toDecimalPlaces(2).toFixed()} % less than the ${quoted} quoted`
      }
      if (reason === null) continue
      await raiseCryptoAttentions(container, [
        {
          kind: "exchange_failed",
          provider_id: exchange.provider_id,
          subject_id: exchange.id,
          psys_cid: exchange.from_currency,
          currency: null,
          // The merchant's own coins, not money held for anyone (docs/attention.md).
          amount: null,
          evidence: { reason, exchange_id: exchange.exchange_id, from_amount: exchange.from_amount, to_currency: exchange.to_currency, quoted, bought, settlement: exchange.requested_by === SETTLEMENT_ACTOR },
        },
      ])
    } catch (error) {
      failed += 1
      logger.warn(`crypto reconciliation: exchange ${exchange.id} could not be read: ${failureReason(error)}`)
    }
  }
  return new StepResponse({ ended, failed })
})
