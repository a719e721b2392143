import type { InitiatePaymentInput } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { GatewayClient, Invoice } from "../../gateway"
import type CryptoModuleService from "../../modules/crypto/service"
import { fiatToMinorUnits, sessionAmountToDecimalString, shopperCommission } from "../money"
import type { ResolvedCryptoOptions } from "../config/options"
import { resolveCoinId, type RateCacheStore } from "./currency-cache"
import {
  assessInvoiceChain,
  assessUnderInvoicePolicy,
  gatewayReadingOf,
  statusPolicy,
  storedReadingCoin,
  usableStoredReading,
  type CallbackSource,
  type GatewayReading,
  type OperationReader,
} from "./invoice-chain"
import type { StatusPolicy } from "./payment-state"
import { assessInvoiceGroup, topUpCommission } from "./top-up"

/**
 * A Medusa payment session's side of an invoice (docs/architecture.md#the-provider): what the
 * session's data holds (what the storefront reads, never the key), and where the session's invoice
 * stands. The provider adapts Medusa's payment contract to these.
 */

export type SessionData = Record<string, unknown>

/** A trimmed, non-empty string field of the session data, or undefined. */
export const sessionText = (data: SessionData | undefined, key: string): string | undefined => {
  const value = data?.[key]
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined
}

/**
 * The fiat amount the gateway is sent (`source_amount`, spec §4.1): the session amount rounded
 * half-up to the currency's minor units (`fiatToMinorUnits`). Medusa authorizes and captures the
 * exact session amount; this is only what the invoice is made for.
 */
export function gatewaySourceAmount(amount: InitiatePaymentInput["amount"], currencyCode: string): string {
  const exactAmount = sessionAmountToDecimalString(amount, "amount")
  const rounded = fiatToMinorUnits(exactAmount, currencyCode)
  if (rounded.isZero()) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `amount must be at least one minor unit of ${currencyCode.toUpperCase()}, got ${exactAmount}`)
  }
  return rounded.toFixed()
}

/** The session data of a new invoice: what the storefront may read (white-label shops: the address and amounts too). */
export function sessionDataOf(
  invoice: Invoice,
  context: { sessionId: string; providerId: string; orderNumber: string; sourceAmount: string; sourceCurrency: string },
  whiteLabel: boolean
): SessionData {
  const data: SessionData = {
    session_id: context.sessionId,
    provider_id: context.providerId,
    order_number: context.orderNumber,
    txn_id: invoice.txn_id,
    invoice_url: invoice.invoice_url ?? null,
    source_currency: context.sourceCurrency,
    source_amount: context.sourceAmount,
    status: invoice.status ?? "new",
  }
  if (!whiteLabel) return data
  return {
    ...data,
    psys_cid: invoice.psys_cid ?? null,
    currency: invoice.currency ?? null,
    amount: invoice.amount?.toFixed() ?? null,
    invoice_total_sum: invoice.invoice_total_sum?.toFixed() ?? null,
    commission_amount: shopperCommission(invoice.amount, invoice.invoice_total_sum),
    // Fiat per coin at creation (spec §2.1 `source_rate`), as the gateway's decimal string: the
    // storefront's "1 LTC = 76.47 EUR" line (docs/storefront.md); null when absent or not above zero.
    source_rate: invoice.source_rate !== undefined && invoice.source_rate !== null && invoice.source_rate.gt(0) ? invoice.source_rate.toFixed() : null,
    pending_amount: invoice.pending_amount?.toFixed() ?? null,
    wallet_hash: invoice.wallet_hash ?? null,
    qr_code: invoice.qr_code ?? null,
    expire_utc: invoice.expire_utc ?? null,
    expected_confirmations: invoice.expected_confirmations ?? null,
  }
}

