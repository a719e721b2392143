import { Decimal } from "decimal.js"
import type { SettlementRule } from "../config/money-out-policy"
import type { CryptoSettlementRequestedEvent } from "../events"
import { isDecimalString } from "../../gateway"
import { exact } from "../money"
import { statusFacts } from "../payment/payment-state"

/**
 * Settlement (docs/money-out.md#settlement): what the gateway does on its own with a coin the store
 * received once it is confirmed, under the merchant's rules (`settlement` of the money-out policy):
 * convert it through the exchange API (spec §4.11), sweep the balance above a threshold to a saved
 * address (spec §4.2). The decisions are here; the workflows (src/workflows/settle-crypto-receipt.ts)
 * read the gateway and send through the withdrawal and exchange workflows, so every money-out rule,
 * duplicate guard and unknown-outcome rule applies to them as to the merchant's own. Pure.
 */

/** Who History and the audit name as the requester of a settlement's exchange or withdrawal. */
export const SETTLEMENT_ACTOR = "settlement"

/**
 * What an invoice's reading credits its order, for the trigger the apply step makes when it captures
 * the order's payment (docs/money-out.md#settlement): the money is final (spec §3) and the order
 * took it. The amount received less any overpayment (the shopper's until someone decides,
 * docs/attention.md) and less the gateway's commission (spec §2.1: it comes off what the shop is
 * credited, whoever pays it). Money an order did not take (an abandoned invoice, an order a person
 * canceled, an underpayment due back) is never captured, so never settled.
 */
export function settlementOfInvoice(
  invoice: { id: string; provider_id: string; commission: string | null },
  reading: { kind: string | null; gateway_status: string | null; psys_cid: string | null; received_amount: string | null; overpaid_amount: string | null },
  commission: string | null
): { settlement: CryptoSettlementRequestedEvent } | Record<string, never> {
  if (reading.kind !== "paid" || !statusFacts(reading.gateway_status).amountFinal) return {}
  if (reading.psys_cid === null || reading.received_amount === null) return {}
  const credited = exact(reading.received_amount)
    .minus(reading.overpaid_amount ?? "0")
    .minus(commission ?? invoice.commission ?? "0")
  if (!credited.gt(0)) return {}
  return { settlement: { provider_id: invoice.provider_id, psys_cid: reading.psys_cid, subject_id: invoice.id, amount: credited.toFixed() } }
}

/**
 * The trigger of a customer's deposit (spec §6.2): its `completed` callback, what it credited
 * (`amount` less `invoice_commission`). None before it completes, without a coin and amount, or
 * without the commission (a pay_in read back from the operations list names none: what it credited
 * is not known, so it is left as it is).
 */
export function settlementOfPayIn(callback: { provider_id: string; status: string | null; txn_id: string | null; fields: unknown }): CryptoSettlementRequestedEvent | null {
  const fields = typeof callback.fields === "object" && callback.fields !== null ? (callback.fields as Record<string, unknown>) : {}
  const decimal = (key: string): string | null => (typeof fields[key] === "string" && isDecimalString(fields[key] as string) ? (fields[key] as string) : null)
  const psysCid = typeof fields.psys_cid === "string" && fields.psys_cid !== "" ? fields.psys_cid : null
  const amount = decimal("amount")
  const commission = decimal("invoice_commission")
  if (callback.status !== "completed" || callback.txn_id === null || psysCid === null || amount === null || commission === null) return null
  const credited = exact(amount).minus(commission)
  return credited.gt(0) ? { provider_id: callback.provider_id, psys_cid: psysCid, subject_id: `pay_in:${callback.txn_id}`, amount: credited.toFixed() } : null
}

/**
 * The idempotency key of a trigger's conversion or sweep: one exchange and one withdrawal per
 * trigger, whichever worker runs it and however often (the unique key of their records).
 */
export const settlementKey = (part: "convert" | "sweep", subjectId: string): string => `settlement:${part}:${subjectId}`

/** The prefix every sweep's key starts with (a coin's sweeps, for the guard of an undecided one). */
export const SWEEP_KEY_PREFIX = "settlement:sweep:"

/** What a confirmed amount converts, or why not: below the rule's minimum it stays in its coin. */
export function conversionAmount(rule: NonNullable<SettlementRule["convert"]>, amount: string): { amount: string } | { skipped: string } {
  if (!exact(amount).gt(0)) return { skipped: "nothing was credited" }
  if (exact(amount).lt(rule.min_amount)) return { skipped: `${amount} is below the conversion minimum ${rule.min_amount}` }
  return { amount: exact(amount).toFixed() }
}

/**
 * How far the gateway's estimate (`estimated`, of `to_currency`) is below the market value of the
 * coins sold (`amount` × `fromRate` / `toRate`, both rates in the same fiat), in percent; a
 * negative number: above it.
 */
export function shortfallPercent(estimated: Decimal.Value, amount: Decimal.Value, fromRate: Decimal.Value, toRate: Decimal.Value): Decimal {
  const market = exact(amount).times(fromRate).div(toRate)
  return market.minus(estimated).div(market).times(100)
}

/**
 * Why an estimate is refused: more than the rule's `max_difference_percent` below the market value.
 * The words name the figures so the merchant can compare them with the gateway.
 */
export function estimateProblem(rule: NonNullable<SettlementRule["convert"]>, psysCid: string, amount: string, estimated: Decimal.Value, fromRate: Decimal.Value, toRate: Decimal.Value): string | null {
  const shortfall = shortfallPercent(estimated, amount, fromRate, toRate)
  if (shortfall.lte(rule.max_difference_percent)) return null
  return `the gateway's estimate for ${amount} ${psysCid} is ${exact(estimated).toFixed()} ${rule.to_currency}, ${shortfall.toDecimalPlaces(2).toFixed()} % below the market value, more than the rule's ${rule.max_difference_percent} %`
}

/**
 * Whether a completed exchange bought less than it was quoted by more than `maxDifferencePercent`
 * (0 for an exchange no settlement rule bounds: any shortfall is shown).
 */
export function completedShortfall(quoted: Decimal.Value, bought: Decimal.Value, maxDifferencePercent: Decimal.Value): Decimal | null {
  if (!exact(quoted).gt(0)) return null
  const shortfall = exact(quoted).minus(bought).div(quoted).times(100)
  return shortfall.gt(maxDifferencePercent) ? shortfall : null
}

/** What a sweep sends: the balance above the threshold, cut to the coin's places; null when there is none. */
export function sweepAmount(rule: NonNullable<SettlementRule["sweep"]>, balance: Decimal.Value, places: number): string | null {
  const excess = exact(balance).minus(rule.threshold).toDecimalPlaces(places, Decimal.ROUND_DOWN)
  return excess.gt(0) ? excess.toFixed() : null
}
