import type { BigNumberInput } from "@medusajs/framework/types"
import { MathBN, MedusaError } from "@medusajs/framework/utils"

/**
 * A Medusa amount (major units, research §1.8: a number, a string, a BigNumber or its raw
 * `{ value, precision }`) → the exact decimal string the gateway gets as `source_amount`.
 * `MathBN.convert` keeps every digit of a string or raw value; `toFixed()` without arguments never
 * rounds or uses an exponent. `.numeric` (a float) is never used.
 */
export function sessionAmountToDecimalString(amount: BigNumberInput, field = "amount"): string {
  let text: string
  try {
    text = MathBN.convert(amount).toFixed()
  } catch (error) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `${field} is not a number`, undefined, `${field} is not a number`, { cause: error })
  }
  if (!/^\d+(\.\d+)?$/.test(text) || /^0+(\.0+)?$/.test(text)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `${field} must be a positive amount, got ${text}`)
  }
  return text
}
