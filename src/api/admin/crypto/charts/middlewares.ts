import { validateAndTransformBody, validateAndTransformQuery, type MiddlewareRoute } from "@medusajs/framework/http"
import { AdminCryptoAttentionChartQuery, AdminCryptoBalanceChartQuery, AdminCryptoTakeBalanceSnapshot, AdminCryptoVolumeChartQuery } from "./validators"

/** Validation of the chart data routes (spread into the admin crypto middlewares). */
export const adminCryptoChartMiddlewares: MiddlewareRoute[] = [
  { matcher: "/admin/crypto/charts/volume", methods: ["GET"], middlewares: [validateAndTransformQuery(AdminCryptoVolumeChartQuery, {})] },
  { matcher: "/admin/crypto/charts/balances", methods: ["GET"], middlewares: [validateAndTransformQuery(AdminCryptoBalanceChartQuery, {})] },
  { matcher: "/admin/crypto/charts/balances", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCryptoTakeBalanceSnapshot)] },
  { matcher: "/admin/crypto/charts/attention", methods: ["GET"], middlewares: [validateAndTransformQuery(AdminCryptoAttentionChartQuery, {})] },
]
