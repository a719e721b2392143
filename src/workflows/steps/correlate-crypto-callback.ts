import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_MODULE } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { checkCallbackAgainstInvoice, describeDiscrepancies, type CallbackDiscrepancy } from "../../core/payment/callback-check"
import { raiseCryptoAttentions } from "./raise-crypto-attention"

export interface CorrelatedCryptoCallback {
  callback_id: string
  /** The invoice mirror the callback belongs to; null for pay_in deposits and unknown invoices. */
  invoice_id: string | null
  /** Why there is no invoice: `pay_in` deposits are only recorded (spec §6.2). */
  outcome: "matched" | "recorded" | "unmatched"
  /** Where the callback's coin or amounts disagree with our invoice record (logged; the gateway's re-read decides). */
  discrepancies: CallbackDiscrepancy[]
}

export const correlateCryptoCallbackStepId = "correlate-crypto-callback"

/**
 * Finds the invoice a stored callback is about: by `order_number` (ours, unique), else by
 * `txn_id` (the first or the active invoice of a switch chain), else by `switch_id` (the first
 * invoice's `txn_id`, spec §6.1). Then checks the callback's coin and amounts against that
 * invoice: a discrepancy is logged as a warning, and nothing is decided from the callback (the
 * next step re-reads the invoice from the gateway).
 */
export const correlateCryptoCallbackStep = createStep(
  correlateCryptoCallbackStepId,
  async (input: { callback_id: string }, { container }) => {
    const cryptoModule = container.resolve<CryptoModuleService>(CRYPTO_MODULE)
    const callback = await cryptoModule.retrieveCryptoCallback(input.callback_id)
    if (callback.ipn_type === "pay_in") {
      const fields = callback.fields as Record<string, unknown>
      const text = (key: string) => (typeof fields[key] === "string" && fields[key] !== "" ? (fields[key] as string) : null)
      const uid = text("deposit_uid")
      // A deposit address is made for a Medusa customer (its id is the uid, Crypto → Deposits): a
      // pay_in whose uid is no customer is money nobody's account explains.
      if (uid === null || !(await isCustomer(container, uid))) {
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
      return new StepResponse<CorrelatedCryptoCallback>({ callback_id: callback.id, invoice_id: null, outcome: "recorded", discrepancies: [] })
    }
    const candidates: Array<Record<string, string>> = []
    if (callback.order_number) candidates.push({ order_number: callback.order_number })
    if (callback.txn_id) candidates.push({ txn_id: callback.txn_id }, { active_txn_id: callback.txn_id })
    if (callback.switch_id) candidates.push({ txn_id: callback.switch_id })
    for (const filter of candidates) {
      const [invoice] = await cryptoModule.listCryptoInvoices(filter, { take: 1 })
      if (invoice !== undefined) {
        const discrepancies = checkCallbackAgainstInvoice(callback.fields as Record<string, unknown>, invoice)
        if (discrepancies.length > 0) {
          container
            .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
            .warn(
              `crypto callback ${callback.id} (${callback.status ?? "no status"}) does not match crypto invoice ${invoice.order_number}: ${describeDiscrepancies(discrepancies)}; the gateway's re-read of the invoice decides`
            )
        }
        return new StepResponse<CorrelatedCryptoCallback>({ callback_id: callback.id, invoice_id: invoice.id, outcome: "matched", discrepancies })
      }
    }
    return new StepResponse<CorrelatedCryptoCallback>({ callback_id: callback.id, invoice_id: null, outcome: "unmatched", discrepancies: [] })
  }
)

async function isCustomer(container: MedusaContainer, uid: string): Promise<boolean> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "customer", fields: ["id"], filters: { id: uid } })
  return data.length > 0
}
