/** Exchanges (spec §4.11). Bodies are undocumented and kept as sent (see types/exchanges.ts). */
import { decimalParam } from "../core/money"
import { parseExchange, parseExchangeCurrencies, parseExchangeEstimate } from "../internal/normalizers"
import { optionalString, pathSegment, requiredString } from "../internal/query"
import type { Requester } from "../internal/request"
import type {
  Exchange,
  ExchangeCreateParams,
  ExchangeCurrencies,
  ExchangeEstimate,
  ExchangeEstimateParams,
} from "../types/exchanges"

/** spec §4.11, §5.3: the exchange list answers 404 with no body in these cases. */
const LIST_404_HINT = "the exchange API is disabled for the shop or this IP is not whitelisted (spec §4.11)"

export class Exchanges {
  constructor(private readonly requester: Requester) {}

  /** `GET /exchanges/list`: the currencies supported for exchange. */
  async currencies(): Promise<ExchangeCurrencies> {
    return this.requester.request({
      operation: "exchanges.currencies",
      path: "/exchanges/list",
      query: {},
      retry: { kind: "retry" },
      parse: parseExchangeCurrencies,
      emptyBodyHints: { 404: LIST_404_HINT },
    })
  }

  /** `GET /exchanges/estimate`. */
  async estimate(params: ExchangeEstimateParams): Promise<ExchangeEstimate> {
    return this.requester.request({
      operation: "exchanges.estimate",
      path: "/exchanges/estimate",
      query: estimateQuery(params),
      retry: { kind: "retry" },
      parse: parseExchangeEstimate,
    })
  }

  /**
   * `GET /exchanges/new`. Never retried: a timeout or a connection lost after sending gives a
   * GatewayOutcomeUnknownError.
   */
  async create(params: ExchangeCreateParams): Promise<Exchange> {
    const query = { ...estimateQuery(params), to_address: requiredString(params.to_address, "to_address") }
    return this.requester.request({
      operation: "exchanges.create",
      path: "/exchanges/new",
      query,
      retry: {
        kind: "once",
        howToCheck: `Check your exchanges (exchanges.retrieve) and balances for an exchange ${query.from_currency} → ${query.to_currency} to ${query.to_address}`,
      },
      parse: parseExchange,
    })
  }

  /** `GET /exchanges/{id}`: the exchange status; 404 when not found. */
  async retrieve(id: string): Promise<Exchange> {
    return this.requester.request({
      operation: "exchanges.retrieve",
      path: `/exchanges/${pathSegment(id, "id")}`,
      query: {},
      retry: { kind: "retry" },
      parse: parseExchange,
    })
  }
}

type EstimateQuery = {
  from_currency: string
  to_currency: string
  from_amount: string | undefined
  to_amount: string | undefined
  amount_currency: string | undefined
}

function estimateQuery(params: ExchangeEstimateParams): EstimateQuery {
  return {
    from_currency: requiredString(params.from_currency, "from_currency"),
    to_currency: requiredString(params.to_currency, "to_currency"),
    from_amount: params.from_amount === undefined ? undefined : decimalParam(params.from_amount, "from_amount"),
    to_amount: params.to_amount === undefined ? undefined : decimalParam(params.to_amount, "to_amount"),
    amount_currency: optionalString(params.amount_currency, "amount_currency"),
  }
}
