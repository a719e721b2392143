import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { accountOfInvoices } from "../../../../core/account"
import { resolveCryptoModule } from "../../../../modules/crypto"
import type { StoreGetCryptoPaymentStatusType } from "../validators"

const nullableText = (value: unknown): string | null => (typeof value === "string" ? value : null)

/**
 * For the storefront's return page: where the crypto invoice of a cart stands, as last synced
 * from the gateway, and the order id once the order is placed. Reads only (query).
 */
export const GET = async (req: MedusaRequest<unknown, StoreGetCryptoPaymentStatusType>, res: MedusaResponse): Promise<void> => {
  const cartId = req.validatedQuery.cart_id as string
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data: carts } = await query.graph({
    entity: "cart",
    fields: ["id", "completed_at", "payment_collection.id", "payment_collection.status", "payment_collection.payment_sessions.id", "payment_collection.payment_sessions.status"],
    filters: { id: cartId },
  })
  const cart = carts[0]
  if (cart === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart ${cartId} was not found`)
  }
  const { data: orderLinks } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  const sessions: Array<{ id?: unknown; status?: unknown } | null> = cart.payment_collection?.payment_sessions ?? []
  const sessionIds = sessions.map((session) => (typeof session?.id === "string" ? session.id : null))
  const cryptoModule = resolveCryptoModule(req.scope)
  const invoices = await cryptoModule.listCryptoInvoices({ cart_id: cartId })
  // The invoice that holds the cart's money (the live session's, never a superseded one) and its
  // account, every amount in the coin it was paid in (src/core/account.ts).
  const { holding } = await accountOfInvoices(cryptoModule, invoices, { payment_session_ids: sessionIds })
  const current = invoices.find((invoice) => invoice.id === holding?.invoice_id)

  res.json({
    cart_id: cartId,
    order_id: nullableText(orderLinks[0]?.order_id),
    payment_collection_status: nullableText(cart.payment_collection?.status),
    invoice:
      current === undefined
        ? null
        : {
            order_number: current.order_number,
            txn_id: current.active_txn_id ?? current.txn_id,
            invoice_url: current.invoice_url,
            status: current.gateway_status,
            session_status: current.session_status,
            psys_cid: current.psys_cid,
            currency: current.currency,
            source_currency: current.source_currency,
            source_amount: current.source_amount,
            expected_amount: current.expected_amount,
            received_amount: current.received_amount,
            overpaid_amount: current.overpaid_amount,
            underpaid_amount: current.underpaid_amount,
            refund_due_amount: current.refund_due_amount,
            last_synced_at: current.last_synced_at,
            account: holding,
          },
  })
}
