/**
 * The chart routes' answers (docs/books.md), type-only: amounts are decimal strings with their
 * coin or fiat code, dates UTC ISO 8601 (days `YYYY-MM-DD`).
 */
import type { BalanceHistory } from "../../../../core/books/balance-snapshot"
import type { AttentionChart, VolumeChart } from "../../../../core/books/charts"

/** GET /admin/crypto/charts/volume */
export type AdminCryptoVolumeChartResponse = VolumeChart & { provider_id: string | null }

/** GET /admin/crypto/charts/balances */
export type AdminCryptoBalanceChartResponse = BalanceHistory & { provider_id: string }

/** GET /admin/crypto/charts/attention */
export type AdminCryptoAttentionChartResponse = AttentionChart & { truncated: boolean }
