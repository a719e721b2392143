import { validateAndTransformQuery, type MiddlewareRoute } from "@medusajs/framework/http"
import { AdminCryptoBooksExportQuery } from "./validators"

/** Validation of the accounting export routes (spread into the admin crypto middlewares). */
export const adminCryptoExportMiddlewares: MiddlewareRoute[] = [
  { matcher: "/admin/crypto/exports/books", methods: ["GET"], middlewares: [validateAndTransformQuery(AdminCryptoBooksExportQuery, {})] },
]
