import { Badge, Button, Copy, Heading, Text } from "@medusajs/ui"
import { useMutation } from "@tanstack/react-query"
import { useState } from "react"
import type { AdminCryptoCallbackCheckResponse, AdminCryptoSettingsResponse, Serialized } from "../../api/admin/crypto/types"
import { cryptoApi, errorMessage } from "../lib/api"
import { formatDate } from "./common"

type Endpoint = Serialized<AdminCryptoSettingsResponse>["settings"]["callback_endpoints"][number]
type CheckResult = Serialized<AdminCryptoCallbackCheckResponse>

/** The newest verified callback in words: when, its kind, its transaction and status. */
const lastCallbackText = (last: Endpoint["last_callback"]): string =>
  last === null
    ? "None yet"
    : [formatDate(last.received_at), last.ipn_type, last.txn_id === null ? null : `txn ${last.txn_id}`, last.status].filter((part) => part !== null).join(" · ")

/**
 * One provider entry's callback URL (the one its invoices carry) with a copy button, the newest
 * verified callback it received, and "Check the callback URL" (docs/troubleshooting.md#check-the-callback-url).
 */
const CallbackEndpoint = ({ endpoint, showProvider }: { endpoint: Endpoint; showProvider: boolean }) => {
  const [result, setResult] = useState<CheckResult | null>(null)
  const check = useMutation({
    mutationFn: () => cryptoApi.post<CheckResult>("/settings/callback-check", { provider_id: endpoint.provider_id }),
    onMutate: () => setResult(null),
    onSuccess: setResult,
  })
  return (
    <div className="flex flex-col gap-y-2 rounded-md border px-3 py-2" data-testid="callback-endpoint" data-provider-id={endpoint.provider_id}>
      {showProvider ? <Badge color="grey" className="w-fit">Provider: {endpoint.provider_id}</Badge> : null}
      {endpoint.callback_url === null ? (
        <Text size="small" className="text-ui-fg-error">
          No callback URL: backendUrl is not set for this provider in medusa-config.ts, so invoices carry none and the gateway posts callbacks to the shop's Status URL. Set backendUrl to this store's public URL.
        </Text>
      ) : (
        <div className="flex items-center gap-x-2">
          <code className="txt-compact-small break-all rounded bg-ui-bg-subtle px-2 py-1" data-testid="callback-url">{endpoint.callback_url}</code>
          <Copy content={endpoint.callback_url} aria-label="Copy the callback URL" />
        </div>
      )}
      <Text size="small" className="text-ui-fg-subtle" data-testid="last-callback">
        Last verified callback: {lastCallbackText(endpoint.last_callback)}
      </Text>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Button size="small" variant="secondary" disabled={endpoint.callback_url === null} isLoading={check.isPending} onClick={() => check.mutate()}>
          Check the callback URL
        </Button>
        {result ? (
          <Text size="small" className={result.answered_by_this_store ? "text-ui-tag-green-text" : "text-ui-fg-error"} data-testid="callback-check-result" role="status">
            {result.detail} ({result.elapsed_ms} ms)
          </Text>
        ) : null}
        {check.error ? (
          <Text size="small" className="text-ui-fg-error" role="alert">
            The check could not run: {errorMessage(check.error)}
          </Text>
        ) : null}
      </div>
    </div>
  )
}

/** Settings → Crypto: where the gateway sends callbacks, per provider entry, and whether they arrive. */
export const CallbackUrls = ({ endpoints }: { endpoints: Endpoint[] }) => (
  <div className="flex flex-col gap-y-2" data-testid="callback-urls">
    <Heading level="h2">Callback URL</Heading>
    <Text size="small" className="text-ui-fg-subtle">
      Paste it into the Status URL of the shop's settings at the gateway (deposit callbacks go there); every invoice carries it too. The check sends a signed test callback to it and says who answered.
    </Text>
    {endpoints.map((endpoint) => (
      <CallbackEndpoint key={endpoint.provider_id} endpoint={endpoint} showProvider={endpoints.length > 1} />
    ))}
  </div>
)
