import type { MedusaResponse, MedusaStoreRequest } from "@medusajs/framework/http"
import { getCryptoCurrenciesWorkflow } from "../../../../workflows/get-crypto-currencies"
import type { StoreGetCryptoCurrenciesType } from "../validators"
import type { StoreCryptoCurrenciesResponse } from "../types"

/**
 * The coins the shopper may pay a cart with, the cart total in each (cached rates), the coins not
 * offered for this cart and why (`unavailable`), and why there are none (`reason`). 404 naming the cart (cartNotFound)
 * for a cart outside the publishable key's sales channels.
 */
export const GET = async (req: MedusaStoreRequest<unknown, StoreGetCryptoCurrenciesType>, res: MedusaResponse<StoreCryptoCurrenciesResponse>): Promise<void> => {
  const { result } = await getCryptoCurrenciesWorkflow(req.scope).run({
    input: { cart_id: req.validatedQuery.cart_id as string, sales_channel_ids: req.publishable_key_context.sales_channel_ids },
  })
  res.json(result)
}
