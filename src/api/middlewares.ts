import { defineMiddlewares, validateAndTransformBody, validateAndTransformQuery } from "@medusajs/framework/http"
import {
  StoreGetCryptoCurrencies,
  StoreGetCryptoPaymentStatus,
  StoreGetCryptoRefundClaim,
  StorePostCryptoPaymentSessionRefresh,
  StorePostCryptoRefundClaim,
  StorePostCryptoTopUp,
} from "./store/crypto/validators"
import { adminCryptoMiddlewares } from "./admin/crypto/middlewares-config"

export default defineMiddlewares({
  routes: [
    // Admin crypto routes: validation of every /admin/crypto body and query.
    ...adminCryptoMiddlewares,
    {
      // The callback route reads the raw bytes itself (the signature covers the exact bytes,
      // multipart bodies, the gateway client's 1 MiB limit: src/api/hooks/crypto/callback-request.ts).
      matcher: "/hooks/crypto/:id",
      methods: ["POST"],
      bodyParser: false,
    },
    {
      matcher: "/store/crypto/currencies",
      methods: ["GET"],
      middlewares: [validateAndTransformQuery(StoreGetCryptoCurrencies, {})],
    },
    {
      matcher: "/store/crypto/payment-status",
      methods: ["GET"],
      middlewares: [validateAndTransformQuery(StoreGetCryptoPaymentStatus, {})],
    },
    {
      matcher: "/store/crypto/payment-sessions/refresh",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(StorePostCryptoPaymentSessionRefresh)],
    },
    {
      matcher: "/store/crypto/payment-sessions/top-up",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(StorePostCryptoTopUp)],
    },
    {
      matcher: "/store/crypto/refund-claims",
      methods: ["GET"],
      middlewares: [validateAndTransformQuery(StoreGetCryptoRefundClaim, {})],
    },
    {
      matcher: "/store/crypto/refund-claims",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(StorePostCryptoRefundClaim)],
    },
  ],
})
