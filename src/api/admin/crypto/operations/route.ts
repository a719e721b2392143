import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { GatewayNotFoundError, type GatewayClient, type Operation } from "../../../../gateway"
import { toMedusaError } from "../../../../core/errors"
import { resolveCryptoProvider } from "../../../../core/config/provider-entry"
import { toWire } from "../../../../core/money"
import { resolveCryptoModule } from "../../../../modules/crypto"
import type { AdminCryptoOperationsQueryType } from "../validators"
import type { AdminCryptoOperationsResponse } from "../types"
import { invoicesOfOrder, orderSearchOf, ordersOfInvoices, type OrderInvoices } from "./invoice-orders"

type Filters = Omit<AdminCryptoOperationsQueryType, "provider_id">

/**
 * GET /admin/crypto/operations — one page of the gateway's operations with its filters (spec §4.3),
 * with the order (`#12`) of each invoice among them whose cart became one. A search that names an
 * order's display id ("#12", or "12" when an order 12 has invoices of ours) answers that order's
 * invoices, read one by one from the gateway (spec §4.4): the gateway knows our order numbers, not
 * Medusa's display ids. Any other search is the gateway's text search.
 */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoOperationsQueryType>, res: MedusaResponse<AdminCryptoOperationsResponse>) => {
  const { provider_id, ...params } = req.validatedQuery
  const { entry, client } = await resolveCryptoProvider(req.scope, provider_id)
  const store = resolveCryptoModule(req.scope)
  const orderSearch = orderSearchOf(params.search)
  const ofOrder = orderSearch === undefined ? undefined : await invoicesOfOrder(req.scope, store, orderSearch.displayId, entry.providerId)
  try {
    if (orderSearch !== undefined && (ofOrder !== undefined || orderSearch.explicit)) {
      res.json(await orderInvoicesPage(client, ofOrder, params))
      return
    }
    const page = await client.operations.list(params)
    const meta = page._meta ?? { totalCount: page.operations.length, pageCount: 1, currentPage: params.page, perPage: params.limit }
    const invoiceIds = page.operations.filter((operation) => operation.type === "invoice").map((operation) => operation.id)
    res.json({
      operations: toWire(page.operations),
      meta,
      has_next: page._links.next !== undefined && meta.currentPage < meta.pageCount,
      orders: await ordersOfInvoices(req.scope, store, invoiceIds),
    })
  } catch (error) {
    throw toMedusaError(error, "Listing the operations")
  }
}

/** An order's invoices as one page of operations, under the list's other filters; an invoice the gateway no longer has is left out. */
async function orderInvoicesPage(client: GatewayClient, found: OrderInvoices | undefined, params: Filters): Promise<AdminCryptoOperationsResponse> {
  const read = await Promise.all(
    (found?.txnIds ?? []).map((txnId) =>
      client.operations.retrieve(txnId).catch((error: unknown) => {
        if (error instanceof GatewayNotFoundError) return undefined
        throw error
      })
    )
  )
  const matching = read.filter(
    (operation): operation is Operation =>
      operation !== undefined &&
      (params.type === undefined || operation.type === params.type) &&
      (params.status === undefined || operation.status === params.status) &&
      (params.currency === undefined || (operation.psys_cid ?? found?.coins.get(operation.id)) === params.currency)
  )
  const pageCount = Math.max(1, Math.ceil(matching.length / params.limit))
  const operations = matching.slice((params.page - 1) * params.limit, params.page * params.limit)
  return {
    operations: toWire(operations),
    meta: { totalCount: matching.length, pageCount, currentPage: params.page, perPage: params.limit },
    has_next: params.page < pageCount,
    orders: Object.fromEntries(operations.flatMap((operation) => (found?.orders[operation.id] === undefined ? [] : [[operation.id, found.orders[operation.id]]]))),
  }
}
