import type { MedusaResponse, MedusaStoreRequest } from "@medusajs/framework/http"
import { claimCryptoRefundWorkflow, getCryptoRefundClaimWorkflow } from "../../../../workflows/claim-crypto-refund"
import type { StoreGetCryptoRefundClaimType, StorePostCryptoRefundClaimType } from "../validators"
import type { StoreCryptoRefundClaimResponse } from "../types"

/**
 * A refund the shop offers the shopper to claim with their own address
 * (docs/money-out.md#refunds-the-shopper-claims), by the token of its link: amount, coin, network,
 * status. 404 "This refund link is not valid" for an unknown token. Never cached.
 */
export const GET = async (req: MedusaStoreRequest<unknown, StoreGetCryptoRefundClaimType>, res: MedusaResponse<StoreCryptoRefundClaimResponse>): Promise<void> => {
  res.setHeader("Cache-Control", "no-store")
  const { result } = await getCryptoRefundClaimWorkflow(req.scope).run({ input: { token: req.validatedQuery.token as string } })
  res.json({ claim: result })
}

/**
 * Claims it: `{ token, address }`. Sent once through the shop's refund workflow; answers the claim
 * (sending, sent, unknown). 400 in words when the link expired, was withdrawn or was claimed with
 * another address; a refusal of the address by the gateway leaves the claim waiting with the reason.
 */
export const POST = async (req: MedusaStoreRequest<StorePostCryptoRefundClaimType>, res: MedusaResponse<StoreCryptoRefundClaimResponse>): Promise<void> => {
  res.setHeader("Cache-Control", "no-store")
  const { result } = await claimCryptoRefundWorkflow(req.scope).run({ input: req.validatedBody })
  res.json({ claim: result })
}
