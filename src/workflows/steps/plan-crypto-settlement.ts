import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { Decimal } from "decimal.js"
import { storeDefaultCurrency } from "../../core/books/charts"
import { exchangeRatesNow } from "../../core/books/export"
import { resolveCryptoProvider } from "../../core/config/provider-entry"
import type { MoneyOutPolicy, SettlementRule } from "../../core/config/money-out-policy"
import type { CryptoSettlementRequestedEvent } from "../../core/events"
import { decideAddresses, policyNow, readMoneyOutPolicy, refusalError } from "../../core/money-out/policy"
import { conversionAmount, estimateProblem, SETTLEMENT_ACTOR, settlementKey, SWEEP_KEY_PREFIX, sweepAmount } from "../../core/money-out/settlement"
import { placesOfCoin, UNSETTLED_WITHDRAWAL_STATUSES } from "../../core/money-out/withdrawal"
import { resolveCryptoModule } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import type { CreateCryptoExchangeInput } from "../admin/steps/reserve-crypto-exchange"
import type { ReserveCryptoWithdrawalInput } from "../admin/steps/reserve-crypto-withdrawal"

/** A settlement's plan: what to send, or why nothing is (no rule, below the minimum, already made). */
export type CryptoSettlementPlan<Send> = { send: Send; skipped: null } | { send: null; skipped: string }

const skipped = (why: string): CryptoSettlementPlan<never> => ({ send: null, skipped: why })

/**
 * A settlement pays only a saved address past its cooling-off, even with the address book off
 * (docs/money-out.md#settlement): money that leaves on its own goes where the merchant said.
 */
async function checkSavedAddress(service: CryptoModuleService, policy: MoneyOutPolicy, providerId: string, psysCid: string, address: string, field: string, now: Date): Promise<void> {
  const book = await service.listCryptoAddresses({ provider_id: providerId, psys_cid: psysCid, address, removed_at: null })
  const decision = decideAddresses({ ...policy, address_book: true }, book, psysCid, [{ field, address }], now)
  if (!decision.allowed) throw refusalError(decision.refusal)
}

/** The rule of the trigger's coin in force now, with the policy's provider entry and client. */
async function ruleOf<Part extends keyof SettlementRule>(container: Parameters<Parameters<typeof createStep>[1]>[1]["container"], input: CryptoSettlementRequestedEvent, part: Part) {
  const service = resolveCryptoModule(container)
  const { entry, client } = await resolveCryptoProvider(container, input.provider_id)
  const now = policyNow()
  const policy = await readMoneyOutPolicy(service, entry.providerId, entry.options.moneyOut, now)
  return { service, entry, client, now, policy, rule: policy.settlement[input.psys_cid]?.[part] ?? null }
}

export const planCryptoConversionStepId = "plan-crypto-conversion"

/**
 * The conversion of one confirmed amount (docs/money-out.md#settlement): under the coin's rule, at
 * least its minimum, to a saved address of the coin bought, and only when the gateway's estimate
 * (spec §4.11) is within the rule's difference to the market value (the gateway's currency list,
 * spec §4.8). A trigger converted before (a retry, another worker) plans nothing: its exchange's
 * idempotency key is the trigger's. A refused estimate or address throws (Needs attention).
 */
