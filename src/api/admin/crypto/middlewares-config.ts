import { validateAndTransformBody, validateAndTransformQuery, type MiddlewareRoute } from "@medusajs/framework/http"
import { z } from "@medusajs/framework/zod"
import {
  AdminCreateCryptoDeposit,
  AdminCreateCryptoExchange,
  AdminCreateCryptoRefund,
  AdminCreateCryptoRefundClaim,
  AdminCryptoRefundClaimsQuery,
  AdminCreateCryptoWithdrawal,
  AdminCryptoBalancesQuery,
  AdminCryptoCallbackCheck,
  AdminCryptoCurrenciesQuery,
  AdminCryptoDepositCallbacksQuery,
  AdminCryptoDepositsQuery,
  AdminCryptoEstimate,
  AdminCryptoExchangeEstimate,
  AdminCryptoOperationsQuery,
  AdminCryptoProviderQuery,
  AdminCryptoRefundQuote,
  AdminCryptoExchangesQuery,
  AdminCryptoWithdrawalsQuery,
  AdminResolveCryptoExchange,
  AdminResolveCryptoWithdrawal,
  AdminUpdateCryptoSettings,
} from "./validators"
import { adminCryptoChartMiddlewares } from "./charts/middlewares"
import { adminCryptoExportMiddlewares } from "./exports/middlewares"
import { adminCryptoMoneyOutMiddlewares } from "./money-out/middlewares"
import { AdminCryptoAttentionQuery, AdminRefundCryptoAttention, AdminResolveCryptoAttention } from "./attention/validators"

const query = (schema: Parameters<typeof validateAndTransformQuery>[0]) => validateAndTransformQuery(schema, {})
const AdminCryptoTestConnection = z.object({ provider_id: z.string().optional() }).strict()

/**
 * The admin crypto routes' validation (`/admin/**` is authenticated by Medusa itself). Spread into
 * `src/api/middlewares.ts`.
 */
export const adminCryptoMiddlewares: MiddlewareRoute[] = [
  ...adminCryptoExportMiddlewares,
  ...adminCryptoChartMiddlewares,
  ...adminCryptoMoneyOutMiddlewares,
  { matcher: "/admin/crypto/balances", methods: ["GET"], middlewares: [query(AdminCryptoBalancesQuery)] },
  { matcher: "/admin/crypto/currencies", methods: ["GET"], middlewares: [query(AdminCryptoCurrenciesQuery)] },
  { matcher: "/admin/crypto/fee-plans/:psys_cid", methods: ["GET"], middlewares: [query(AdminCryptoProviderQuery)] },
  { matcher: "/admin/crypto/fee-estimate", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCryptoEstimate)] },
  { matcher: "/admin/crypto/commission-estimate", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCryptoEstimate)] },
  { matcher: "/admin/crypto/withdrawals", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCreateCryptoWithdrawal)] },
  { matcher: "/admin/crypto/withdrawals", methods: ["GET"], middlewares: [query(AdminCryptoWithdrawalsQuery)] },
  { matcher: "/admin/crypto/withdrawals/:id/resolve", methods: ["POST"], middlewares: [validateAndTransformBody(AdminResolveCryptoWithdrawal)] },
  { matcher: "/admin/crypto/operations", methods: ["GET"], middlewares: [query(AdminCryptoOperationsQuery)] },
  { matcher: "/admin/crypto/deposits", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCreateCryptoDeposit)] },
  { matcher: "/admin/crypto/deposits", methods: ["GET"], middlewares: [query(AdminCryptoDepositsQuery)] },
  { matcher: "/admin/crypto/deposits/callbacks", methods: ["GET"], middlewares: [query(AdminCryptoDepositCallbacksQuery)] },
  { matcher: "/admin/crypto/exchanges/estimate", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCryptoExchangeEstimate)] },
  { matcher: "/admin/crypto/exchanges", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCreateCryptoExchange)] },
  { matcher: "/admin/crypto/exchanges", methods: ["GET"], middlewares: [query(AdminCryptoExchangesQuery)] },
  { matcher: "/admin/crypto/exchanges/:id/resolve", methods: ["POST"], middlewares: [validateAndTransformBody(AdminResolveCryptoExchange)] },
  { matcher: "/admin/crypto/refunds/quote", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCryptoRefundQuote)] },
  { matcher: "/admin/crypto/refunds", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCreateCryptoRefund)] },
  // Refunds the shopper claims (docs/money-out.md#refunds-the-shopper-claims).
  { matcher: "/admin/crypto/refund-claims", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCreateCryptoRefundClaim)] },
  { matcher: "/admin/crypto/refund-claims", methods: ["GET"], middlewares: [query(AdminCryptoRefundClaimsQuery)] },
  { matcher: "/admin/crypto/settings", methods: ["GET"], middlewares: [query(AdminCryptoProviderQuery)] },
  { matcher: "/admin/crypto/settings", methods: ["POST"], middlewares: [validateAndTransformBody(AdminUpdateCryptoSettings)] },
  { matcher: "/admin/crypto/settings/test", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCryptoTestConnection)] },
  { matcher: "/admin/crypto/settings/callback-check", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCryptoCallbackCheck)] },
  // The "Needs attention" queue (docs/attention.md).
  { matcher: "/admin/crypto/attention", methods: ["GET"], middlewares: [query(AdminCryptoAttentionQuery)] },
  { matcher: "/admin/crypto/attention/:id/resolve", methods: ["POST"], middlewares: [validateAndTransformBody(AdminResolveCryptoAttention)] },
  { matcher: "/admin/crypto/attention/:id/refund", methods: ["POST"], middlewares: [validateAndTransformBody(AdminRefundCryptoAttention)] },
]
