import { validateAndTransformBody, validateAndTransformQuery, type MiddlewareRoute } from "@medusajs/framework/http"
import {
  AdminApproveCryptoWithdrawal,
  AdminCreateCryptoAddress,
  AdminCryptoAddressesQuery,
  AdminCryptoMoneyOutAuditQuery,
  AdminCryptoMoneyOutPolicyQuery,
  AdminRejectCryptoWithdrawal,
  AdminUpdateCryptoMoneyOutPolicy,
} from "./validators"

/** Validation of the money-out policy routes (spread into the admin crypto middlewares). */
export const adminCryptoMoneyOutMiddlewares: MiddlewareRoute[] = [
  { matcher: "/admin/crypto/money-out/policy", methods: ["GET"], middlewares: [validateAndTransformQuery(AdminCryptoMoneyOutPolicyQuery, {})] },
  { matcher: "/admin/crypto/money-out/policy", methods: ["POST"], middlewares: [validateAndTransformBody(AdminUpdateCryptoMoneyOutPolicy)] },
  { matcher: "/admin/crypto/money-out/addresses", methods: ["GET"], middlewares: [validateAndTransformQuery(AdminCryptoAddressesQuery, {})] },
  { matcher: "/admin/crypto/money-out/addresses", methods: ["POST"], middlewares: [validateAndTransformBody(AdminCreateCryptoAddress)] },
  { matcher: "/admin/crypto/money-out/audit", methods: ["GET"], middlewares: [validateAndTransformQuery(AdminCryptoMoneyOutAuditQuery, {})] },
  { matcher: "/admin/crypto/withdrawals/:id/approve", methods: ["POST"], middlewares: [validateAndTransformBody(AdminApproveCryptoWithdrawal)] },
  { matcher: "/admin/crypto/withdrawals/:id/reject", methods: ["POST"], middlewares: [validateAndTransformBody(AdminRejectCryptoWithdrawal)] },
]
