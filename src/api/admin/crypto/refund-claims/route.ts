import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { refundClaimStatus } from "../../../../core/money-out/refund-claim"
import { resolveCryptoModule } from "../../../../modules/crypto"
import { createCryptoRefundClaimWorkflow } from "../../../../workflows/admin/create-crypto-refund-claim"
import type { AdminCryptoRefundClaimCreated, AdminCryptoRefundClaimsResponse } from "../types"
import type { AdminCreateCryptoRefundClaimType, AdminCryptoRefundClaimsQueryType } from "../validators"

/**
 * POST /admin/crypto/refund-claims — a crypto refund without an address: the shopper claims it with
 * their own (docs/money-out.md#refunds-the-shopper-claims). Answers `{ claim, link }`; the link is
 * shown only here (only the token's hash is kept).
 */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCreateCryptoRefundClaimType>, res: MedusaResponse<AdminCryptoRefundClaimCreated>) => {
  const { result } = await createCryptoRefundClaimWorkflow(req.scope).run({ input: { ...req.validatedBody, requested_by: req.auth_context?.actor_id ?? null } })
  res.json({ claim: result, link: result.link })
}

/** GET /admin/crypto/refund-claims?order_id= — an order's claims: waiting for the customer's address, sent, expired, revoked. */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoRefundClaimsQueryType>, res: MedusaResponse<AdminCryptoRefundClaimsResponse>) => {
  const service = resolveCryptoModule(req.scope)
  const claims = await service.listCryptoRefundClaims({ order_id: req.validatedQuery.order_id as string }, { order: { created_at: "DESC" } })
  const ids = claims.map((claim) => claim.withdrawal_id).filter((id): id is string => id !== null)
  const withdrawals = ids.length === 0 ? [] : await service.listCryptoWithdrawals({ id: ids })
  const now = new Date()
  res.json({
    claims: claims.map((claim) => {
      const withdrawal = withdrawals.find((row) => row.id === claim.withdrawal_id)
      return {
        id: claim.id,
        order_id: claim.order_id,
        kind: claim.kind,
        status: refundClaimStatus(claim, withdrawal, now),
        amount: claim.amount,
        psys_cid: claim.psys_cid,
        expires_at: iso(claim.expires_at),
        address: claim.address,
        claimed_at: claim.claimed_at === null ? null : iso(claim.claimed_at),
        withdrawal_id: claim.withdrawal_id,
        error: claim.error,
        created_by: claim.created_by,
        created_at: iso(claim.created_at),
        revoked_by: claim.revoked_by,
        revoked_at: claim.revoked_at === null ? null : iso(claim.revoked_at),
      }
    }),
  })
}

const iso = (value: Date | string): string => new Date(value).toISOString()
