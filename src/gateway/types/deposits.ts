/** White-label deposit addresses (spec §2.7, §4.10). */

export interface DepositCreateParams {
  /** One cryptocurrency ID (→ one deposit) or several (→ an array of deposits). */
  psys_cid: string | readonly string[]
  /** The merchant's user identifier, at most 255 characters, permanently tied to the address. */
  uid: string
}

export interface DepositListParams {
  uid?: string
  psys_cid?: string | readonly string[]
  page?: number
  limit?: number
}

export interface WireDeposit {
  uid: string
  hash: string
  psys_cid: string
}

export interface Deposit {
  uid: string
  /** The deposit address. */
  hash: string
  psys_cid: string
  [extra: string]: unknown
}
