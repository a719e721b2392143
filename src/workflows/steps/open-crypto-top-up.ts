import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Invoice } from "../../gateway"
import { toMedusaError } from "../../core/errors"
import { shopperCommission } from "../../core/money"
import { invoiceLinks, resolveCryptoProvider } from "../../core/config/provider-entry"
import { isClearRefusal } from "../../core/money-out/withdrawal"
import { invoiceBooksAtCreation } from "../../core/payment/invoice-books"
import { releaseCryptoTopUp, reserveCryptoTopUp } from "../../core/payment/top-up"
import { resolveCryptoModule } from "../../modules/crypto"

export const openCryptoTopUpStepId = "open-crypto-top-up"

export interface OpenCryptoTopUpInput {
  /** The invoice that ended short (the root). */
  invoice_id: string
}

/** The part of Query these reads need. */
interface OrderQuery {
  graph(input: { entity: string; fields: string[]; filters: Record<string, unknown> }): Promise<{ data: Array<Record<string, unknown> | undefined> }>
}

/** Whether the cart's order (placed on detection) was canceled: then its rest can no longer be paid. */
export async function cartOrderCanceled(query: OrderQuery, cartId: string | null): Promise<boolean> {
  if (cartId === null) return false
  const { data: links } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  const orderId = links[0]?.order_id
  if (typeof orderId !== "string") return false
  const { data: orders } = await query.graph({ entity: "order", fields: ["id", "status"], filters: { id: orderId } })
  return orders[0]?.status === "canceled"
}

/**
 * Opens the top-up of an invoice that ended short (docs/attention.md#paying-the-rest): our module
 * decides and records it under the cart's lock (`reserveCryptoTopUp`: an open top-up is answered
 * again), then the gateway is asked for an invoice of the shortfall in the same coin (spec §4.1:
 * `currency` + `amount`, only that coin allowed, `return_existing`), and its answer is kept on the
 * row. A clear refusal (spec §7: 4xx) takes the new row back and leaves the root as it was; an
 * unknown outcome keeps it, and asking again asks the gateway for the same order number.
 */
export const openCryptoTopUpStep = createStep(openCryptoTopUpStepId, async (input: OpenCryptoTopUpInput, { container }) => {
  const cryptoModule = resolveCryptoModule(container)
  const root = await cryptoModule.retrieveCryptoInvoice(input.invoice_id)
  const base = root.cart_id ?? root.payment_collection_id
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const plan = await reserveCryptoTopUp(cryptoModule, { root_id: root.id, base, order_canceled: await cartOrderCanceled(query, root.cart_id) })
  if (plan.kind === "refused" || plan.id === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, plan.kind === "refused" ? plan.message : "No rest to pay")
  }
  const row = await cryptoModule.retrieveCryptoInvoice(plan.id)
  if (row.txn_id !== null) {
    return new StepResponse({ invoice_id: row.id, created: false })
  }
  const coin = row.psys_cid
  const amount = row.expected_amount
  if (coin === null || amount === null) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `crypto top-up ${row.order_number} has no coin or amount`)
  }
  const { client, options } = await resolveCryptoProvider(container, root.provider_id, "cached")
  const { data: carts } = root.cart_id === null ? { data: [] } : await query.graph({ entity: "cart", fields: ["email"], filters: { id: root.cart_id } })
  const email: unknown = carts[0]?.email
  let invoice: Invoice
  try {
    invoice = await client.invoices.create({
      order_number: row.order_number,
      order_name: `Order ${root.order_number}: the rest`,
      currency: coin,
      amount,
      // The rest is paid in the coin of the first payment: the two add up (spec §4.1 `allowed_psys_cids`).
      allowed_psys_cids: [coin],
      ...invoiceLinks(options, root.provider_id, root.cart_id ?? undefined, typeof email === "string" ? email : undefined),
      expire_min: options.expireMinutes,
      plugin: "medusa-payment-crypto",
      return_existing: true,
    })
  } catch (error) {
    if (isClearRefusal(error) && plan.kind === "new") {
      await releaseCryptoTopUp(cryptoModule, { id: row.id, base })
    }
    throw toMedusaError(error, "Creating the crypto invoice for the rest")
  }
  await cryptoModule.updateCryptoInvoices({
    id: row.id,
    txn_id: invoice.txn_id,
    active_txn_id: invoice.txn_id,
    invoice_url: invoice.invoice_url ?? null,
    psys_cid: invoice.psys_cid ?? coin,
    currency: invoice.currency ?? row.currency,
    expected_amount: (invoice.invoice_total_sum ?? invoice.amount)?.toFixed() ?? amount,
    gateway_status: invoice.status ?? "new",
    ...invoiceBooksAtCreation(invoice),
    topup_details: {
      wallet_hash: invoice.wallet_hash ?? null,
      qr_code: invoice.qr_code ?? null,
      expire_utc: invoice.expire_utc ?? null,
      expected_confirmations: invoice.expected_confirmations ?? null,
      commission: shopperCommission(invoice.amount, invoice.invoice_total_sum),
    },
  })
  return new StepResponse({ invoice_id: row.id, created: true })
})
