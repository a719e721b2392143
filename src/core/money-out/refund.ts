import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { Decimal } from "decimal.js"
import { resolveCryptoModule } from "../../modules/crypto"
import { holdingInvoice } from "./account"
import { toMedusaError } from "../errors"
import { coinPlaces, exact, fiatMinorUnits, fiatToCoin, storedAmountToDecimalString, sumAmounts } from "../money"
import { isCryptoProviderId, resolveCryptoProvider } from "../config/provider-entry"
import { checkAmounts } from "./withdrawal"

/** How far the rate the admin confirmed may be from the gateway's current one (percent). */
export const RATE_DRIFT_PERCENT = new Decimal(2)

export interface CryptoOrderPayment {
  order_id: string
  currency_code: string
  payment_id: string
  provider_id: string
  payment_collection_id: string
  payment_session_id: string | null
  /** Major units, decimal strings. */
  amount: string
  captured: string
  refunded: string
  /**
   * The fiat value of crypto refunds sent or possibly sent but not (yet) Medusa refunds: requested,
   * sending, outcome unknown, or completed without the Medusa refund recorded. Held until resolved.
   */
  reserved: string
  refundable: string
  data: Record<string, unknown>
}

type Row = Record<string, unknown>
const rows = (value: unknown): Row[] => (Array.isArray(value) ? value.filter((v): v is Row => typeof v === "object" && v !== null) : [])
const str = (value: unknown): string | null => (typeof value === "string" ? value : null)
const sum = (items: Row[], field: string): string => sumAmounts(items.map((item) => storedAmountToDecimalString(item.raw_amount, item.amount, field))).toFixed()

/** The crypto payments of an order, with captured, refunded and refundable amounts. */
export async function listCryptoOrderPayments(scope: MedusaContainer, orderId: string): Promise<{ currency_code: string; payments: CryptoOrderPayment[]; payment_collection_ids: string[] }> {
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "currency_code",
      "payment_collections.id",
      "payment_collections.payments.id",
      "payment_collections.payments.provider_id",
      "payment_collections.payments.payment_session_id",
      "payment_collections.payments.amount",
      "payment_collections.payments.raw_amount",
      "payment_collections.payments.data",
      "payment_collections.payments.captures.amount",
      "payment_collections.payments.captures.raw_amount",
      "payment_collections.payments.refunds.amount",
      "payment_collections.payments.refunds.raw_amount",
    ],
    filters: { id: orderId },
  })
  const order = data[0] as Row | undefined
  if (order === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} was not found`)
  }
  const currency = str(order.currency_code) ?? ""
  const collections = rows(order.payment_collections)
  const reservedBy = await reservedByCryptoRefunds(scope, orderId)
  const payments: CryptoOrderPayment[] = []
  for (const collection of collections) {
    for (const payment of rows(collection.payments)) {
      const providerId = str(payment.provider_id) ?? ""
      if (!isCryptoProviderId(providerId)) continue
      const captured = sum(rows(payment.captures), "capture amount")
      const refunded = sum(rows(payment.refunds), "refund amount")
      const reserved = (reservedBy.get(str(payment.id) ?? "") ?? exact(0)).toFixed()
      payments.push({
        order_id: orderId,
        currency_code: currency,
        payment_id: str(payment.id) ?? "",
        provider_id: providerId,
        payment_collection_id: str(collection.id) ?? "",
        payment_session_id: str(payment.payment_session_id),
        amount: storedAmountToDecimalString(payment.raw_amount, payment.amount, "payment amount"),
        captured,
        refunded,
        reserved,
        refundable: Decimal.max(exact(captured).minus(refunded).minus(reserved), 0).toFixed(),
        data: typeof payment.data === "object" && payment.data !== null ? (payment.data as Record<string, unknown>) : {},
      })
    }
  }
  return { currency_code: currency, payments, payment_collection_ids: collections.map((c) => str(c.id) ?? "").filter((id) => id !== "") }
}

/**
 * Refund withdrawals that hold their fiat value until resolved (see `CryptoOrderPayment.reserved`):
 * an `error` one too while its duplicate guard is kept (failed at the gateway, not yet decided:
 * docs/money-out.md#failed-at-the-gateway).
 */
const RESERVING_STATUSES = ["requested", "sending", "outcome_unknown", "completed", "error"]

/** Per payment id: the fiat value of the order's crypto refunds that are sent or unknown and not Medusa refunds. */
async function reservedByCryptoRefunds(scope: MedusaContainer, orderId: string): Promise<Map<string, Decimal>> {
  const withdrawals = await resolveCryptoModule(scope).listCryptoWithdrawals(
    { order_id: orderId, purpose: "refund", status: RESERVING_STATUSES },
    { select: ["id", "payment_id", "status", "refund_id", "source_amount", "active_fingerprint"] }
  )
  const reserved = new Map<string, Decimal>()
  for (const withdrawal of withdrawals) {
    // Failed at the gateway and released by the merchant's decision: it holds nothing any more.
    if (withdrawal.status === "error" && withdrawal.active_fingerprint === null) continue
    // A completed refund with its Medusa refund is counted in `refunded` already.
    if (withdrawal.payment_id === null || withdrawal.source_amount === null || (withdrawal.status === "completed" && withdrawal.refund_id !== null)) continue
    reserved.set(withdrawal.payment_id, (reserved.get(withdrawal.payment_id) ?? exact(0)).plus(withdrawal.source_amount))
  }
  return reserved
}

export interface CryptoRefundQuote {
  order_id: string
  payment_id: string
  provider_id: string
  psys_cid: string
  currency: string | null
  /** The order's fiat currency, upper case. */
  fiat: string
  amount: string
  refundable: string
  /** Fiat per one coin, now (spec §4.8 `fiat_rate`). */
  rate: string
  coin_amount: string
  precision: number
}

/** The coin the order was paid in: the invoice mirror of the payment's session, else the payment data. */
async function coinOfPayment(scope: MedusaContainer, payment: CryptoOrderPayment): Promise<string> {
  const service = resolveCryptoModule(scope)
  const invoices = await service.listCryptoInvoices({ payment_collection_id: payment.payment_collection_id }, { order: { attempt: "DESC" } })
  // The invoice that holds the payment's money, in the coin it was paid in (after a switch too).
  const paid = holdingInvoice(invoices, [payment.payment_session_id])
  const coin = paid?.psys_cid ?? str(payment.data.psys_cid)
  if (coin === null || coin === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The coin of payment ${payment.payment_id} is unknown: refund it from the gateway's dashboard`)
  }
  return coin
}

