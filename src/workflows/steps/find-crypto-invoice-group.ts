import { randomUUID } from "node:crypto"
import type { IEventBusModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveCryptoModule } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { orderNumberBase } from "../../core/payment/order-number"
import { failureReason } from "../../core/errors"
import { CRYPTO_SETTLEMENT_REQUESTED } from "../../core/events"
import { settlementOfPayIn } from "../../core/money-out/settlement"
import { markCryptoCallbackProcessed } from "./mark-crypto-callback-processed"
import { raiseCryptoAttentions } from "./raise-crypto-attention"

/** What a sync is asked to sync: an invoice, or the invoice a stored delivery names. */
export interface SyncCryptoInvoiceInput {
  /** An invoice (the reconciliation job, the storefront's poll, renewal and top-up). */
  invoice_id?: string
  /** A stored callback delivery (spec §6): its invoice is found and synced, the delivery marked with the outcome. */
  callback_id?: string
}

export interface FoundCryptoInvoiceGroup {
  /** The delivery this sync answers; null when asked for an invoice. */
  callback_id: string | null
  /**
   * How the sync finds the invoice under the lock: by the order number a delivery names (ours,
   * unique) or by id. Null when there is nothing to sync.
   */
  invoice: { order_number: string } | { id: string } | null
  /**
   * The lock of the invoice's cart (or payment collection, the order number's base): every sync of
   * an invoice, its renewals and its top-ups takes it, one at a time. This run is its owner (so a
   * late compensation never releases another run's lock). Null when there is nothing to sync.
   */
  lock: { key: string; owner: string } | null
  /** `matched`: there is an invoice to sync; `recorded`: a `pay_in` deposit, only recorded (spec §6.2); `unmatched`: no invoice of ours. */
  outcome: "matched" | "recorded" | "unmatched"
  /** The delivery's fields, checked against the invoice under the lock; null when asked for an invoice. */
  callback_fields: Record<string, unknown> | null
}

export const findCryptoInvoiceGroupStepId = "find-crypto-invoice-group"

/** The lock every sync of an invoice takes, and the top-up workflow: the order number's base (a cart or payment collection id). */
export function cryptoInvoiceLockKey(orderNumber: string): string {
  return `crypto-invoice:${orderNumberBase(orderNumber)}`
}

/**
 * Where a sync finds its invoice and which lock it takes, before the lock. A delivery that names an
 * order number (spec §6.1: every invoice callback does, a switched invoice's the first one's) is
 * locked by it without reading the invoice: the sync reads the row once, under the lock
 * (docs/architecture.md#the-callback-path). Without one, the invoice is found by `txn_id` (the first
 * or the active invoice of a switch chain), else by `switch_id` (the first invoice's `txn_id`); an
 * invoice id is read for its order number.
 *
 * A delivery with nothing to sync is finished here: a `pay_in` deposit is recorded only (spec §6.2;
 * one whose uid is no customer raises `unmatched_pay_in`, once), an unknown invoice is `unmatched`,
 * and the delivery is marked processed with that outcome. Forward-only, idempotent: one attention
 * row per kind and subject, events only when it is created.
 */