/** The session data with a reading of its invoice on top. */
export function withReading(data: SessionData | undefined, reading: GatewayReading): SessionData {
  return {
    ...(data ?? {}),
    status: reading.gateway_status,
    active_txn_id: reading.active_txn_id,
    received_amount: reading.received_amount,
    overpaid_amount: reading.overpaid_amount,
    refund_due_amount: reading.refund_due_amount,
  }
}

/** What reading a session's invoice needs: our rows, the gateway, and the options in effect for it. */
export interface SessionReadingDeps {
  store: Pick<CryptoModuleService, "listCryptoInvoices"> & RateCacheStore & CallbackSource
  client: { operations: Pick<GatewayClient["operations"], "retrieve">; currencies: Pick<GatewayClient["currencies"], "list"> }
  options: ResolvedCryptoOptions
}

/**
 * Where a session's invoice chain stands, or undefined for a session with no invoice. `stored`
 * (authorize, capture: Medusa's workflows run them from the sync's apply step) takes the reading the
 * sync's assess step kept on the invoice row a moment ago under the invoice's lock, when it is fresh
 * and was made under the same status policy (`usableStoredReading`); otherwise, and always for
 * `gateway`, the gateway is read. One gateway read per paid callback on any instance
 * (docs/architecture.md#one-gateway-read-per-callback).
 */
export async function readSessionInvoice(deps: SessionReadingDeps, data: SessionData | undefined, source: "stored" | "gateway"): Promise<GatewayReading | undefined> {
  const txnId = sessionText(data, "txn_id")
  if (txnId === undefined) return undefined
  const { store, client, options } = deps
  const rows = await store.listCryptoInvoices(
    { txn_id: txnId },
    { select: ["id", "gateway_reading", "psys_cid", "currency", "source_amount", "source_currency"] }
  )
  // The invoice's own policy (order rules by coin and amount, docs/books.md#order-rules), built as
  // the sync's assess step built it: for a stored reading, from the coin it names.
  const facts = {
    psys_cid: rows[0]?.psys_cid ?? sessionText(data, "psys_cid") ?? null,
    source_amount: rows[0]?.source_amount ?? sessionText(data, "source_amount") ?? null,
    source_currency: rows[0]?.source_currency ?? sessionText(data, "source_currency") ?? null,
  }
  if (source === "stored") {
    for (const row of rows) {
      const policy = statusPolicy(options, { ...facts, psys_cid: storedReadingCoin(row.gateway_reading) ?? row.psys_cid })
      const reading = usableStoredReading(row.gateway_reading, txnId, policy)
      if (reading !== undefined) return reading
    }
  }
  const root = { txn_id: txnId, order_number: sessionText(data, "order_number") }
  // An invoice whose rest the shopper paid decides with its top-ups (docs/attention.md#paying-the-rest).
  const topUps = rows.length === 0 ? [] : await store.listCryptoInvoices({ topup_of: rows[0].id }, { order: { created_at: "ASC" } })
  const paying = topUps.filter((row): row is typeof row & { txn_id: string } => row.txn_id !== null)
  const read = async (policy: StatusPolicy, reader: OperationReader): Promise<GatewayReading> => {
    if (paying.length > 0) {
      const group = await assessInvoiceGroup(
        reader,
        store,
        { invoice_id: rows[0].id, ...root },
        paying.map((row) => ({ invoice_id: row.id, txn_id: row.txn_id, order_number: row.order_number, commission: topUpCommission(row.topup_details) })),
        policy
      )
      const { siblings_with_money: _siblings, ...reading } = group.root
      return reading
    }
    return gatewayReadingOf(await assessInvoiceChain(reader, store, root, policy))
  }
  const known = { psys_cid: rows[0]?.psys_cid ?? null, currency: rows[0]?.currency ?? null }
  const coinOf = async (reading: GatewayReading) =>
    reading.psys_cid ?? (facts.source_currency === null ? null : await resolveCoinId(client, store, facts.source_currency, reading.currency, known))
  return (await assessUnderInvoicePolicy(options, facts, client, read, coinOf)).reading
}
