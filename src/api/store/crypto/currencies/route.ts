import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { getCryptoCurrenciesWorkflow } from "../../../../workflows/get-crypto-currencies"
import type { StoreGetCryptoCurrenciesType } from "../validators"

/** The coins the shopper may pay a cart with, and the cart total in each (cached rates). */
export const GET = async (req: MedusaRequest<unknown, StoreGetCryptoCurrenciesType>, res: MedusaResponse): Promise<void> => {
  const { result } = await getCryptoCurrenciesWorkflow(req.scope).run({ input: { cart_id: req.validatedQuery.cart_id as string } })
  res.json(result)
}
