import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../core/errors"
import { resolveCryptoProvider } from "../../../../../core/config/provider-entry"
import type { AdminCryptoSettingsTestResponse } from "../../types"

/**
 * POST /admin/crypto/settings/test — "test connection": reads the coin list and one balance with the
 * configured key (spec §4.8, §4.9; a wrong key answers 401). Always 200; `ok` says how it went.
 */
export const POST = async (req: AuthenticatedMedusaRequest<{ provider_id?: string }>, res: MedusaResponse<AdminCryptoSettingsTestResponse>) => {
  const { entry, client } = await resolveCryptoProvider(req.scope, req.validatedBody?.provider_id)
  const started = Date.now()
  try {
    const currencies = await client.currencies.list()
    const first = currencies.find((c) => !c.hidden) ?? currencies[0]
    if (first !== undefined) {
      await client.balances.retrieve(first.cid)
    }
    res.json({
      ok: true,
      provider_id: entry.providerId,
      latency_ms: Date.now() - started,
      coins: currencies.length,
      message: `Connected to ${new URL(entry.options.baseUrl).host}: the key works (${currencies.length} coins${first ? `, ${first.cid} balance readable` : ""}).`,
    })
  } catch (error) {
    res.json({ ok: false, provider_id: entry.providerId, latency_ms: Date.now() - started, message: toMedusaError(error, "Test connection").message })
  }
}
