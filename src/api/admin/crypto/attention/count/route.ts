import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { countAttentionQueue } from "../../../../../core/books/attention-queue"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import type { AdminCryptoAttentionCountResponse } from "../../types"

/** GET /admin/crypto/attention/count — how many items wait for a decision (the Crypto page's badge). */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminCryptoAttentionCountResponse>) => {
  res.json({ count: await countAttentionQueue(resolveCryptoModule(req.scope)) })
}
