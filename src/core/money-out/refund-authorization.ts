import { Decimal } from "decimal.js"
import { isDecimalString } from "../../gateway"

/**
 * How a crypto refund becomes a Medusa refund: the protocol between the admin refund workflow
 * (src/workflows/admin/create-crypto-refund.ts) and the provider's `refundPayment`.
 *
 * The admin's crypto refund first sends a `cash_out` (spec §4.2) and only then asks Medusa to record
 * the refund (`refundPaymentWorkflow`), which calls the provider's `refundPayment`. The provider
 * cannot send coins itself (it does not know the customer's address), so it accepts a refund only
 * when the payment's data carries an authorization for exactly that amount, written just before by
 * the admin workflow: the coins have left already. Anything else is Medusa's plain refund button,
 * which gets {@link PLAIN_REFUND_MESSAGE}.
 */
export const CRYPTO_REFUND_AUTHORIZATION_KEY = "crypto_refund_authorization"
export const CRYPTO_REFUNDS_KEY = "crypto_refunds"

export interface CryptoRefundAuthorization {
  withdrawal_id: string
  /** The refunded amount in the order's currency, major units, decimal string. */
  amount: string
  psys_cid: string
  coin_amount: string
  rate: string
  address: string
  tx_urls: string[]
}

export const PLAIN_REFUND_MESSAGE =
  "This order was paid in crypto: refund it with the \"Refund in crypto\" action in the order's Crypto payment section (enter the customer's address; the amount is converted at a rate you confirm and sent as a cash_out), then the refund is recorded here automatically."

function isAuthorization(value: unknown): value is CryptoRefundAuthorization {
  if (typeof value !== "object" || value === null) return false
  const record = value as Record<string, unknown>
  return typeof record.withdrawal_id === "string" && typeof record.amount === "string" && isDecimalString(record.amount)
}

/**
 * For the provider's `refundPayment`: the payment data after recording the authorized crypto refund
 * of `amount` (a decimal string), or undefined when no authorization for that amount is present
 * (then refuse with {@link PLAIN_REFUND_MESSAGE}).
 */
export function consumeCryptoRefundAuthorization(
  data: Record<string, unknown> | undefined,
  amount: string,
  refundId: string | undefined
): Record<string, unknown> | undefined {
  const authorization = data?.[CRYPTO_REFUND_AUTHORIZATION_KEY]
  if (!isAuthorization(authorization) || !new Decimal(authorization.amount).eq(amount)) {
    return undefined
  }
  const previous = Array.isArray(data?.[CRYPTO_REFUNDS_KEY]) ? (data?.[CRYPTO_REFUNDS_KEY] as unknown[]) : []
  const rest = { ...(data ?? {}) }
  delete rest[CRYPTO_REFUND_AUTHORIZATION_KEY]
  return { ...rest, [CRYPTO_REFUNDS_KEY]: [...previous, { ...authorization, refund_id: refundId ?? null }] }
}