export const findCryptoInvoiceGroupStep = createStep(findCryptoInvoiceGroupStepId, async (input: SyncCryptoInvoiceInput, { container }) => {
  const cryptoModule = resolveCryptoModule(container)
  const lockOf = (orderNumber: string) => ({ key: cryptoInvoiceLockKey(orderNumber), owner: `sync-crypto-invoice:${randomUUID()}` })
  if (input.callback_id === undefined) {
    if (input.invoice_id === undefined) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "syncCryptoInvoiceWorkflow needs an invoice_id or a callback_id")
    }
    const invoice = await cryptoModule.retrieveCryptoInvoice(input.invoice_id, { select: ["id", "order_number"] })
    return new StepResponse<FoundCryptoInvoiceGroup>({ callback_id: null, invoice: { id: invoice.id }, lock: lockOf(invoice.order_number), outcome: "matched", callback_fields: null })
  }
  const callback = await cryptoModule.retrieveCryptoCallback(input.callback_id)
  const fields = callback.fields as Record<string, unknown>
  if (callback.ipn_type === "pay_in") {
    const settlement = (await raiseUnmatchedPayIn(container, callback)) ? settlementOfPayIn(callback) : null
    // A customer's completed deposit: the merchant's settlement rules apply on a worker
    // (docs/money-out.md#settlement); money no customer explains stays as it is until someone decides.
    if (settlement !== null) {
      await container
        .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
        .emit({ name: CRYPTO_SETTLEMENT_REQUESTED, data: settlement })
        .catch((error: unknown) => container.resolve<Logger>(ContainerRegistrationKeys.LOGGER).warn(`crypto pay_in ${callback.txn_id}: could not emit ${CRYPTO_SETTLEMENT_REQUESTED}: ${failureReason(error)}`))
    }
    await markCryptoCallbackProcessed(cryptoModule, callback.id, "recorded")
    return new StepResponse<FoundCryptoInvoiceGroup>({ callback_id: callback.id, invoice: null, lock: null, outcome: "recorded", callback_fields: null })
  }
  if (callback.order_number) {
    return new StepResponse<FoundCryptoInvoiceGroup>({
      callback_id: callback.id,
      invoice: { order_number: callback.order_number },
      lock: lockOf(callback.order_number),
      outcome: "matched",
      callback_fields: fields,
    })
  }
  const candidates: Array<Record<string, string>> = []
  if (callback.txn_id) candidates.push({ txn_id: callback.txn_id }, { active_txn_id: callback.txn_id })
  if (callback.switch_id) candidates.push({ txn_id: callback.switch_id })
  for (const filter of candidates) {
    const [invoice] = await cryptoModule.listCryptoInvoices(filter, { select: ["id", "order_number"], take: 1 })
    if (invoice !== undefined) {
      return new StepResponse<FoundCryptoInvoiceGroup>({ callback_id: callback.id, invoice: { id: invoice.id }, lock: lockOf(invoice.order_number), outcome: "matched", callback_fields: fields })
    }
  }
  await markCryptoCallbackProcessed(cryptoModule, callback.id, "unmatched")
  return new StepResponse<FoundCryptoInvoiceGroup>({ callback_id: callback.id, invoice: null, lock: null, outcome: "unmatched", callback_fields: null })
})

type StoredCallback = Awaited<ReturnType<CryptoModuleService["retrieveCryptoCallback"]>>

/**
 * A deposit address is made for a Medusa customer (its id is the uid, Crypto → Deposits): a pay_in
 * whose uid is no customer is money nobody's account explains. True when a customer's.
 */
async function raiseUnmatchedPayIn(container: MedusaContainer, callback: StoredCallback): Promise<boolean> {
  const fields = callback.fields as Record<string, unknown>
  const text = (key: string) => (typeof fields[key] === "string" && fields[key] !== "" ? (fields[key] as string) : null)
  const uid = text("deposit_uid")
  if (uid !== null && (await isCustomer(container, uid))) {
    return true
  }
  await raiseCryptoAttentions(container, [
    {
      kind: "unmatched_pay_in",
      provider_id: callback.provider_id,
      subject_id: callback.txn_id !== null ? `pay_in:${callback.txn_id}` : callback.id,
      psys_cid: text("psys_cid"),
      currency: text("currency"),
      amount: text("amount"),
      evidence: {
        callback_id: callback.id,
        txn_id: callback.txn_id,
        deposit_uid: uid,
        wallet_hash: text("wallet_hash"),
        status: callback.status,
        confirmations: text("confirmations"),
      },
    },
  ])
  return false
}

async function isCustomer(container: MedusaContainer, uid: string): Promise<boolean> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "customer", fields: ["id"], filters: { id: uid } })
  return data.length > 0
}
