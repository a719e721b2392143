import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { randomUUID } from "node:crypto"
import { resolveCryptoProvider } from "../../../core/config/provider-entry"
import { DEFAULT_CLAIM_HOURS, newClaimToken, REFUND_CLAIM_PATH } from "../../../core/money-out/refund-claim"
import { resolveCryptoModule } from "../../../modules/crypto"
import { prepareCryptoRefund, type CreateCryptoRefundInput } from "./prepare-crypto-refund"

/** A refund the merchant starts without an address (docs/money-out.md#refunds-the-shopper-claims). */
export type CreateCryptoRefundClaimInput = Omit<CreateCryptoRefundInput, "address" | "idempotency_key"> & {
  /** How long the link works, in hours (default 168: a week). */
  expires_in_hours?: number
}

export interface CreatedCryptoRefundClaim {
  id: string
  provider_id: string
  /** The link the shopper opens: the storefront's claim page with the token. Shown once. */
  link: string
  expires_at: string
  amount: string
  psys_cid: string
}

export const createCryptoRefundClaimStepId = "create-crypto-refund-claim"

/**
 * Prepares the refund as a typed-address refund would be (coin, amount, what the order still has
 * to give back, no earlier money-out failed undecided), then records the claim with the hash of a
 * new token. The link goes to the storefront the provider entry names (`storefrontUrl`). Undone
 * (deleted) if a later step fails.
 */
export const createCryptoRefundClaimStep = createStep(
  createCryptoRefundClaimStepId,
  async (input: CreateCryptoRefundClaimInput, { container }) => {
    const { expires_in_hours, ...refund } = input
    // No address yet, and a key that matches no recorded refund: only the preparation runs.
    const prepared = await prepareCryptoRefund(container, { ...refund, address: "", idempotency_key: `refund-claim-preview:${randomUUID()}` })
    const { entry, options } = await resolveCryptoProvider(container, prepared.provider_id, "cached")
    if (options.storefrontUrl === undefined) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "The shopper's claim link goes to your storefront: set the crypto provider's storefrontUrl option, or refund to an address you type (field: address)"
      )
    }
    const amount = prepared.recipients[0]?.amount
    if (amount === undefined) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `The refund of order ${input.order_id} has no amount`)
    }
    const { token, hash } = newClaimToken()
    const expiresAt = new Date(Date.now() + (expires_in_hours ?? DEFAULT_CLAIM_HOURS) * 3600 * 1000)
    const claim = await resolveCryptoModule(container).createCryptoRefundClaims({
      provider_id: entry.providerId,
      order_id: input.order_id,
      kind: input.kind,
      params: { ...refund, requested_by: undefined },
      psys_cid: prepared.psys_cid,
      currency: null,
      amount,
      token_hash: hash,
      expires_at: expiresAt,
      status: "waiting",
      created_by: input.requested_by ?? null,
    })
    const link = new URL(`${options.storefrontUrl}${REFUND_CLAIM_PATH}`)
    link.searchParams.set("token", token)
    return new StepResponse<CreatedCryptoRefundClaim, string>(
      { id: claim.id, provider_id: entry.providerId, link: link.toString(), expires_at: expiresAt.toISOString(), amount, psys_cid: prepared.psys_cid },
      claim.id
    )
  },
  async (id, { container }) => {
    if (id === undefined) return
    await resolveCryptoModule(container).deleteCryptoRefundClaims(id)
  }
)
