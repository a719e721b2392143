import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { statusFacts } from "../../core/payment/payment-state"
import { CRYPTO_MODULE } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"

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

export const findStaleCryptoInvoiceStepId = "find-stale-crypto-invoice"

/**
 * Whether the storefront's poll re-reads an invoice from the gateway: an open invoice whose mirror
 * is older than the bound. The re-read is the same sync every callback uses (so a poll also heals
 * a lost callback: the order is placed), run as a step of the poll only when this says so
 * (src/workflows/get-crypto-payment-status.ts). Reads only.
 */
export const findStaleCryptoInvoiceStep = createStep(findStaleCryptoInvoiceStepId, async (input: { invoice_id: string }, { container }) => {
  const cryptoModule = container.resolve<CryptoModuleService>(CRYPTO_MODULE)
  const invoice = await cryptoModule.retrieveCryptoInvoice(input.invoice_id, { select: ["id", "gateway_status", "last_synced_at", "created_at", "txn_id"] })
  return new StepResponse({ invoice_id: invoice.id, stale: invoice.txn_id !== null && isCryptoInvoiceStale(invoice, new Date()) })
})

export const reportStaleCryptoInvoiceRefreshStepId = "report-stale-crypto-invoice-refresh"

/**
 * After the poll's re-read: a stale invoice whose sync did not finish (the gateway down) changes
 * nothing, the poll answers from the mirror; this says so in the log. Writes nothing.
 */
export const reportStaleCryptoInvoiceRefreshStep = createStep(
  reportStaleCryptoInvoiceRefreshStepId,
  async (input: { invoice_id: string; stale: boolean; synced: unknown }, { container }) => {
    const refreshed = input.stale && input.synced !== undefined && input.synced !== null
    if (input.stale && !refreshed) {
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .warn(`crypto payment status: re-reading invoice ${input.invoice_id} failed; answering from the stored invoice`)
    }
    return new StepResponse({ refreshed })
  }
)
