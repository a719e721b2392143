import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_MODULE } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { ERROR_POLL_HOURS, INVOICE_STATUSES, STATUS_FACTS } from "../../core/payment/payment-state"

export interface CryptoReconcileWork {
  /**
   * Invoices still pending (or placed on detection) and not synced for a while, invoices the
   * gateway reported in `error` less than ERROR_POLL_HOURS ago (a later `completed` still captures),
   * and abandoned invoices (session deleted by a cart change) the gateway has not finished.
   */
  invoice_ids: string[]
  /** Stored deliveries whose processing never finished (a crash, a failed workflow). */
  callback_ids: string[]
}

const SETTLED_GATEWAY_STATUSES = INVOICE_STATUSES.filter((status) => STATUS_FACTS[status].settled)

export const listCryptoWorkStepId = "list-crypto-reconcile-work"

/** What the reconciliation job has to look at (our module's tables only; no gateway call). */
export const listCryptoWorkStep = createStep(
  listCryptoWorkStepId,
  async (input: { older_than_seconds: number; limit: number }, { container }) => {
    const cryptoModule = container.resolve<CryptoModuleService>(CRYPTO_MODULE)
    const before = new Date(Date.now() - input.older_than_seconds * 1000)
    const errorSince = new Date(Date.now() - ERROR_POLL_HOURS * 3600 * 1000)
    const invoices = await cryptoModule.listCryptoInvoices(
      {
        txn_id: { $ne: null },
        updated_at: { $lt: before },
        superseded_by: null,
        $or: [
          { session_status: ["pending", "pending_authorization"], protected_at: null },
          // Its order left as a person set it (docs/books.md#protect-order-status): read until the
          // gateway settles it, then no read may move that order any more.
          { session_status: ["pending", "pending_authorization"], protected_at: { $ne: null }, gateway_status: { $nin: [...SETTLED_GATEWAY_STATUSES] } },
          { session_status: "error", errored_at: { $gt: errorSince } },
          // Abandoned by a cart change: read while the gateway may still take money on it, so its
          // money stays visible in Needs attention until someone decides.
          { session_status: "abandoned", gateway_status: { $nin: [...SETTLED_GATEWAY_STATUSES] } },
          // An order placed on detection that waited for the rest in vain: the sync cancels it
          // (docs/attention.md#paying-the-rest).
          { session_status: "canceled", rest_until: { $lt: new Date() } },
        ],
      },
      { select: ["id"], take: input.limit, order: { updated_at: "ASC" } }
    )
    const callbacks = await cryptoModule.listCryptoCallbacks(
      { processed_at: null, created_at: { $lt: before } },
      { select: ["id"], take: input.limit, order: { created_at: "ASC" } }
    )
    return new StepResponse<CryptoReconcileWork>({
      invoice_ids: invoices.map((invoice) => invoice.id),
      callback_ids: callbacks.map((callback) => callback.id),
    })
  }
)
