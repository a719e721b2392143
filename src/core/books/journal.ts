import { exact, fiatMinorUnits, fiatToMinorUnits } from "../money"
import type { BooksRow, BooksRowKind } from "./export"

/**
 * The export as a double-entry journal (docs/books.md#journal): every counted row of money that
 * moved becomes lines `date, account, debit, credit, currency, reference` whose debits equal their
 * credits per currency, row by row. A line is in the store currency when the row has a fiat value,
 * else in the row's coin (a second currency, balanced on its own). Memo rows and rows not counted
 * move no money and have no lines. Pure.
 */

export const JOURNAL_COLUMNS = ["date", "account", "debit", "credit", "currency", "reference"] as const
export type JournalLine = Record<(typeof JOURNAL_COLUMNS)[number], string>

/** The accounts, declared once (docs/books.md#journal). The coins' own accounts are `Crypto:<psys_cid>`. */
export const JOURNAL_ACCOUNTS = {
  sales: "Crypto sales",
  deposits: "Customer deposits",
  refunds: "Refunds",
  sentBack: "Sent back to shoppers",
  withdrawals: "Withdrawals",
  commission: "Gateway commission",
  networkFees: "Network fees",
  exchangeClearing: "Exchange clearing",
  gainLoss: "Realized gain/loss",
} as const

const coinAccount = (psysCid: string | null): string => `Crypto:${psysCid ?? "unknown"}`

/** The account a row's money comes from (money in) or goes to (money out); memo rows move none; an exchange's legs go through the clearing. */
const COUNTER_ACCOUNT: Record<BooksRowKind, string | null> = {
  overpayment: null,
  underpayment: null,
  late_payment: null,
  exchange: JOURNAL_ACCOUNTS.exchangeClearing,
  exchange_in: JOURNAL_ACCOUNTS.exchangeClearing,
  payment: JOURNAL_ACCOUNTS.sales,
  deposit: JOURNAL_ACCOUNTS.deposits,
  refund: JOURNAL_ACCOUNTS.refunds,
  send_back: JOURNAL_ACCOUNTS.sentBack,
  withdrawal: JOURNAL_ACCOUNTS.withdrawals,
  mass_payout: JOURNAL_ACCOUNTS.withdrawals,
}

/** A coin amount of `row` in the journal's currency: its fiat value at the row's rate, else the coins. */
function valueOf(row: BooksRow, coins: string): { amount: string; currency: string } {
  if (row.fiat_currency !== null && row.fiat_value !== null && row.rate !== null) {
    return { amount: fiatToMinorUnits(exact(coins).times(row.rate), row.fiat_currency).toFixed(fiatMinorUnits(row.fiat_currency)), currency: row.fiat_currency }
  }
  return { amount: exact(coins).toFixed(), currency: row.psys_cid ?? "" }
}

/** The row's own value: its fiat value, else its coins. */
const rowValue = (row: BooksRow): { amount: string; currency: string } =>
  row.fiat_currency !== null && row.fiat_value !== null ? { amount: row.fiat_value, currency: row.fiat_currency } : { amount: row.amount ?? "0", currency: row.psys_cid ?? "" }

/** The balanced lines of one export row (none for a memo row or one not counted). */
export function journalLines(row: BooksRow): JournalLine[] {
  const counter = COUNTER_ACCOUNT[row.kind]
  if (row.counted !== "yes" || counter === null || row.amount === null) return []
  const date = (row.paid_at ?? row.created_at ?? "").slice(0, 10)
  const reference = row.reference ?? ""
  const line = (account: string, side: "debit" | "credit", value: { amount: string; currency: string }): JournalLine => {
    // A negative amount is the other side (a realized loss is a debit).
    const negative = exact(value.amount).isNegative()
    const amount = value.amount.replace(/^-/, "")
    const onDebit = (side === "debit") !== negative
    return { date, account, debit: onDebit ? amount : "", credit: onDebit ? "" : amount, currency: value.currency, reference }
  }
  const pair = (debit: string, credit: string, value: { amount: string; currency: string }): JournalLine[] =>
    exact(value.amount).isZero() ? [] : [line(debit, "debit", value), line(credit, "credit", value)]
  const coin = coinAccount(row.psys_cid)
  const value = rowValue(row)
  if (row.kind === "exchange_in") return pair(coin, counter, value)
  if (row.kind === "exchange") {
    // The sold coins leave at their books' value (the row's fiat value, their cost); the clearing
    // takes what was bought (cost + gain, the bought row's value); the difference is the gain.
    if (row.gain_loss === null || row.fiat_currency === null) return pair(counter, coin, value)
    const currency = row.fiat_currency
    const bought = exact(value.amount).plus(row.gain_loss).toFixed(fiatMinorUnits(currency))
    return [
      line(counter, "debit", { amount: bought, currency }),
      line(coin, "credit", value),
      ...(exact(row.gain_loss).isZero() ? [] : [line(JOURNAL_ACCOUNTS.gainLoss, "credit", { amount: row.gain_loss, currency })]),
    ]
  }
  const main = row.direction === "in" ? pair(coin, counter, value) : pair(counter, coin, value)
  const fees = [
    { account: JOURNAL_ACCOUNTS.commission, coins: row.commission },
    { account: JOURNAL_ACCOUNTS.networkFees, coins: row.network_fee },
  ].flatMap((fee) => (fee.coins === null || !exact(fee.coins).gt(0) ? [] : pair(fee.account, coin, valueOf(row, fee.coins))))
  return [...main, ...fees]
}
