import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { createCryptoExchangeWorkflow } from "../../../../workflows/admin"
import type { AdminCreateCryptoExchangeType } from "../validators"

/** POST /admin/crypto/exchanges — creates the exchange the merchant confirmed (`confirmed: true`, spec §4.11). */
export const POST = async (req: AuthenticatedMedusaRequest<AdminCreateCryptoExchangeType>, res: MedusaResponse) => {
  const { confirmed: _confirmed, ...input } = req.validatedBody
  const { result } = await createCryptoExchangeWorkflow(req.scope).run({ input })
  res.status(201).json({ exchange: result })
}
