/** Balances (spec §4.9). */
import { parseBalance } from "../internal/normalizers"
import { pathSegment } from "../internal/query"
import type { Requester } from "../internal/request"
import type { Balance } from "../types/balances"

export class Balances {
  constructor(private readonly requester: Requester) {}

  /** `GET /balances/{psys_cid}`. An unsupported currency is a 422 (code 105). */
  async retrieve(psysCid: string): Promise<Balance> {
    return this.requester.request({
      operation: "balances.retrieve",
      path: `/balances/${pathSegment(psysCid, "psys_cid")}`,
      query: {},
      retry: { kind: "retry" },
      parse: parseBalance,
    })
  }
}
