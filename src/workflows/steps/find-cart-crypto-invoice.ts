import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { holdingInvoice } from "../../core/account"

/** The crypto invoice a cart is paying now, and the payment session and collection it belongs to. */
export interface CartCryptoInvoice {
  cart_id: string
  invoice_id: string
  provider_id: string
  payment_collection_id: string
  /** The cart's current payment session this invoice pays; null once the cart moved on (order placed, session replaced). */
  session_id: string | null
}

/**
 * One answer for "not ours": an unknown cart and a cart without a crypto invoice look the same to a
 * caller, so the route tells nobody which carts exist.
 */
export const CART_NOT_FOUND_MESSAGE = "Not found"

export const findCartCryptoInvoiceStepId = "find-cart-crypto-invoice"

/**
 * The active invoice of a cart: the one that holds the cart's money (src/core/account.ts
 * `holdingInvoice`): the live invoice of a session the cart's payment collection holds now, never one
 * a new amount superseded; else the paid one; else the latest attempt.
 */
export const findCartCryptoInvoiceStep = createStep(findCartCryptoInvoiceStepId, async (input: { cart_id: string }, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: carts } = await query.graph({
    entity: "cart",
    fields: ["id", "payment_collection.id", "payment_collection.payment_sessions.id"],
    filters: { id: input.cart_id },
  })
  const cart = carts[0]
  const { data: invoices } =
    cart === undefined
      ? { data: [] }
      : await query.graph({
          entity: "crypto_invoice",
          fields: ["id", "attempt", "session_id", "provider_id", "payment_collection_id", "superseded_by", "session_status"],
          filters: { cart_id: input.cart_id },
        })
  if (cart === undefined || invoices.length === 0) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, CART_NOT_FOUND_MESSAGE)
  }
  const sessions: Array<{ id?: unknown } | null> = cart.payment_collection?.payment_sessions ?? []
  const sessionIds = new Set(sessions.map((session) => session?.id))
  const active = holdingInvoice(
    invoices.map((invoice) => ({ ...invoice, attempt: Number(invoice.attempt), superseded_by: invoice.superseded_by ?? null })),
    [...sessionIds].filter((id): id is string => typeof id === "string")
  )
  if (active === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, CART_NOT_FOUND_MESSAGE)
  }
  return new StepResponse<CartCryptoInvoice>({
    cart_id: input.cart_id,
    invoice_id: active.id,
    provider_id: active.provider_id,
    payment_collection_id: cart.payment_collection?.id ?? active.payment_collection_id,
    session_id: sessionIds.has(active.session_id) ? active.session_id : null,
  })
})
