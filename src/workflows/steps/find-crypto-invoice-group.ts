import { randomUUID } from "node:crypto"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveCryptoModule } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { checkCallbackAgainstInvoice, describeDiscrepancies, type CallbackDiscrepancy } from "../../core/payment/callback-check"
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
  /** The invoice the delivery names (or the one asked for); null for a `pay_in` deposit or an unknown invoice. */
  invoice_id: string | null
  /**
   * The invoice the sync decides: the invoice itself, or for a top-up the invoice whose rest it asks
   * for (docs/attention.md#paying-the-rest). A root and its top-ups are synced as one, under the
   * root's lock. Null when there is nothing to sync.
   */
  group_id: string | null
  /** The group's lock and this run's owner of it (so a late compensation never releases another run's lock); null when there is nothing to sync. */
  lock: { key: string; owner: string } | null
  /** `matched`: there is an invoice to sync; `recorded`: a `pay_in` deposit, only recorded (spec §6.2); `unmatched`: no invoice of ours. */
  outcome: "matched" | "recorded" | "unmatched"
  /** Where the callback's coin or amounts disagree with our invoice record (logged; the gateway's re-read decides). */
  discrepancies: CallbackDiscrepancy[]
}

export const findCryptoInvoiceGroupStepId = "find-crypto-invoice-group"

/** The lock every sync of an invoice group takes (the top-up workflow takes the same key). */
export function cryptoInvoiceLockKey(groupId: string): string {
  return `crypto-invoice:${groupId}`
}

/** The columns the delivery's invoice is read with: what the group, the callback check and the log need. */
const FOUND_INVOICE_COLUMNS = ["id", "topup_of", "order_number", "txn_id", "active_txn_id", "psys_cid", "currency", "expected_amount", "source_currency", "source_amount"]

/**
 * The invoice group a sync decides, read once, before the group's lock (the lock's key is the
 * group's): for an invoice id, the row's `topup_of`; for a stored delivery, the invoice it names,
 * by `order_number` (ours, unique), else by `txn_id` (the first or the active invoice of a switch
 * chain), else by `switch_id` (the first invoice's `txn_id`, spec §6.1). The callback's coin and
 * amounts are checked against that invoice: a discrepancy is logged as a warning and nothing is
 * decided from the callback (the sync re-reads the invoice from the gateway).
 *
 * A delivery with nothing to sync is finished here: a `pay_in` deposit is recorded only (spec §6.2;
 * one whose uid is no customer raises `unmatched_pay_in`, once), an unknown invoice is `unmatched`,
 * and the delivery is marked processed with that outcome. Forward-only, idempotent: one attention
 * row per kind and subject, events only when it is created.
 */
export const findCryptoInvoiceGroupStep = createStep(findCryptoInvoiceGroupStepId, async (input: SyncCryptoInvoiceInput, { container }) => {
  const cryptoModule = resolveCryptoModule(container)
  const lockOf = (groupId: string) => ({ key: cryptoInvoiceLockKey(groupId), owner: `sync-crypto-invoice:${randomUUID()}` })
  if (input.callback_id === undefined) {
    if (input.invoice_id === undefined) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "syncCryptoInvoiceWorkflow needs an invoice_id or a callback_id")
    }
    const invoice = await cryptoModule.retrieveCryptoInvoice(input.invoice_id, { select: ["id", "topup_of"] })
    const groupId = invoice.topup_of ?? invoice.id
    return new StepResponse<FoundCryptoInvoiceGroup>({ callback_id: null, invoice_id: invoice.id, group_id: groupId, lock: lockOf(groupId), outcome: "matched", discrepancies: [] })
  }
  const callback = await cryptoModule.retrieveCryptoCallback(input.callback_id)
  if (callback.ipn_type === "pay_in") {
    await raiseUnmatchedPayIn(container, callback)
    await markCryptoCallbackProcessed(cryptoModule, callback.id, "recorded")
    return new StepResponse<FoundCryptoInvoiceGroup>({ callback_id: callback.id, invoice_id: null, group_id: null, lock: null, outcome: "recorded", discrepancies: [] })
  }
  const candidates: Array<Record<string, string>> = []
  if (callback.order_number) candidates.push({ order_number: callback.order_number })
  if (callback.txn_id) candidates.push({ txn_id: callback.txn_id }, { active_txn_id: callback.txn_id })
  if (callback.switch_id) candidates.push({ txn_id: callback.switch_id })
  for (const filter of candidates) {
    const [invoice] = await cryptoModule.listCryptoInvoices(filter, { select: FOUND_INVOICE_COLUMNS, take: 1 })
    if (invoice !== undefined) {
      const discrepancies = checkCallbackAgainstInvoice(callback.fields as Record<string, unknown>, invoice)
      if (discrepancies.length > 0) {
        container
          .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
          .warn(
            `crypto callback ${callback.id} (${callback.status ?? "no status"}) does not match crypto invoice ${invoice.order_number}: ${describeDiscrepancies(discrepancies)}; the gateway's re-read of the invoice decides`
          )
      }
      const groupId = invoice.topup_of ?? invoice.id
      return new StepResponse<FoundCryptoInvoiceGroup>({ callback_id: callback.id, invoice_id: invoice.id, group_id: groupId, lock: lockOf(groupId), outcome: "matched", discrepancies })
    }
  }
  await markCryptoCallbackProcessed(cryptoModule, callback.id, "unmatched")
  return new StepResponse<FoundCryptoInvoiceGroup>({ callback_id: callback.id, invoice_id: null, group_id: null, lock: null, outcome: "unmatched", discrepancies: [] })
})

type StoredCallback = Awaited<ReturnType<CryptoModuleService["retrieveCryptoCallback"]>>

/**
 * A deposit address is made for a Medusa customer (its id is the uid, Crypto → Deposits): a pay_in
 * whose uid is no customer is money nobody's account explains.
 */
async function raiseUnmatchedPayIn(container: MedusaContainer, callback: StoredCallback): Promise<void> {
  const fields = callback.fields as Record<string, unknown>
  const text = (key: string) => (typeof fields[key] === "string" && fields[key] !== "" ? (fields[key] as string) : null)
  const uid = text("deposit_uid")
  if (uid !== null && (await isCustomer(container, uid))) {
    return
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
}

async function isCustomer(container: MedusaContainer, uid: string): Promise<boolean> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "customer", fields: ["id"], filters: { id: uid } })
  return data.length > 0
}
