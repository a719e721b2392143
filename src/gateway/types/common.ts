/** Shared enums of the gateway (spec §2.2, §3). Unknown values pass through as plain strings. */

/** Invoice and operation statuses the gateway documents (spec §3). */
export const INVOICE_STATUSES = [
  "new",
  "pending",
  "pending internal",
  "expired",
  "completed",
  "mismatch",
  "error",
  "cancelled",
  "cancelled duplicate",
] as const
export type KnownStatus = (typeof INVOICE_STATUSES)[number]
/** A status: one of {@link KnownStatus}, or a newer one the gateway may add (kept as sent). */
export type Status = KnownStatus | (string & {})

/** Operation types (spec §2.2; `pay_in` appears in a later variant of the list filter). */
export const OPERATION_TYPES = ["cash_in", "cash_out", "mass_cash_out", "invoice", "pay_in"] as const
export type KnownOperationType = (typeof OPERATION_TYPES)[number]
export type OperationType = KnownOperationType | (string & {})

export const WITHDRAWAL_TYPES = ["cash_out", "mass_cash_out"] as const
export type WithdrawalType = (typeof WITHDRAWAL_TYPES)[number]

/** Fee plans (spec §4.2, §4.5, §4.6). */
export const FEE_PLANS = ["normal", "priority"] as const
export type FeePlanName = (typeof FEE_PLANS)[number]

/** Withdrawal result statuses (spec §2.3). */
export type WithdrawalStatus = "completed" | "error" | (string & {})

/** The success envelope (spec §1.3). */
export interface WireSuccessEnvelope<T> {
  status: "success"
  data: T
}

/** The error envelope (spec §1.4, §7). `message` may be a JSON-encoded object of field errors. */
export interface WireErrorEnvelope {
  status: "error"
  data: { name?: string; message: string; code: number }
}

/** A decimal as the gateway sends it: a string, sometimes a JSON number (docs/gateway-readings.md#decimals). */
export type WireDecimal = string
export type WireDecimalOrNumber = string | number
