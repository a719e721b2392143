import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { statusFacts } from "../../core/payment/payment-state"
import { CRYPTO_MODULE } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { syncCryptoInvoiceWorkflow } from "../sync-crypto-invoice"

/**
 * How old the mirror of a still-open invoice may be before a storefront's status poll re-reads it
 * from the gateway (docs/storefront.md, "How fresh is the payment status"). Callbacks keep the mirror
 * current; this bound only matters when one is late or lost. A poll every few seconds by any number
 * of shoppers costs the gateway at most one read per open invoice per bound.
 */
export const PAYMENT_STATUS_STALE_AFTER_MS = 10_000


export function isCryptoInvoiceStale(
  invoice: { gateway_status: string | null; last_synced_at: Date | string | null; created_at: Date | string },
  now: Date,
  staleAfterMs = PAYMENT_STATUS_STALE_AFTER_MS
): boolean {
  // A settled invoice no longer changes (spec §3): never re-read for a poll.
  if (statusFacts(invoice.gateway_status).settled) {
    return false
  }
  const seen = new Date(invoice.last_synced_at ?? invoice.created_at)
  return now.getTime() - seen.getTime() > staleAfterMs
}

export const refreshStaleCryptoInvoiceStepId = "refresh-stale-crypto-invoice"

/**
 * Re-reads an open invoice from the gateway when its mirror is older than the bound, through the
 * same sync every callback uses (so a poll also heals a lost callback: the order is placed). A
 * gateway that fails here changes nothing: the caller answers from the mirror.
 */
export const refreshStaleCryptoInvoiceStep = createStep(refreshStaleCryptoInvoiceStepId, async (input: { invoice_id: string }, { container }) => {
  const cryptoModule = container.resolve<CryptoModuleService>(CRYPTO_MODULE)
  const invoice = await cryptoModule.retrieveCryptoInvoice(input.invoice_id, { select: ["id", "gateway_status", "last_synced_at", "created_at", "txn_id"] })
  if (invoice.txn_id === null || !isCryptoInvoiceStale(invoice, new Date())) {
    return new StepResponse({ refreshed: false })
  }
  const { errors } = await syncCryptoInvoiceWorkflow(container).run({ input: { invoice_id: input.invoice_id }, throwOnError: false })
  if (errors.length > 0) {
    const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    logger.warn(`crypto payment status: re-reading invoice ${input.invoice_id} failed (${errors.map((e) => e.error?.message).join("; ")}); answering from the stored invoice`)
    return new StepResponse({ refreshed: false })
  }
  return new StepResponse({ refreshed: true })
})