/**
 * How much coin a fiat refund of an order paid in crypto sends: `amount` (the order's fiat, at most
 * what is captured and not refunded) at `rate` (fiat per coin: the admin's confirmed rate, which
 * may not be more than 2% from the gateway's current one, or the current one), rounded DOWN to the
 * coin's precision so we never send more than the refund is worth.
 */
export async function quoteCryptoRefund(
  scope: MedusaContainer,
  input: { order_id: string; payment_id?: string; amount?: string; rate?: string }
): Promise<CryptoRefundQuote> {
  const { currency_code, payments } = await listCryptoOrderPayments(scope, input.order_id)
  const payment = input.payment_id ? payments.find((p) => p.payment_id === input.payment_id) : payments.find((p) => new Decimal(p.refundable).gt(0)) ?? payments[0]
  if (payment === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Order ${input.order_id} has no crypto payment${input.payment_id ? ` ${input.payment_id}` : ""} (field: payment_id)`)
  }
  if (input.amount !== undefined) {
    // The fiat amount within its currency's decimals, before anything is asked of the gateway.
    checkAmounts([{ field: "amount", value: input.amount }], fiatMinorUnits(currency_code), currency_code.toUpperCase())
  }
  const amount = exact(input.amount ?? payment.refundable)
  if (amount.lte(0)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Nothing to refund: the amount must be above 0 (refundable: ${payment.refundable} ${currency_code.toUpperCase()}) (field: amount)`)
  }
  if (amount.gt(payment.refundable)) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `The refund of ${amount.toFixed()} ${currency_code.toUpperCase()} is more than the ${payment.refundable} captured and not yet refunded${exact(payment.reserved).gt(0) ? ` (${payment.reserved} is held by crypto refunds sent or not yet resolved)` : ""} (field: amount)`
    )
  }
  const psysCid = await coinOfPayment(scope, payment)
  const fiat = currency_code.toUpperCase()
  const { client } = await resolveCryptoProvider(scope, payment.provider_id)
  let entry
  try {
    entry = (await client.currencies.list(fiat)).find((currency) => currency.cid === psysCid)
  } catch (error) {
    throw toMedusaError(error, "Reading the refund rate")
  }
  const current = entry?.fiat_rate
  if (entry === undefined || current === undefined || current === null || current.lte(0)) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The gateway gives no ${fiat} rate for ${psysCid}: refund from the gateway's dashboard`)
  }
  let rate = current
  if (input.rate !== undefined) {
    rate = exact(input.rate)
    const drift = rate.minus(current).abs().div(current).times(100)
    if (drift.gt(RATE_DRIFT_PERCENT)) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The rate moved: you confirmed ${rate.toFixed()} ${fiat} per ${psysCid}, the gateway now gives ${current.toFixed()}. Review the new amount and confirm again (field: rate)`
      )
    }
  }
  const precision = coinPlaces(entry.precision)
  // Rounded DOWN: never send more coin than the refund is worth.
  const coinAmount = fiatToCoin(amount, rate, precision, "down")
  if (coinAmount.lte(0)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `${amount.toFixed()} ${fiat} is less than the smallest ${psysCid} amount (field: amount)`)
  }
  return {
    order_id: input.order_id,
    payment_id: payment.payment_id,
    provider_id: payment.provider_id,
    psys_cid: psysCid,
    currency: entry.currency ?? null,
    fiat,
    amount: amount.toFixed(),
    refundable: payment.refundable,
    rate: rate.toFixed(),
    coin_amount: coinAmount.toFixed(),
    precision,
  }
}
