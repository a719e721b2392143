import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Badge, Button, Container, Heading, Input, Label, Select, Switch, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { CallbackUrls } from "../../../components/callback-urls"
import { useCurrencies } from "../../../components/coin-select"
import { QueryState, formatDate } from "../../../components/common"
import { MoneyOutSection } from "../../../components/money-out-section"
import { OrderOutcomesEditor, OrderRulesEditor, describeOrderRule } from "../../../components/order-rules-editor"
import { cryptoApi, errorMessage } from "../../../lib/api"
import { DECIMAL_PATTERN } from "../../../lib/money"
import { sdk } from "../../../lib/sdk"
import { changedSettings, type SettingsForm } from "../../../lib/settings-form"
import type { OrderRule, SettingsChange, SettingsField, SettingsResponse, SettingsTestResponse } from "../../../lib/types"

const NONE = "__config"

/** The form as edited: the default coin select holds NONE for "use medusa-config.ts". */
type Form = Omit<SettingsForm, "defaultCoin"> & { defaultCoin: string }

const asSettings = (form: Form): SettingsForm => ({ ...form, defaultCoin: form.defaultCoin === NONE ? null : form.defaultCoin })

function validate(form: Form): Partial<Record<keyof Form, string>> {
  const errors: Partial<Record<keyof Form, string>> = {}
  if (!/^\d+$/.test(form.lifetime) || form.lifetime === "0" || form.lifetime.length > 5 || Number.parseInt(form.lifetime, 10) > 14400) {
    errors.lifetime = "A whole number of minutes from 1 to 14400"
  }
  if (!DECIMAL_PATTERN.test(form.tolerance) || !/^(100(\.0+)?|\d{1,2}(\.\d+)?)$/.test(form.tolerance)) {
    errors.tolerance = "A percentage from 0 to 100, like 0.5"
  }
  if (form.defaultCoin !== NONE && form.accepted.length > 0 && !form.accepted.includes(form.defaultCoin)) {
    errors.defaultCoin = "The default coin must be one of the accepted coins"
  }
  return errors
}

