import type { MiddlewareRoute } from "@medusajs/framework/http"

/** Validation of the accounting export routes (spread into the admin crypto middlewares). */
export const adminCryptoExportMiddlewares: MiddlewareRoute[] = []
