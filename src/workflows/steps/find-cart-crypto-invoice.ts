import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { holdingInvoice } from "../../core/money-out/account"

/** The crypto invoice a cart is paying now, and the payment session and collection it belongs to. */
export interface CartCryptoInvoice {
  cart_id: string
  /**
   * The cart's current invoice: the live invoice of a payment session the cart's collection holds
   * now. Null when there is none (the cart changed and Medusa deleted the session, no new one yet).
   */
  invoice_id: string | null
  /** The invoice to re-read and renew: the current one, else the cart's latest attempt. */
  latest_invoice_id: string
  provider_id: string
  payment_collection_id: string
  /** The cart's current payment session the current invoice pays; null when there is no current invoice. */
  session_id: string | null
  /** The payment sessions the cart's collection holds now (Medusa deletes a session when the cart changes). */
  live_session_ids: string[]
  /** The cart has crypto invoices but none of them pays it any more (its session was deleted). */
  cart_changed: boolean
}

/**
 * One answer for "not ours", naming the cart the caller sent: an unknown cart, a cart outside the
 * publishable key's sales channels and a cart without a crypto invoice read the same, so the route
 * tells nobody which carts exist, and a storefront developer sees which cart id it sent.
 */
export function cartNotFound(cartId: string): MedusaError {
  return new MedusaError(
    MedusaError.Types.NOT_FOUND,
    `No crypto payment found for cart ${cartId}: the cart does not exist, belongs to a sales channel this publishable key does not cover, or has no crypto payment session yet`
  )
}

/**
 * A cart a storefront may read: it exists and belongs to one of the sales channels of the
 * request's publishable key (as Medusa scopes its own store routes). Else 404 (cartNotFound).
 */
export function assertCartInSalesChannels(cartId: string, cart: { sales_channel_id?: unknown } | undefined, salesChannelIds: readonly string[]): void {
  if (cart === undefined || typeof cart.sales_channel_id !== "string" || !salesChannelIds.includes(cart.sales_channel_id)) {
    throw cartNotFound(cartId)
  }
}

export const findCartCryptoInvoiceStepId = "find-cart-crypto-invoice"

/**
 * The current invoice of a cart: the one that pays a payment session the cart's collection holds
 * now (src/core/money-out/account.ts `holdingInvoice` among those): never one whose session Medusa deleted
 * (the cart changed), never one a new amount superseded, never a reservation the gateway never
 * answered (no `txn_id`: nothing a shopper could pay). The gateway cannot cancel an invoice
 * (spec §4), so an abandoned invoice stays payable: what it receives is shown for what it is
 * (read-crypto-payment-status.ts, `abandoned_payments`), never as the cart's payment.
 */
export const findCartCryptoInvoiceStep = createStep(
  findCartCryptoInvoiceStepId,
  async (input: { cart_id: string; sales_channel_ids: string[] }, { container }) => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data: carts } = await query.graph({
      entity: "cart",
      fields: ["id", "sales_channel_id", "payment_collection.id", "payment_collection.payment_sessions.id"],
      filters: { id: input.cart_id },
    })
    const cart = carts[0]
    assertCartInSalesChannels(input.cart_id, cart, input.sales_channel_ids)
    const { data: rows } = await query.graph({
      entity: "crypto_invoice",
      fields: ["id", "attempt", "session_id", "provider_id", "payment_collection_id", "superseded_by", "session_status", "txn_id", "topup_of"],
      filters: { cart_id: input.cart_id },
    })
    // A top-up pays its root's session with the root (docs/attention.md#paying-the-rest): the root is the cart's invoice.
    const invoices = rows
      .filter((invoice) => typeof invoice.txn_id === "string" && invoice.txn_id !== "" && (invoice.topup_of === null || invoice.topup_of === undefined))
      .map((invoice) => ({ ...invoice, attempt: Number(invoice.attempt), superseded_by: invoice.superseded_by ?? null }))
    const latest = [...invoices].sort((a, b) => b.attempt - a.attempt)[0]
    if (latest === undefined) {
      throw cartNotFound(input.cart_id)
    }
    const sessions: Array<{ id?: unknown } | null> = cart.payment_collection?.payment_sessions ?? []
    const liveSessionIds = sessions.map((session) => session?.id).filter((id): id is string => typeof id === "string")
    const live = invoices.filter((invoice) => invoice.superseded_by === null && liveSessionIds.includes(invoice.session_id))
    const current = holdingInvoice(live, liveSessionIds)
    return new StepResponse<CartCryptoInvoice>({
      cart_id: input.cart_id,
      invoice_id: current?.id ?? null,
      latest_invoice_id: current?.id ?? latest.id,
      provider_id: (current ?? latest).provider_id,
      payment_collection_id: cart.payment_collection?.id ?? (current ?? latest).payment_collection_id,
      session_id: current?.session_id ?? null,
      live_session_ids: liveSessionIds,
      cart_changed: current === undefined,
    })
  }
)
