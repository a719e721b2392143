import type { InferTypeOf } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { checkExchangeAmounts } from "../../../core/money-out/exchange"
import { resolveCryptoProvider } from "../../../core/config/provider-entry"
import { admitMoneyOut, auditAllowed, policyNow, type MoneyOutRequest } from "../../../core/money-out/policy"
import { resolveCryptoModule } from "../../../modules/crypto"
import type { CryptoExchange } from "../../../modules/crypto/models/crypto-exchange"

export type CryptoExchangeRecord = InferTypeOf<typeof CryptoExchange>

export interface CreateCryptoExchangeInput {
  idempotency_key: string
  from_currency: string
  to_currency: string
  to_address: string
  from_amount?: string
  to_amount?: string
  amount_currency?: string
  provider_id?: string
  requested_by?: string | null
}

export interface CryptoExchangeReservation {
  exchange: CryptoExchangeRecord
  /** True when this request recorded the exchange and so is the one that may create it. */
  reserved: boolean
}

export const reserveCryptoExchangeStepId = "reserve-crypto-exchange"

/**
 * Records the exchange under its idempotency key BEFORE the gateway is called (as withdrawals do,
 * reserve-crypto-withdrawal.ts): whoever inserts the row is the only one that calls the gateway; a
 * second request with the key gets the recorded exchange back, or a clear error when the key was
 * used for another exchange. Its payout address obeys the money-out policy as a withdrawal's does
 * (docs/money-out.md#money-out-policy): a saved address of `to_currency`, past its cooling-off.
 */
export const reserveCryptoExchangeStep = createStep(reserveCryptoExchangeStepId, async (input: CreateCryptoExchangeInput, { container }) => {
  const service = resolveCryptoModule(container)
  const { entry, client } = await resolveCryptoProvider(container, input.provider_id)
  const same = (existing: CryptoExchangeRecord): CryptoExchangeRecord => {
    const differs =
      existing.from_currency !== input.from_currency ||
      existing.to_currency !== input.to_currency ||
      existing.to_address !== input.to_address ||
      existing.from_amount !== (input.from_amount ?? null) ||
      existing.to_amount !== (input.to_amount ?? null)
    if (differs) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `idempotency_key "${input.idempotency_key}" was already used for another exchange (${existing.id}); a new exchange needs a new key (field: idempotency_key)`
      )
    }
    return existing
  }
  const findByKey = async () => (await service.listCryptoExchanges({ idempotency_key: input.idempotency_key }, { take: 1 }))[0]

  const existing = await findByKey()
  if (existing !== undefined) {
    return new StepResponse<CryptoExchangeReservation>({ exchange: same(existing), reserved: false })
  }
  // Each amount within its coin's places (docs/money-out.md#amounts), before anything is recorded or created.
  await checkExchangeAmounts(client, service, input)
  const policed: MoneyOutRequest = {
    kind: "exchange",
    provider_id: entry.providerId,
    psys_cid: input.to_currency,
    payees: [{ field: "to_address", address: input.to_address }],
    actor: input.requested_by ?? null,
    details: { from_currency: input.from_currency, to_currency: input.to_currency, from_amount: input.from_amount ?? null, to_amount: input.to_amount ?? null, to_address: input.to_address, idempotency_key: input.idempotency_key },
  }
  const admitted = await admitMoneyOut(service, entry.options.moneyOut, policed, policyNow())
  try {
    const created = await service.createCryptoExchanges({
      idempotency_key: input.idempotency_key,
      provider_id: entry.providerId,
      from_currency: input.from_currency,
      to_currency: input.to_currency,
      from_amount: input.from_amount ?? null,
      to_amount: input.to_amount ?? null,
      amount_currency: input.amount_currency ?? null,
      to_address: input.to_address,
      status: "requested",
      requested_by: input.requested_by ?? null,
      requested_at: new Date(),
    })
    await auditAllowed(service, policed, created.id, admitted.address_ids)
    return new StepResponse<CryptoExchangeReservation>({ exchange: created, reserved: true })
  } catch (error) {
    // Lost a race on the unique key: the winner sends.
    const raced = await findByKey()
    if (raced !== undefined) {
      return new StepResponse<CryptoExchangeReservation>({ exchange: same(raced), reserved: false })
    }
    throw error
  }
})
