/**
 * The chart routes' answers as the charts read them: the server's declarations
 * (src/api/admin/crypto/types.ts, the admin's one door to server types). Amounts are decimal
 * strings, never numbers.
 */
import type { AdminCryptoAttentionChartResponse, AdminCryptoBalanceChartResponse, AdminCryptoBalanceSnapshotResponse, AdminCryptoVolumeChartResponse, Serialized } from "../../../api/admin/crypto/types"

export type VolumeChartResponse = AdminCryptoVolumeChartResponse
export type ChartInterval = VolumeChartResponse["interval"]
export type BalanceChartResponse = AdminCryptoBalanceChartResponse
export type BalanceSnapshotResponse = Serialized<AdminCryptoBalanceSnapshotResponse>
export type AttentionChartResponse = AdminCryptoAttentionChartResponse
export type AttentionAge = AttentionChartResponse["ages"][number]
