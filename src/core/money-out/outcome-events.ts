import type { IEventBusModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { resolveCryptoModule } from "../../modules/crypto"
import { failureReason } from "../errors"
import { CryptoEvents } from "../events"
import { listCurrencies } from "../payment/currency-cache"
import { resolveCryptoProvider } from "../config/provider-entry"

/**
 * Medusa events for money that may have left without the gateway confirming it (docs/events.md).
 * A store subscribes to them to tell the merchant at once (e-mail, chat); the item also waits in
 * the admin until the merchant resolves it.
 */
export const CryptoOutcomeEvents = {
  WITHDRAWAL_OUTCOME_UNKNOWN: CryptoEvents.WITHDRAWAL_OUTCOME_UNKNOWN,
  REFUND_OUTCOME_UNKNOWN: CryptoEvents.REFUND_OUTCOME_UNKNOWN,
  EXCHANGE_OUTCOME_UNKNOWN: CryptoEvents.EXCHANGE_OUTCOME_UNKNOWN,
} as const

/** The payload of each event: amounts are decimal strings in the coin named beside them. */
export interface CryptoOutcomeUnknownPayload {
  id: string
  provider_id: string
  order_id?: string | null
  psys_cid: string
  currency: string
  amount: string
}

/**
 * Emits through Medusa's event bus. A failure to emit is logged, never thrown: the record of the
 * unknown outcome is what counts, and it is already stored.
 */
export async function emitOutcomeUnknown(scope: MedusaContainer, name: string, data: Omit<CryptoOutcomeUnknownPayload, "currency">): Promise<void> {
  try {
    const payload: CryptoOutcomeUnknownPayload = { ...data, currency: await coinCodeOf(scope, data.provider_id, data.psys_cid) }
    await scope.resolve<IEventBusModuleService>(Modules.EVENT_BUS).emit({ name, data: payload })
  } catch (error) {
    const logger = scope.resolve<{ warn: (message: string) => void }>(ContainerRegistrationKeys.LOGGER)
    logger.warn(`Could not emit ${name} for ${data.id}: ${failureReason(error)}`)
  }
}

/** The coin code (`USDT` for `USDT_TRX`, spec §2.4) from the cached currency list; the coin id when unknown. */
async function coinCodeOf(scope: MedusaContainer, providerId: string, psysCid: string): Promise<string> {
  try {
    const { client } = await resolveCryptoProvider(scope, providerId)
    const currencies = await listCurrencies(client, resolveCryptoModule(scope), "USD")
    return currencies.find((currency) => currency.psys_cid === psysCid)?.currency ?? psysCid
  } catch {
    return psysCid
  }
}