const CryptoSettingsPage = () => {
  const queryClient = useQueryClient()
  const settings = useQuery({ queryKey: ["crypto", "settings"], queryFn: () => cryptoApi.get<SettingsResponse>("/settings") })
  const currencies = useCurrencies()
  // The store's default currency: a new order rule's amount is in it.
  const store = useQuery({ queryKey: ["crypto", "store-currency"], queryFn: () => sdk.admin.store.list({ fields: "id,supported_currencies.*" }) })
  const storeCurrency = store.data?.stores[0]?.supported_currencies?.find((c) => c.is_default)?.currency_code?.toUpperCase() ?? "EUR"
  const [form, setForm] = useState<Form | null>(null)
  // The form as loaded or last saved: a save sends only what differs from it.
  const [loaded, setLoaded] = useState<Form | null>(null)
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null)

  useEffect(() => {
    const effective = settings.data?.settings.effective
    if (effective && form === null) {
      const initial: Form = {
        accepted: effective.accepted_coins,
        defaultCoin: effective.default_coin ?? NONE,
        lifetime: String(effective.invoice_lifetime_minutes),
        orderOnDetection: effective.order_on_detection,
        tolerance: effective.underpaid_tolerance_percent,
        orderRules: effective.order_rules,
        orderOutcomes: effective.order_outcomes,
        protectOrderStatus: effective.protect_order_status,
      }
      setForm(initial)
      setLoaded(initial)
    }
  }, [settings.data, form])

  const save = useMutation({
    mutationFn: (f: Form) => cryptoApi.post<SettingsResponse>("/settings", loaded === null ? {} : changedSettings(asSettings(f), asSettings(loaded))),
    onSuccess: (data, saved) => {
      queryClient.setQueryData(["crypto", "settings"], data)
      setLoaded(saved)
      toast.success("Crypto settings saved", { description: "The next checkout uses them." })
    },
    onError: (error) => toast.error("Settings not saved", { description: errorMessage(error) }),
  })
  const testConnection = useMutation({
    mutationFn: () => cryptoApi.post<SettingsTestResponse>("/settings/test", {}),
    onSuccess: (result) => {
      setTest(result)
      if (result.ok) toast.success("Connection works")
      else toast.error("Connection failed", { description: result.message })
    },
    onError: (error) => toast.error("Connection test failed", { description: errorMessage(error) }),
  })

  const errors = form ? validate(form) : {}
  const changed = form !== null && loaded !== null && Object.keys(changedSettings(asSettings(form), asSettings(loaded))).length > 0
  const s = settings.data?.settings
  const coins = (currencies.data?.currencies ?? []).map((c) => c.cid)
  const toggleCoin = (cid: string) => form && setForm({ ...form, accepted: form.accepted.includes(cid) ? form.accepted.filter((c) => c !== cid) : [...form.accepted, cid] })

  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">Crypto payments</Heading>
          <Text size="small" className="text-ui-fg-subtle">Saved here, used by the next checkout on every server. Empty fields fall back to medusa-config.ts.</Text>
        </div>
        <Button size="small" variant="secondary" isLoading={testConnection.isPending} onClick={() => testConnection.mutate()}>Test connection</Button>
      </div>
      <QueryState isLoading={settings.isLoading || form === null && settings.error === null} error={settings.error ? errorMessage(settings.error) : null} onRetry={() => settings.refetch()}>
        {s && form ? (
          <div className="flex flex-col gap-y-6 px-6 py-4">
            <div className="flex flex-wrap items-center gap-2">
              <Badge color={s.api_key_set ? "green" : "red"}>{s.api_key_set ? "Secret key set" : "Secret key missing"}</Badge>
              <Badge color="grey">Gateway: {s.gateway_host}</Badge>
              <Badge color="grey">Provider: {s.provider_id}</Badge>
              {s.white_label ? <Badge color="blue">White-label</Badge> : null}
              {test ? <Badge color={test.ok ? "green" : "red"}>{test.message}</Badge> : null}
            </div>
            <Text size="small" className="text-ui-fg-subtle">The secret key is set in the server's configuration (medusa-config.ts / environment) and never shown here.</Text>
            <CallbackUrls endpoints={s.callback_endpoints} />
            <div className="flex flex-col gap-y-2">
              <Label>{FIELD_LABELS.accepted_coins} {form.accepted.length === 0 ? "(none selected: every coin enabled for the shop)" : `(${form.accepted.length})`}</Label>
              <QueryState isLoading={currencies.isLoading} error={currencies.error ? errorMessage(currencies.error) : null} onRetry={() => currencies.refetch()} isEmpty={coins.length === 0} emptyText="The gateway lists no coins.">
                <div className="grid grid-cols-2 gap-2 md:grid-cols-4">
                  {coins.map((cid) => (
                    <label key={cid} className="flex items-center gap-x-2 txt-compact-small">
                      <Switch checked={form.accepted.includes(cid)} onCheckedChange={() => toggleCoin(cid)} aria-label={`Accept ${cid}`} />
                      {cid}
                    </label>
                  ))}
                </div>
              </QueryState>
            </div>
            <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
              <div className="flex flex-col gap-y-1">
                <Label htmlFor="settings-default">{FIELD_LABELS.default_coin}</Label>
                <Select value={form.defaultCoin} onValueChange={(v) => setForm({ ...form, defaultCoin: v })}>
                  <Select.Trigger id="settings-default"><Select.Value /></Select.Trigger>
                  <Select.Content>
                    <Select.Item value={NONE}>None (the shopper picks)</Select.Item>
                    {(form.accepted.length > 0 ? form.accepted : coins).map((cid) => <Select.Item key={cid} value={cid}>{cid}</Select.Item>)}
                  </Select.Content>
                </Select>
                {errors.defaultCoin ? <Text size="small" className="text-ui-fg-error">{errors.defaultCoin}</Text> : null}
              </div>
              <div className="flex flex-col gap-y-1">
                <Label htmlFor="settings-lifetime">{FIELD_LABELS.invoice_lifetime_minutes}</Label>
                <Input id="settings-lifetime" value={form.lifetime} onChange={(e) => setForm({ ...form, lifetime: e.target.value.trim() })} inputMode="numeric" />
                {errors.lifetime ? <Text size="small" className="text-ui-fg-error">{errors.lifetime}</Text> : null}
              </div>
              <div className="flex flex-col gap-y-1">
                <Label htmlFor="settings-tolerance">{FIELD_LABELS.underpaid_tolerance_percent}</Label>
                <Input id="settings-tolerance" value={form.tolerance} onChange={(e) => setForm({ ...form, tolerance: e.target.value.trim() })} inputMode="decimal" />
                {errors.tolerance ? <Text size="small" className="text-ui-fg-error">{errors.tolerance}</Text> : null}
              </div>
            </div>
            <div className="flex flex-col gap-y-3">
              <Heading level="h2">Order rules</Heading>
              <div className="flex items-center gap-x-2">
                <Switch id="settings-detection" checked={form.orderOnDetection} onCheckedChange={(v) => setForm({ ...form, orderOnDetection: v })} />
                <Label htmlFor="settings-detection">By default, place the order as soon as the payment is seen on-chain (before confirmations)</Label>
              </div>
              <OrderRulesEditor
                rules={form.orderRules}
                onChange={(orderRules) => setForm({ ...form, orderRules })}
                coins={coins}
                storeCurrency={storeCurrency}
                defaultOnDetection={form.orderOnDetection}
              />
              <OrderOutcomesEditor outcomes={form.orderOutcomes} onChange={(orderOutcomes) => setForm({ ...form, orderOutcomes })} />
            </div>
            <div className="flex flex-col gap-y-1">
              <div className="flex items-center gap-x-2">
                <Switch
                  id="settings-protect"
                  data-testid="protect-order-status"
                  checked={form.protectOrderStatus}
                  onCheckedChange={(v) => setForm({ ...form, protectOrderStatus: v })}
                />
                <Label htmlFor="settings-protect">{FIELD_LABELS.protect_order_status}</Label>
              </div>
              <Text size="small" className="text-ui-fg-subtle">
                A payment never changes an order someone canceled or edited by hand: the order stays as it is, and the payment appears in Needs attention for you to decide.
              </Text>
            </div>
            <div className="flex items-center justify-between">
              <Text size="small" className="text-ui-fg-muted">{s.stored.updated_at ? `Last saved ${formatDate(s.stored.updated_at)}${savedBy(s) ? ` by ${savedBy(s)}` : ""}` : "Using medusa-config.ts defaults"}</Text>
              <Button disabled={Object.keys(errors).length > 0 || !changed} isLoading={save.isPending} onClick={() => save.mutate(form)}>Save</Button>
            </div>
            <SettingsChanges changes={s.changes} />
            <MoneyOutSection coins={coins} storeCurrency={storeCurrency} />
          </div>
        ) : null}
      </QueryState>
    </Container>
  )
}

