/** Invoices (spec §4.1). */
import { decimalParam } from "../core/money"
import { parseInvoice } from "../internal/normalizers"
import { commaList, flag, optionalString, positiveInteger, requiredString } from "../internal/query"
import type { RetryMode, Requester } from "../internal/request"
import type { Invoice, InvoiceCreateParams } from "../types/invoices"

export class Invoices {
  constructor(private readonly requester: Requester) {}

  /**
   * `GET /invoices/new`. Retried on transport failures and 5xx only when `return_existing` is set
   * (a repeat then returns the same invoice instead of a duplicate order_number error).
   */
  async create(params: InvoiceCreateParams): Promise<Invoice> {
    const query = {
      order_name: requiredString(params.order_name, "order_name"),
      order_number: requiredString(params.order_number, "order_number"),
      currency: optionalString(params.currency, "currency"),
      amount: params.amount === undefined ? undefined : decimalParam(params.amount, "amount"),
      source_currency: optionalString(params.source_currency, "source_currency"),
      source_amount: params.source_amount === undefined ? undefined : decimalParam(params.source_amount, "source_amount"),
      allowed_psys_cids:
        params.allowed_psys_cids === undefined ? undefined : commaList(params.allowed_psys_cids, "allowed_psys_cids"),
      description: optionalString(params.description, "description"),
      callback_url: optionalString(params.callback_url, "callback_url"),
      success_callback_url: optionalString(params.success_callback_url, "success_callback_url"),
      fail_callback_url: optionalString(params.fail_callback_url, "fail_callback_url"),
      success_invoice_url: optionalString(params.success_invoice_url, "success_invoice_url"),
      fail_invoice_url: optionalString(params.fail_invoice_url, "fail_invoice_url"),
      email: optionalString(params.email, "email"),
      language: optionalString(params.language, "language"),
      plugin: optionalString(params.plugin, "plugin"),
      version: optionalString(params.version, "version"),
      expire_min: positiveInteger(params.expire_min, "expire_min"),
      return_existing: flag(params.return_existing, "return_existing"),
    }
    const retry: RetryMode =
      query.return_existing === undefined
        ? {
            kind: "once",
            howToCheck: `Call invoices.create again with return_existing: true (order_number ${query.order_number}) to get the invoice if it was created`,
          }
        : { kind: "retry" }
    return this.requester.request({
      operation: "invoices.create",
      path: "/invoices/new",
      query,
      retry,
      parse: parseInvoice,
    })
  }
}
