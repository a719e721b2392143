import { notFound } from "./errors"
import type { SandboxStore } from "./store"
import type { CashIn, Invoice, PayIn, SeedShop, Withdrawal } from "./types"

export type OperationRecord =
  | { type: "invoice"; created_at: number; invoice: Invoice }
  | { type: "cash_out" | "mass_cash_out"; created_at: number; withdrawal: Withdrawal }
  | { type: "pay_in"; created_at: number; payIn: PayIn }
  | { type: "cash_in"; created_at: number; cashIn: CashIn }

/** The invoice, withdrawal, pay_in or cash_in behind an operation record (each has its status and coin). */
export function operationSubject(record: OperationRecord): Invoice | Withdrawal | PayIn | CashIn {
  switch (record.type) {
    case "invoice":
      return record.invoice
    case "pay_in":
      return record.payIn
    case "cash_in":
      return record.cashIn
    default:
      return record.withdrawal
  }
}

/** An operation's id: an invoice is known by its txn_id (spec §2.2). */
export function operationId(record: OperationRecord): string {
  const subject = operationSubject(record)
  return "txn_id" in subject ? subject.txn_id : subject.id
}

/**
 * A shop's operations (spec §2.2, §4.3, §4.4): its invoices, withdrawals, pay_ins and cash_ins,
 * newest first. Exchanges are not operations. A read-only view over the store.
 */
export function listOperations(store: SandboxStore, shop: SeedShop): OperationRecord[] {
  const { invoices, withdrawals, pay_ins, cash_ins } = store.state
  const records: OperationRecord[] = [
    ...Object.values(invoices)
      .filter((i) => i.shop_id === shop.id)
      .map((invoice): OperationRecord => ({ type: "invoice", created_at: invoice.created_at, invoice })),
    ...Object.values(withdrawals)
      .filter((w) => w.shop_id === shop.id)
      .map((withdrawal): OperationRecord => ({ type: withdrawal.type, created_at: withdrawal.created_at, withdrawal })),
    ...Object.values(pay_ins)
      .filter((p) => p.shop_id === shop.id)
      .map((payIn): OperationRecord => ({ type: "pay_in", created_at: payIn.created_at, payIn })),
    ...Object.values(cash_ins)
      .filter((c) => c.shop_id === shop.id)
      .map((cashIn): OperationRecord => ({ type: "cash_in", created_at: cashIn.created_at, cashIn })),
  ]
  return records.sort((a, b) => b.created_at - a.created_at)
}

/** One operation of the shop by id, or 111. */
export function findOperation(store: SandboxStore, shop: SeedShop, id: string): OperationRecord {
  const found = listOperations(store, shop).find((r) => operationId(r) === id)
  if (found === undefined) {
    throw notFound()
  }
  return found
}
