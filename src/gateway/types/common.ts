/** Shared enums of the gateway (spec §2.2, §3). Unknown values pass through as plain strings. */

/**
 * THE gateway status vocabulary (spec §3): invoice and operation statuses, declared once. Every
 * other file names a status through this object (`GatewayStatus.PendingInternal`), and every map
 * over the statuses is a `Record<KnownStatus, …>` (or `satisfies` one), so a status added here fails
 * the build until each map handles it (src/gateway/__tests__/status-vocabulary.typecheck.ts).
 */
export const GatewayStatus = {
  New: "new",
  Pending: "pending",
  PendingInternal: "pending internal",
  Expired: "expired",
  Completed: "completed",
  Mismatch: "mismatch",
  Error: "error",
  Cancelled: "cancelled",
  CancelledDuplicate: "cancelled duplicate",
} as const
export type KnownStatus = (typeof GatewayStatus)[keyof typeof GatewayStatus]
/** A status: one of {@link KnownStatus}, or a newer one the gateway may add (kept as sent). */
export type Status = KnownStatus | (string & {})

/** Every {@link KnownStatus}, in the order of spec §3's table. */
export const INVOICE_STATUSES: readonly KnownStatus[] = Object.values(GatewayStatus)

/** Operation types (spec §2.2; `pay_in` appears in a later variant of the list filter). */
export const OPERATION_TYPES = ["cash_in", "cash_out", "mass_cash_out", "invoice", "pay_in"] as const
export type KnownOperationType = (typeof OPERATION_TYPES)[number]
export type OperationType = KnownOperationType | (string & {})

export const WITHDRAWAL_TYPES = ["cash_out", "mass_cash_out"] as const
export type WithdrawalType = (typeof WITHDRAWAL_TYPES)[number]

/** Fee plans (spec §4.2, §4.5, §4.6). */
export const FEE_PLANS = ["normal", "priority"] as const
export type FeePlanName = (typeof FEE_PLANS)[number]

/** THE withdrawal result statuses (spec §2.3: `completed` or `error`): two of the statuses of spec §3. */
export const WithdrawalResultStatus = {
  Completed: GatewayStatus.Completed,
  Error: GatewayStatus.Error,
} as const
export type KnownWithdrawalStatus = (typeof WithdrawalResultStatus)[keyof typeof WithdrawalResultStatus]
export const WITHDRAWAL_STATUSES: readonly KnownWithdrawalStatus[] = Object.values(WithdrawalResultStatus)
/** A withdrawal result status: a known one, or a newer one kept as sent. */
export type WithdrawalStatus = KnownWithdrawalStatus | (string & {})

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
