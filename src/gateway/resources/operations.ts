/** Operations: list, details, withdrawals, fee and commission estimates, fee plans (spec §4.2–4.7). */
import { GatewayParameterError } from "../core/errors"
import { decimalParam, type MoneyInput } from "../core/money"
import {
  parseCommissionEstimate,
  parseFeeEstimate,
  parseFeePlans,
  parseOperation,
  parseOperationList,
  parseWithdrawal,
} from "../internal/normalizers"
import { commaList, oneOf, optionalString, pathSegment, positiveInteger, requiredString } from "../internal/query"
import type { Requester } from "../internal/request"
import { FEE_PLANS, WITHDRAWAL_TYPES } from "../types/common"
import type {
  CommissionEstimate,
  CommissionParams,
  FeeEstimate,
  FeeParams,
  FeePlans,
  Operation,
  OperationList,
  OperationListParams,
  Withdrawal,
  WithdrawParams,
} from "../types/operations"

const COMMISSION_TYPES = ["cash_in", "cash_out", "mass_cash_out", "invoice"] as const

export class Operations {
  constructor(private readonly requester: Requester) {}

  /** `GET /operations`: one page, with `_links` and `_meta` (spec §4.3). */
  async list(params: OperationListParams = {}): Promise<OperationList> {
    return this.requester.request({
      operation: "operations.list",
      path: "/operations",
      query: {
        page: positiveInteger(params.page, "page"),
        limit: positiveInteger(params.limit, "limit"),
        shop_id: optionalString(params.shop_id, "shop_id"),
        type: optionalString(params.type, "type"),
        status: optionalString(params.status, "status"),
        currency: optionalString(params.currency, "currency"),
        search: optionalString(params.search, "search"),
      },
      retry: { kind: "retry" },
      parse: parseOperationList,
    })
  }

  /**
   * Every operation matching `params`, page after page from `params.page` (default 1). The next page
   * number comes from `_meta` (`currentPage` < `pageCount`) or, without `_meta`, from the `page`
   * parameter of `_links.next`; the link's host is never contacted (it would get the api_key).
   * Stops on an empty page or when the next page would not move forward.
   */
  async *iterate(params: OperationListParams = {}): AsyncGenerator<Operation, void, undefined> {
    let page = params.page ?? 1
    for (;;) {
      const result = await this.list({ ...params, page })
      yield* result.operations
      const next = nextPage(result, page)
      if (next === undefined || result.operations.length === 0) return
      page = next
    }
  }

  /** `GET /operations/{id}` (spec §4.4). A missing operation is a GatewayNotFoundError (code 111). */
  async retrieve(id: string): Promise<Operation> {
    return this.requester.request({
      operation: "operations.retrieve",
      path: `/operations/${pathSegment(id, "id")}`,
      query: {},
      retry: { kind: "retry" },
      parse: parseOperation,
    })
  }

  /**
   * `GET /operations/withdraw` (spec §4.2). Never retried: a timeout or a connection lost after
   * sending gives a GatewayOutcomeUnknownError; check the operations list before trying again.
   */
  async withdraw(params: WithdrawParams): Promise<Withdrawal> {
    const type = oneOf(params.type, WITHDRAWAL_TYPES, "type")
    if (type === undefined) throw new GatewayParameterError("type", "is required (cash_out or mass_cash_out)")
    const to = listOf(params.to)
    const amounts = listOf(params.amount)
    if (to.length === 0) throw new GatewayParameterError("to", "must hold at least one address")
    if (amounts.length !== to.length) {
      throw new GatewayParameterError("amount", `must hold one amount per address (${to.length} addresses, ${amounts.length} amounts)`)
    }
    if (type === "cash_out" && to.length !== 1) {
      throw new GatewayParameterError("to", `cash_out takes exactly one address, got ${to.length}; use mass_cash_out`)
    }
    const query = {
      currency: requiredString(params.currency, "currency"),
      type,
      to: commaList(to, "to"),
      amount: amounts.map((amount, index) => decimalParam(amount, `amount[${index}]`)).join(","),
      feePlan: oneOf(params.feePlan, FEE_PLANS, "feePlan"),
    }
    return this.requester.request({
      operation: "operations.withdraw",
      path: "/operations/withdraw",
      query,
      retry: {
        kind: "once",
        howToCheck: `Check operations.list({ type: "${type}", currency: "${query.currency}" }) for this withdrawal`,
      },
      parse: parseWithdrawal,
    })
  }

  /** `GET /operations/commission/{psys_cid}` (spec §4.5). */
  async commission(psysCid: string, params: CommissionParams): Promise<CommissionEstimate> {
    return this.requester.request({
      operation: "operations.commission",
      path: `/operations/commission/${pathSegment(psysCid, "psys_cid")}`,
      query: {
        ...estimateQuery(params),
        type: oneOf(params.type, COMMISSION_TYPES, "type"),
        feePlan: oneOf(params.feePlan, FEE_PLANS, "feePlan"),
      },
      retry: { kind: "retry" },
      parse: parseCommissionEstimate,
    })
  }

  /** `GET /operations/fee/{psys_cid}` (spec §4.6). */
  async fee(psysCid: string, params: FeeParams): Promise<FeeEstimate> {
    return this.requester.request({
      operation: "operations.fee",
      path: `/operations/fee/${pathSegment(psysCid, "psys_cid")}`,
      query: { ...estimateQuery(params), feePlan: oneOf(params.feePlan, FEE_PLANS, "feePlan") },
      retry: { kind: "retry" },
      parse: parseFeeEstimate,
    })
  }

  /** `GET /operations/fee-plan/{psys_cid}` (spec §4.7). */
  async feePlans(psysCid: string): Promise<FeePlans> {
    return this.requester.request({
      operation: "operations.feePlans",
      path: `/operations/fee-plan/${pathSegment(psysCid, "psys_cid")}`,
      query: {},
      retry: { kind: "retry" },
      parse: parseFeePlans,
    })
  }
}

function listOf<T>(value: T | readonly T[]): readonly T[] {
  return Array.isArray(value) ? (value as readonly T[]) : [value as T]
}

function estimateQuery(params: FeeParams): { addresses: string; amounts: string } {
  const addresses = listOf(params.addresses)
  const amounts = listOf<MoneyInput>(params.amounts)
  if (amounts.length !== addresses.length) {
    throw new GatewayParameterError("amounts", `must hold one amount per address (${addresses.length} addresses, ${amounts.length} amounts)`)
  }
  return {
    addresses: commaList(addresses, "addresses"),
    amounts: amounts.map((amount, index) => decimalParam(amount, `amounts[${index}]`)).join(","),
  }
}

function nextPage(result: OperationList, current: number): number | undefined {
  const meta = result._meta
  if (meta !== null) {
    return meta.currentPage < meta.pageCount && meta.currentPage + 1 > current ? meta.currentPage + 1 : undefined
  }
  const href = result._links.next?.href
  if (href === undefined) return undefined
  let page: number
  try {
    page = Number(new URL(href, "http://gateway.invalid").searchParams.get("page"))
  } catch {
    return undefined
  }
  return Number.isSafeInteger(page) && page > current ? page : undefined
}