/** Each saved field's name, in the form and in the audit trail: one label per field, checked by the compiler. */
const FIELD_LABELS: Record<SettingsField, string> = {
  accepted_coins: "Accepted coins",
  default_coin: "Default coin",
  invoice_lifetime_minutes: "Invoice lifetime (minutes)",
  order_on_detection: "Order on detection (default)",
  underpaid_tolerance_percent: "Underpayment tolerance (%)",
  order_rules: "Order rules",
  order_outcomes: "When an invoice ends",
  protect_order_status: "Protect order status",
}

const isRuleList = (value: unknown): value is OrderRule[] => Array.isArray(value) && value.every((rule) => typeof rule === "object" && rule !== null && "place" in rule)

/** Who saved last: the newest change's e-mail (the audit trail reads it), else the stored user id. */
const savedBy = (s: SettingsResponse["settings"]): string | null => s.changes[0]?.changed_by_email ?? s.stored.updated_by ?? null

/** A saved value of `field` in words: null is the medusa-config default. */
function changeValue(field: string, value: unknown): string {
  if (value === null || value === undefined) return "config default"
  if (typeof value === "boolean") return value ? "on" : "off"
  if (field === "order_rules" && isRuleList(value)) return value.length === 0 ? "no rules" : value.map(describeOrderRule).join("; ")
  if (field === "accepted_coins" && Array.isArray(value)) return value.length === 0 ? "every coin" : value.join(", ")
  if (Array.isArray(value)) return value.join(", ")
  return String(value)
}

/** The audit trail: who saved what, when (newest first). */
const SettingsChanges = ({ changes }: { changes: SettingsChange[] }) => (
  <div className="flex flex-col gap-y-2" data-testid="settings-changes">
    <Heading level="h2">Changes</Heading>
    {changes.length === 0 ? (
      <Text size="small" className="text-ui-fg-muted">No saved changes yet.</Text>
    ) : (
      <ul className="flex flex-col gap-y-2">
        {changes.map((change) => (
          <li key={change.id} className="rounded-md border px-3 py-2">
            <Text size="small" weight="plus">
              {formatDate(change.changed_at)} · {change.changed_by_email ?? change.changed_by ?? "unknown"}
            </Text>
            <ul>
              {Object.entries(change.changes).map(([field, { from, to }]) => (
                <li key={field}>
                  <Text size="small" className="text-ui-fg-subtle">
                    {field in FIELD_LABELS ? FIELD_LABELS[field as SettingsField] : field}: {changeValue(field, from)} → {changeValue(field, to)}
                  </Text>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    )}
  </div>
)

export const config = defineRouteConfig({ label: "Crypto" })

export default CryptoSettingsPage
