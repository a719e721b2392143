import { isDecimalString } from "../lib/amount.js"
import { CRYPTO_REFUND_CLAIM_STATUSES, type CryptoRefundClaim, type CryptoRefundClaimStatus } from "../refund-claim-types.js"
import { CryptoStoreError, CryptoStoreUnreachableError, storeRequest, type StoreConnection } from "./store-client.js"

/**
 * Refunds the shopper claims (docs/money-out.md, "Refunds the shopper claims"): read a claim by the
 * token of its link, and claim it to an address. The token is the shopper's only credential: it goes
 * in the query or the body, never in a log line of these helpers.
 */

export interface RefundClaimQuery extends StoreConnection {
  /** The token of the refund link (the `token` query parameter of the claim page). */
  token: string
}

export interface ClaimRefundInput extends RefundClaimQuery {
  /** The shopper's address for the coin's network (check it with `validateCryptoAddress` first). */
  address: string
}

/** The store refused a claim (400): expired, withdrawn, already claimed, or an address it does not accept. */
export class CryptoRefundClaimRefusedError extends CryptoStoreError {
  /** Why, in the store's words ("The refund link has expired"). */
  readonly reason: string

  constructor(reason: string, path: string, cause: CryptoStoreError) {
    super(`${path}: the claim was refused: ${reason}`, 400, path, { cause })
    this.name = "CryptoRefundClaimRefusedError"
    this.reason = reason
  }
}

const PATH = "/store/crypto/refund-claims"
const STATUSES: ReadonlySet<string> = new Set(CRYPTO_REFUND_CLAIM_STATUSES)
const isClaimStatus = (value: unknown): value is CryptoRefundClaimStatus => typeof value === "string" && STATUSES.has(value)
const NULLABLE_TEXT_FIELDS = ["currency", "network", "address", "tx_url", "error"] as const

function requireText(value: unknown, name: "token" | "address", example: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(`${name} is required: ${example}`)
  }
  return value.trim()
}

function fail(path: string, field: string, expected: string): never {
  throw new CryptoStoreError(`${path}: ${field} must be ${expected}`, 200, path)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** Checks a `{ claim }` body: the status is one the kit knows and the amount a decimal string (never a float). */
export function parseRefundClaim(body: unknown, path = PATH): CryptoRefundClaim {
  if (!isRecord(body) || !isRecord(body.claim)) fail(path, "claim", "an object")
  const claim = body.claim
  if (!isClaimStatus(claim.status)) fail(path, "claim.status", `one of ${CRYPTO_REFUND_CLAIM_STATUSES.join(", ")}`)
  if (!isDecimalString(claim.amount)) fail(path, "claim.amount", 'a decimal string such as "0.00052000"')
  if (typeof claim.psys_cid !== "string" || claim.psys_cid === "") fail(path, "claim.psys_cid", "a coin id")
  if (typeof claim.expires_at !== "string" || Number.isNaN(Date.parse(claim.expires_at))) fail(path, "claim.expires_at", "an ISO 8601 instant")
  for (const field of NULLABLE_TEXT_FIELDS) {
    const value = claim[field]
    if (value !== null && value !== undefined && typeof value !== "string") fail(path, `claim.${field}`, "a string or null")
  }
  const order = claim.order_display_id
  if (order !== null && order !== undefined && !Number.isSafeInteger(order)) fail(path, "claim.order_display_id", "an integer or null")
  const text = (value: unknown): string | null => (typeof value === "string" ? value : null)
  return {
    status: claim.status,
    amount: claim.amount,
    psys_cid: claim.psys_cid,
    currency: text(claim.currency),
    network: text(claim.network),
    order_display_id: typeof order === "number" ? order : null,
    expires_at: claim.expires_at,
    address: text(claim.address),
    tx_url: text(claim.tx_url),
    error: text(claim.error),
  }
}

/** `GET /store/crypto/refund-claims?token=`: the claim of a refund link, or `null` when the store does not know the token (404). */
export async function getCryptoRefundClaim(query: RefundClaimQuery): Promise<CryptoRefundClaim | null> {
  const token = requireText(query.token, "token", "the token of the refund link")
  try {
    return parseRefundClaim(await storeRequest(query, "GET", `${PATH}?token=${encodeURIComponent(token)}`), PATH)
  } catch (error) {
    if (error instanceof CryptoStoreError && error.status === 404) return null
    throw withoutToken(error, token)
  }
}

/**
 * The same error without the token: `storeRequest` names the path with its query, and a server log
 * must not hold a link that can still claim money.
 */
function withoutToken(error: unknown, token: string): unknown {
  if (!(error instanceof CryptoStoreError)) return error
  const hide = (text: string): string => text.split(encodeURIComponent(token)).join("<token>").split(token).join("<token>")
  if (error instanceof CryptoStoreUnreachableError) {
    return new CryptoStoreUnreachableError(hide(error.message), { url: error.url, path: PATH, reason: error.reason, code: error.code, cause: error.cause })
  }
  return new CryptoStoreError(hide(error.message), error.status, PATH)
}

/**
 * `POST /store/crypto/refund-claims`: claims the refund to `address`; answers the claim after the
 * store sent the refund, or when the outcome is unknown (the store checks it and never sends twice).
 * A refusal (400: the link expired, was withdrawn or already used, or the address is not accepted)
 * throws `CryptoRefundClaimRefusedError` with the store's words in `reason`.
 */
export async function claimCryptoRefund(input: ClaimRefundInput): Promise<CryptoRefundClaim> {
  const token = requireText(input.token, "token", "the token of the refund link")
  const address = requireText(input.address, "address", "the shopper's address for the coin's network")
  try {
    return parseRefundClaim(await storeRequest(input, "POST", PATH, { token, address }), PATH)
  } catch (error) {
    if (error instanceof CryptoStoreError && error.status === 400) {
      throw new CryptoRefundClaimRefusedError(storeMessage(error, `POST ${PATH} answered 400: `), PATH, error)
    }
    throw error
  }
}

/** The store's own `message` from a `storeRequest` error ("<method> <path> answered <status>: <message>"). */
function storeMessage(error: CryptoStoreError, prefix: string): string {
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message
}
