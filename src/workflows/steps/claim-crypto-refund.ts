import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { createHash } from "node:crypto"
import { claimTokenHash, refundClaimStatus } from "../../core/money-out/refund-claim"
import { resolveCryptoModule } from "../../modules/crypto"
import type { CreateCryptoRefundInput } from "../admin/steps/prepare-crypto-refund"

/** Statuses of a withdrawal that sent nothing: the claim can take another address. */
const SENT_NOTHING = new Set(["rejected", "not_sent"])

/** The refund a claim sends to one address: one idempotency key per claim and address. */
function refundOf(claim: { id: string; params: unknown }, address: string): CreateCryptoRefundInput {
  const params = claim.params as Omit<CreateCryptoRefundInput, "address" | "idempotency_key">
  const addressKey = createHash("sha256").update(address, "utf8").digest("hex").slice(0, 16)
  return { ...params, address, idempotency_key: `refund-claim:${claim.id}:${addressKey}`, requested_by: `refund-claim:${claim.id}`, claimed: true }
}

export const takeCryptoRefundClaimStepId = "take-crypto-refund-claim"

interface TakenClaim {
  claim_id: string
  refund: CreateCryptoRefundInput
}

/** What undoing a take needs; null when this run took nothing (a double submit). */
type TakeUndo = { claim_id: string; idempotency_key: string } | null

/**
 * Takes the claim for the shopper's address, once (docs/money-out.md#refunds-the-shopper-claims):
 * an atomic update from `waiting`; the same address again (a double submit) takes the claim it
 * already took, so the refund is asked again with the same idempotency key and never sent twice.
 * Anything else is refused in words. Undone when a later step fails (the gateway refused the address:
 * the claim keeps its reason), unless a withdrawal under the claim's key holds money: then the claim
 * stays taken and the merchant decides, as for any refund.
 */
export const takeCryptoRefundClaimStep = createStep(
  takeCryptoRefundClaimStepId,
  async (input: { token: string; address: string }, { container }) => {
    const service = resolveCryptoModule(container)
    const hash = claimTokenHash(input.token)
    const taken = await service.claimCryptoRefundClaim({ token_hash: hash, address: input.address })
    const [claim] = await service.listCryptoRefundClaims({ token_hash: hash }, { take: 1 })
    if (claim === undefined) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, "This refund link is not valid")
    }
    if (taken === null) {
      const status = refundClaimStatus(claim, undefined, new Date())
      if (claim.status === "claimed" && claim.address === input.address) {
        return new StepResponse<TakenClaim, TakeUndo>({ claim_id: claim.id, refund: refundOf(claim, input.address) }, null)
      }
      const reasons: Record<string, string> = {
        revoked: "The shop has withdrawn this refund link: please contact the shop.",
        expired: `This refund link expired on ${new Date(claim.expires_at).toISOString()}: please contact the shop.`,
      }
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        reasons[status] ?? `This refund was already claimed with another address (${claim.address ?? "?"}): if that was not you, contact the shop.`
      )
    }
    const refund = refundOf(claim, input.address)
    return new StepResponse<TakenClaim, TakeUndo>({ claim_id: claim.id, refund }, { claim_id: claim.id, idempotency_key: refund.idempotency_key })
  },
  async (taken: TakeUndo | undefined, { container }) => {
    if (taken === undefined || taken === null) return
    const service = resolveCryptoModule(container)
    const [withdrawal] = await service.listCryptoWithdrawals({ idempotency_key: taken.idempotency_key }, { take: 1 })
    if (withdrawal !== undefined && !SENT_NOTHING.has(withdrawal.status)) return
    // The claim waits again for another address, with the refusal in words when the gateway refused
    // this one (the refund's withdrawal keeps the gateway's reason, docs/money-out.md#refunds-the-shopper-claims).
    await service.updateCryptoRefundClaims({ id: taken.claim_id, status: "waiting", address: null, claimed_at: null, error: withdrawal?.error_message ?? null })
  }
)

export const settleCryptoRefundClaimStepId = "settle-crypto-refund-claim"

/**
 * Names the claim's withdrawal. A clear refusal by the gateway (the address refused, spec §7) sent
 * nothing: the claim waits again, with the refusal in words, for another address.
 */
export const settleCryptoRefundClaimStep = createStep(
  settleCryptoRefundClaimStepId,
  async (input: { claim_id: string; withdrawal: { id: string; status: string; error_message?: string | null } }, { container }) => {
    const service = resolveCryptoModule(container)
    if (SENT_NOTHING.has(input.withdrawal.status)) {
      await service.updateCryptoRefundClaims({
        id: input.claim_id,
        status: "waiting",
        address: null,
        claimed_at: null,
        error: input.withdrawal.error_message ?? "The payment network refused this address: check it and try again.",
      })
    } else {
      await service.updateCryptoRefundClaims({ id: input.claim_id, withdrawal_id: input.withdrawal.id })
    }
    return new StepResponse({ claim_id: input.claim_id })
  }
)
