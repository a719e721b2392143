import type { GatewayClient } from "../../gateway"
import type CryptoModuleService from "../../modules/crypto/service"
import { callbackAmountsByInvoice, type StoredCallbackAmounts } from "./callback-hints"
import { decideInvoiceChain, readInvoiceChain, type ChainDecision } from "./gateway"
import type { StatusPolicy } from "./status"

/** The invoice we created: its `txn_id` (first of any switch chain) and our `order_number`. */
export interface AssessedInvoice {
  txn_id: string
  order_number: string | undefined
}

/**
 * Asks the gateway where an invoice and its switch chain stand, and maps that through the status
 * map. The one assessment every path uses (authorizePayment, callbacks, the reconciliation job):
 * the gateway's answer decides money states, never a callback alone.
 *
 * The chain is the invoice, its `child_ids` (spec §2.2, white-label shops only) and every invoice
 * a verified callback tied to it (`switch_id` or our `order_number`, spec §6.1): a shop without
 * white-label sees the switched invoices only through their callbacks.
 */
export async function assessInvoice(
  client: GatewayClient,
  cryptoModule: CryptoModuleService | undefined,
  invoice: AssessedInvoice,
  policy: StatusPolicy
): Promise<ChainDecision> {
  const callbacks: StoredCallbackAmounts[] = []
  if (cryptoModule !== undefined) {
    const filters: Array<Record<string, string>> = [{ txn_id: invoice.txn_id }, { switch_id: invoice.txn_id }]
    if (invoice.order_number !== undefined) {
      filters.push({ order_number: invoice.order_number })
    }
    const stored = await cryptoModule.listCryptoCallbacks({ $or: filters }, { select: ["txn_id", "fields", "created_at"] })
    for (const callback of stored) {
      callbacks.push({ txn_id: callback.txn_id, fields: callback.fields as Record<string, unknown>, created_at: callback.created_at })
    }
  }
  const related = new Set<string>()
  for (const callback of callbacks) {
    if (callback.txn_id !== null && callback.txn_id !== invoice.txn_id) related.add(callback.txn_id)
  }
  const chain = await readInvoiceChain(client, invoice.txn_id, [...related])
  return decideInvoiceChain(chain, callbackAmountsByInvoice(callbacks), policy)
}
