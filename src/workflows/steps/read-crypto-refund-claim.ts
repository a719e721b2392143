import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { claimTokenHash, storeRefundClaimView, type StoreRefundClaimView } from "../../core/money-out/refund-claim"
import { resolveCryptoModule } from "../../modules/crypto"

export const readCryptoRefundClaimStepId = "read-crypto-refund-claim"

/** A claim as the storefront shows it, by its token (docs/money-out.md#refunds-the-shopper-claims). Reads only. */
export const readCryptoRefundClaimStep = createStep(readCryptoRefundClaimStepId, async (input: { token: string }, { container }) => {
  const service = resolveCryptoModule(container)
  const [claim] = await service.listCryptoRefundClaims({ token_hash: claimTokenHash(input.token) }, { take: 1 })
  if (claim === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "This refund link is not valid")
  }
  const [withdrawal] = claim.withdrawal_id === null ? [] : await service.listCryptoWithdrawals({ id: claim.withdrawal_id }, { take: 1 })
  const { data: orders } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ["display_id"], filters: { id: claim.order_id } })
  const displayId: unknown = orders[0]?.display_id
  return new StepResponse<StoreRefundClaimView>(storeRefundClaimView(claim, withdrawal, typeof displayId === "number" ? displayId : null, new Date()))
})
