/** Balance (spec §2.5, §4.9). */
import type Decimal from "decimal.js"
import type { WireDecimal } from "./common"

export interface WireBalance {
  psys_cid?: string
  currency?: string
  balance: WireDecimal
}

export interface Balance {
  psys_cid?: string | null
  currency?: string | null
  balance: Decimal
  [extra: string]: unknown
}
