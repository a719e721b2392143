import type { MiddlewareRoute } from "@medusajs/framework/http"

/** Validation of the chart data routes (spread into the admin crypto middlewares). */
export const adminCryptoChartMiddlewares: MiddlewareRoute[] = []
