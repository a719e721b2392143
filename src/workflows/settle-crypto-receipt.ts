import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import type { CryptoSettlementRequestedEvent } from "../core/events"
import { createCryptoExchangeWorkflow } from "./admin/create-crypto-exchange"
import { createCryptoWithdrawalWorkflow } from "./admin/create-crypto-withdrawal"
import type { CreateCryptoExchangeInput } from "./admin/steps/reserve-crypto-exchange"
import type { ReserveCryptoWithdrawalInput } from "./admin/steps/reserve-crypto-withdrawal"
import { planCryptoConversionStep, planCryptoSweepStep } from "./steps/plan-crypto-settlement"

/** What a settlement did: the exchange or withdrawal it recorded (null: none), or why nothing was sent. */
export interface SettledCryptoReceipt {
  id: string | null
  status: string | null
  skipped: string | null
}

export const convertCryptoReceiptWorkflowId = "convert-crypto-receipt"

/**
 * Converts one confirmed amount under the merchant's rule (docs/money-out.md#settlement): planned
 * (planCryptoConversionStep), then the exchange workflow every exchange takes, under the trigger's
 * idempotency key: recorded once whatever the retries and workers, sent once, the money-out policy
 * and the unknown-outcome rule applied as to the merchant's own exchanges.
 */
export const convertCryptoReceiptWorkflow = createWorkflow(convertCryptoReceiptWorkflowId, (input: CryptoSettlementRequestedEvent) => {
  const plan = planCryptoConversionStep(input)
  const sent = when("crypto-conversion-planned", { plan }, ({ plan }) => plan.send !== null).then(() => {
    const exchange = transform({ plan }, ({ plan }) => plan.send as CreateCryptoExchangeInput)
    return createCryptoExchangeWorkflow.runAsStep({ input: exchange })
  })
  return new WorkflowResponse(
    transform({ plan, sent }, ({ plan, sent }): SettledCryptoReceipt => ({ id: sent?.exchange.id ?? null, status: sent?.exchange.status ?? null, skipped: plan.skipped }))
  )
})

export const sweepCryptoBalanceWorkflowId = "sweep-crypto-balance"

/**
 * Sweeps a coin's balance above the merchant's threshold (docs/money-out.md#settlement), under the
 * coin's lock (one sweep decision per coin at a time, across instances): planned from the balance
 * (planCryptoSweepStep), then the withdrawal workflow every withdrawal takes under the trigger's
 * idempotency key (policy, approval, daily limit, unknown outcomes).
 */
export const sweepCryptoBalanceWorkflow = createWorkflow(sweepCryptoBalanceWorkflowId, (input: CryptoSettlementRequestedEvent) => {
  const key = transform({ input }, ({ input }) => `crypto-sweep:${input.provider_id}:${input.psys_cid}`)
  acquireLockStep({ key, timeout: 60, ttl: 180 })
  const plan = planCryptoSweepStep(input)
  const sent = when("crypto-sweep-planned", { plan }, ({ plan }) => plan.send !== null).then(() => {
    const withdrawal = transform({ plan }, ({ plan }) => plan.send as ReserveCryptoWithdrawalInput)
    return createCryptoWithdrawalWorkflow.runAsStep({ input: withdrawal })
  })
  releaseLockStep({ key })
  return new WorkflowResponse(
    transform({ plan, sent }, ({ plan, sent }): SettledCryptoReceipt => ({ id: sent?.withdrawal.id ?? null, status: sent?.withdrawal.status ?? null, skipped: plan.skipped }))
  )
})