export const planCryptoConversionStep = createStep(planCryptoConversionStepId, async (input: CryptoSettlementRequestedEvent, { container }) => {
  const { service, entry, client, now, policy, rule } = await ruleOf(container, input, "convert")
  if (rule === null) return new StepResponse(skipped(`no conversion rule for ${input.psys_cid}`))
  const key = settlementKey("convert", input.subject_id)
  if ((await service.listCryptoExchanges({ idempotency_key: key }, { take: 1, select: ["id"] })).length > 0) return new StepResponse(skipped("converted before"))
  const amount = conversionAmount(rule, input.amount)
  if ("skipped" in amount) return new StepResponse(skipped(amount.skipped))
  await checkSavedAddress(service, policy, entry.providerId, rule.to_currency, rule.to_address, "settlement.convert.to_address", now)
  const estimate = await client.exchanges.estimate({ from_currency: input.psys_cid, to_currency: rule.to_currency, from_amount: amount.amount })
  const estimated = estimate.to_amount
  if (!Decimal.isDecimal(estimated) || !estimated.gt(0)) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `the gateway's estimate for ${amount.amount} ${input.psys_cid} → ${rule.to_currency} does not say what it buys (to_amount)`)
  }
  const rates = await exchangeRatesNow(client, service, await storeDefaultCurrency(container), { from: input.psys_cid, to: rule.to_currency })
  if (rates.from_rate === null || rates.to_rate === null) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `no market rate of ${input.psys_cid} and ${rule.to_currency} to compare the gateway's estimate with`)
  }
  const problem = estimateProblem(rule, input.psys_cid, amount.amount, estimated, rates.from_rate, rates.to_rate)
  if (problem !== null) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, problem)
  const send: CreateCryptoExchangeInput = {
    idempotency_key: key,
    provider_id: entry.providerId,
    from_currency: input.psys_cid,
    to_currency: rule.to_currency,
    to_address: rule.to_address,
    from_amount: amount.amount,
    requested_by: SETTLEMENT_ACTOR,
  }
  return new StepResponse<CryptoSettlementPlan<CreateCryptoExchangeInput>>({ send, skipped: null })
})

/** A coin's sweeps not yet decided: awaiting approval, on their way, of unknown outcome, failed undecided. */
const UNDECIDED_SWEEP_STATUSES = ["awaiting_approval", ...UNSETTLED_WITHDRAWAL_STATUSES, "error", "not_found"]

export const planCryptoSweepStepId = "plan-crypto-sweep"

/**
 * The sweep a trigger makes (docs/money-out.md#settlement), under the coin's lock (the workflow
 * holds it): the coin's balance at the gateway (spec §4.9) above the rule's threshold, to a saved
 * address of the coin. Nothing while an earlier sweep of the coin is undecided (its money may be
 * on its way: an unknown outcome is never a reason to send again), nor for a trigger swept before.
 */
export const planCryptoSweepStep = createStep(planCryptoSweepStepId, async (input: CryptoSettlementRequestedEvent, { container }) => {
  const { service, entry, client, now, policy, rule } = await ruleOf(container, input, "sweep")
  if (rule === null) return new StepResponse(skipped(`no sweep rule for ${input.psys_cid}`))
  const key = settlementKey("sweep", input.subject_id)
  if ((await service.listCryptoWithdrawals({ idempotency_key: key }, { take: 1, select: ["id"] })).length > 0) return new StepResponse(skipped("swept before"))
  const [undecided] = await service.listCryptoWithdrawals(
    { provider_id: entry.providerId, psys_cid: input.psys_cid, idempotency_key: { $like: `${SWEEP_KEY_PREFIX}%` }, status: UNDECIDED_SWEEP_STATUSES, resolution: null },
    { take: 1, select: ["id", "status"] }
  )
  if (undecided !== undefined) return new StepResponse(skipped(`an earlier sweep (${undecided.id}, ${undecided.status}) is not decided yet`))
  await checkSavedAddress(service, policy, entry.providerId, input.psys_cid, rule.to_address, "settlement.sweep.to_address", now)
  const balance = await client.balances.retrieve(input.psys_cid)
  const amount = sweepAmount(rule, balance.balance, await placesOfCoin(client, service, input.psys_cid))
  if (amount === null) return new StepResponse(skipped(`the ${input.psys_cid} balance ${balance.balance.toFixed()} is not above ${rule.threshold}`))
  const send: ReserveCryptoWithdrawalInput = {
    idempotency_key: key,
    provider_id: entry.providerId,
    psys_cid: input.psys_cid,
    fee_plan: "normal",
    recipients: [{ address: rule.to_address, amount }],
    requested_by: SETTLEMENT_ACTOR,
    note: `Sweep of the ${input.psys_cid} balance above ${rule.threshold}`,
  }
  return new StepResponse<CryptoSettlementPlan<ReserveCryptoWithdrawalInput>>({ send, skipped: null })
})
