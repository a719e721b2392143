import { Decimal } from "decimal.js"
import type { CallbackAmounts } from "./gateway"

export interface StoredCallbackAmounts {
  txn_id: string | null
  fields: Record<string, unknown>
  created_at: Date | string
}

const DECIMAL = /^\d+(\.\d+)?$/

function decimalField(fields: Record<string, unknown>, name: string): Decimal | undefined {
  const value = fields[name]
  return typeof value === "string" && DECIMAL.test(value.trim()) ? new Decimal(value.trim()) : undefined
}

/**
 * The amounts of the latest verified callback per invoice (spec §6.1: `amount` is what was
 * received, `invoice_total_sum` what the invoice asks). Used when the operation itself carries no
 * amounts (shops without white-label, spec §2.2).
 */
export function callbackAmountsByInvoice(callbacks: readonly StoredCallbackAmounts[]): Map<string, CallbackAmounts> {
  const latest = new Map<string, StoredCallbackAmounts>()
  for (const callback of callbacks) {
    if (callback.txn_id === null) continue
    const seen = latest.get(callback.txn_id)
    if (seen === undefined || new Date(callback.created_at).getTime() >= new Date(seen.created_at).getTime()) {
      latest.set(callback.txn_id, callback)
    }
  }
  const amounts = new Map<string, CallbackAmounts>()
  for (const [txnId, callback] of latest) {
    amounts.set(txnId, {
      received: decimalField(callback.fields, "amount"),
      expected: decimalField(callback.fields, "invoice_total_sum") ?? decimalField(callback.fields, "invoice_sum"),
    })
  }
  return amounts
}
