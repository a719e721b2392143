/**
 * White-label deposit addresses (spec §4.10). Two path spellings exist and the spec does not say
 * which is current: the client tries `/shops/deposit…` first, falls back to `/shop/deposit…` on a
 * 404, and remembers the one that answered for the life of the client
 * (docs/gateway-readings.md#deposits-routes).
 */
import { GatewayNotFoundError, GatewayParameterError } from "../core/errors"
import { parseDeposit, parseDepositArray } from "../internal/normalizers"
import { commaList, optionalString, positiveInteger, type QueryParams } from "../internal/query"
import type { Requester } from "../internal/request"
import type { Deposit, DepositCreateParams, DepositListParams } from "../types/deposits"

/** The path prefixes in the order they are tried. */
export const DEPOSIT_PREFIXES = ["/shops/deposit", "/shop/deposit"] as const
export type DepositPrefix = (typeof DEPOSIT_PREFIXES)[number]

/** spec §2.7, §8: uid is at most 255 characters. */
const MAX_UID_LENGTH = 255

export class Deposits {
  private prefix: DepositPrefix | undefined

  constructor(private readonly requester: Requester) {}

  /** The prefix that answered last, once known. */
  get resolvedPrefix(): DepositPrefix | undefined {
    return this.prefix
  }

  /**
   * `GET /shops/deposit/new`. One psys_cid gives one deposit; an array gives an array. Retried on
   * transport failures and 5xx: the address is tied to the uid, so a repeat returns the same one.
   */
  async create(params: DepositCreateParams & { psys_cid: string }): Promise<Deposit>
  async create(params: DepositCreateParams & { psys_cid: readonly string[] }): Promise<Deposit[]>
  async create(params: DepositCreateParams): Promise<Deposit | Deposit[]>
  async create(params: DepositCreateParams): Promise<Deposit | Deposit[]> {
    const uid = checkUid(params.uid, true)
    const many = typeof params.psys_cid !== "string"
    const query = { psys_cid: commaList(params.psys_cid, "psys_cid"), uid }
    return this.withFallback("deposits.create", "/new", query, (data) =>
      many ? parseDepositArray(data) : parseDeposit(Array.isArray(data) && data.length === 1 ? data[0] : data)
    )
  }

  /** `GET /shops/deposit`: one page of deposits (default page 1, limit 20, spec §8). */
  async list(params: DepositListParams = {}): Promise<Deposit[]> {
    const query = {
      uid: params.uid === undefined ? undefined : checkUid(params.uid, false),
      psys_cid: params.psys_cid === undefined ? undefined : commaList(params.psys_cid, "psys_cid"),
      page: positiveInteger(params.page, "page"),
      limit: positiveInteger(params.limit, "limit"),
    }
    return this.withFallback("deposits.list", "", query, parseDepositArray)
  }

  private async withFallback<T>(operation: string, suffix: string, query: QueryParams, parse: (data: unknown) => T): Promise<T> {
    const candidates = this.prefix === undefined ? DEPOSIT_PREFIXES : [this.prefix]
    let lastError: unknown
    for (const prefix of candidates) {
      try {
        const result = await this.requester.request({
          operation,
          path: `${prefix}${suffix}`,
          query,
          retry: { kind: "retry" },
          parse,
        })
        this.prefix = prefix
        return result
      } catch (error: unknown) {
        if (!(error instanceof GatewayNotFoundError) || this.prefix !== undefined) throw error
        lastError = error
      }
    }
    throw lastError
  }
}

function checkUid(uid: string, required: boolean): string {
  const value = required ? uid : optionalString(uid, "uid")
  if (typeof value !== "string" || value === "") throw new GatewayParameterError("uid", "must be a non-empty string")
  if ([...value].length > MAX_UID_LENGTH) {
    throw new GatewayParameterError("uid", `must be at most ${MAX_UID_LENGTH} characters`)
  }
  return value
}
