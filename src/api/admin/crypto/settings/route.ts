import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { updateCryptoSettingsWorkflow } from "../../../../workflows/admin"
import { invoiceCallbackUrl } from "../../../../workflows/admin/steps/check-crypto-callback-url"
import { listCryptoProviderEntries, resolveCryptoProvider } from "../../../../core/config/provider-entry"
import { readOrderOutcomes, readOrderRules } from "../../../../core/config/order-rules"
import { readStoredSettings, type SettingChange } from "../../../../core/config/settings"
import { resolveCryptoModule } from "../../../../modules/crypto"
import type { AdminUpdateCryptoSettingsType } from "../validators"
import type { AdminCryptoSettingsResponse } from "../types"

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
    order_rules: o.orderRules,
    order_outcomes: o.orderOutcomes,
    protect_order_status: o.protectOrderStatus,
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
      order_rules: stored?.order_rules === null || stored?.order_rules === undefined ? null : readOrderRules(stored.order_rules),
      order_outcomes: stored?.order_outcomes === null || stored?.order_outcomes === undefined ? null : readOrderOutcomes(stored.order_outcomes),
      protect_order_status: stored?.protect_order_status ?? null,
      updated_by: stored?.updated_by ?? null,
      updated_at: stored?.updated_at ?? null,
    },
    defaults: view(entry.options),
    effective: view(effective),
    changes: await recentChanges(scope, entry.providerId),
    callback_endpoints: await callbackEndpoints(scope),
  }
}

/** The newest verified callback of a provider entry, as the settings page shows it. */
export interface LastVerifiedCallbackView {
  received_at: string
  ipn_type: string | null
  txn_id: string | null
  status: string | null
}

/**
 * Per configured provider entry: the callback URL to paste into the gateway's Status URL (the one
 * its invoices carry, null without `backendUrl`) and the newest verified callback it received
 * (docs/troubleshooting.md#check-the-callback-url). Delivered callbacks only (`json`, `form`): a
 * pay_in read back from the gateway (`operation`) did not come through the URL. One indexed read of
 * one row per entry, all at once; a store has one or two entries.
 */
async function callbackEndpoints(scope: MedusaContainer): Promise<Array<{ provider_id: string; callback_url: string | null; last_callback: LastVerifiedCallbackView | null }>> {
  const entries = listCryptoProviderEntries(scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE))
  const cryptoModule = resolveCryptoModule(scope)
  return Promise.all(
    entries.map(async (entry) => {
      const [last] = await cryptoModule.listCryptoCallbacks(
        { provider_id: entry.providerId, format: ["json", "form"] },
        { select: ["created_at", "ipn_type", "txn_id", "status"], order: { created_at: "DESC" }, take: 1 }
      )
      return {
        provider_id: entry.providerId,
        callback_url: invoiceCallbackUrl(entry),
        last_callback:
          last === undefined ? null : { received_at: new Date(last.created_at).toISOString(), ipn_type: last.ipn_type, txn_id: last.txn_id, status: last.status },
      }
    })
  )
}

/** How many saves the settings page lists (newest first). */
const CHANGES_SHOWN = 20

/** One save in the audit trail: who (the admin's id and, when Medusa knows it, e-mail), when, and what changed. */
export interface CryptoSettingChangeView {
  id: string
  changed_by: string | null
  changed_by_email: string | null
  changed_at: string
  changes: Record<string, SettingChange>
}

async function recentChanges(scope: MedusaContainer, providerId: string): Promise<CryptoSettingChangeView[]> {
  const rows = await resolveCryptoModule(scope).listCryptoSettingChanges({ provider_id: providerId }, { order: { created_at: "DESC" }, take: CHANGES_SHOWN })
  const userIds = [...new Set(rows.map((row) => row.changed_by).filter((id): id is string => id !== null))]
  const emails = new Map<string, string>()
  if (userIds.length > 0) {
    // One read for the page; an actor that is not a user (a script, an API key) stays an id.
    const { data } = await scope.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "user", fields: ["id", "email"], filters: { id: userIds } })
    for (const user of data) if (typeof user?.id === "string" && typeof user.email === "string") emails.set(user.id, user.email)
  }
  return rows.map((row) => ({
    id: row.id,
    changed_by: row.changed_by,
    changed_by_email: row.changed_by === null ? null : (emails.get(row.changed_by) ?? null),
    changed_at: new Date(row.created_at).toISOString(),
    changes: row.changes as Record<string, SettingChange>,
  }))
}

/** The `settings` of GET and POST /admin/crypto/settings, as the admin reads it (src/api/admin/crypto/types.ts). */
export type CryptoSettingsView = Awaited<ReturnType<typeof describeSettings>>

/** GET /admin/crypto/settings — the crypto settings (the secret key only as `api_key_set`). */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, { provider_id?: string }>, res: MedusaResponse<AdminCryptoSettingsResponse>) => {
  res.json({ settings: await describeSettings(req.scope, req.validatedQuery?.provider_id) })
}

/** POST /admin/crypto/settings — save some settings (null resets one to the medusa-config default). */
export const POST = async (req: AuthenticatedMedusaRequest<AdminUpdateCryptoSettingsType>, res: MedusaResponse<AdminCryptoSettingsResponse>) => {
  const { provider_id, ...patch } = req.validatedBody
  const { entry } = await resolveCryptoProvider(req.scope, provider_id)
  await updateCryptoSettingsWorkflow(req.scope).run({
    input: { ...patch, provider_id: entry.providerId, updated_by: req.auth_context?.actor_id ?? null },
  })
  res.json({ settings: await describeSettings(req.scope, entry.providerId) })
}
