/** Supported cryptocurrencies (spec §4.8). */
import { parseCurrencies } from "../internal/normalizers"
import { pathSegment } from "../internal/query"
import type { Requester } from "../internal/request"
import type { Currency } from "../types/currencies"

export class Currencies {
  constructor(private readonly requester: Requester) {}

  /** `GET /currencies` (rates in USD) or `GET /currencies/{fiat}` (rates in that fiat). */
  async list(fiat?: string): Promise<Currency[]> {
    return this.requester.request({
      operation: "currencies.list",
      path: fiat === undefined ? "/currencies" : `/currencies/${pathSegment(fiat, "fiat")}`,
      query: {},
      retry: { kind: "retry" },
      parse: parseCurrencies,
    })
  }
}
