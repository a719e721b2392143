import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { updateCryptoSettingsWorkflow } from "../../../../workflows/admin"
import { resolveCryptoProvider } from "../../../../core/provider-entry"
import { readStoredSettings } from "../../../../core/settings"
import { resolveCryptoModule } from "../../../../modules/crypto"
import type { AdminUpdateCryptoSettingsType } from "../validators"

/** What the settings page shows: the stored values, the config defaults and what is in effect. Never the key. */
async function describeSettings(scope: MedusaContainer, providerId?: string) {
  const { entry, options: effective } = await resolveCryptoProvider(scope, providerId)
  const stored = await readStoredSettings(resolveCryptoModule(scope), entry.providerId)
  const view = (o: typeof effective) => ({
    accepted_coins: o.allowedCurrencies,
    default_coin: o.defaultCurrency ?? null,
    invoice_lifetime_minutes: o.expireMinutes,
    order_on_detection: o.orderOnDetection,
    underpaid_tolerance_percent: o.underpaidTolerancePercent.toFixed(),
  })
  return {
    provider_id: entry.providerId,
    api_key_set: entry.options.apiKey.length > 0,
    gateway_host: new URL(entry.options.baseUrl).host,
    white_label: entry.options.whiteLabel,
    stored: {
      accepted_coins: stored?.accepted_coins ?? null,
      default_coin: stored?.default_coin ?? null,
      invoice_lifetime_minutes: stored?.invoice_lifetime_minutes ?? null,
      order_on_detection: stored?.order_on_detection ?? null,
      underpaid_tolerance_percent: stored?.underpaid_tolerance_percent ?? null,
      updated_by: stored?.updated_by ?? null,
      updated_at: stored?.updated_at ?? null,
    },
    defaults: view(entry.options),
    effective: view(effective),
  }
}

/** The `settings` of GET and POST /admin/crypto/settings, as the admin reads it (src/api/admin/crypto/types.ts). */
export type CryptoSettingsView = Awaited<ReturnType<typeof describeSettings>>

/** GET /admin/crypto/settings — the crypto settings (the secret key only as `api_key_set`). */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, { provider_id?: string }>, res: MedusaResponse) => {
  res.json({ settings: await describeSettings(req.scope, req.validatedQuery?.provider_id) })
}

/** POST /admin/crypto/settings — save some settings (null resets one to the medusa-config default). */
export const POST = async (req: AuthenticatedMedusaRequest<AdminUpdateCryptoSettingsType>, res: MedusaResponse) => {
  const { provider_id, ...patch } = req.validatedBody
  const { entry } = await resolveCryptoProvider(req.scope, provider_id)
  await updateCryptoSettingsWorkflow(req.scope).run({
    input: { ...patch, provider_id: entry.providerId, updated_by: req.auth_context?.actor_id ?? null },
  })
  res.json({ settings: await describeSettings(req.scope, entry.providerId) })
}
