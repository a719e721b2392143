import { Button, Heading, Input, Label, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { cryptoApi, errorMessage } from "../lib/api"
import { isPositiveDecimal } from "../lib/money"
import { CoinSelect } from "./coin-select"
import type { RecordedExchange } from "../lib/types"
import { CryptoStatusBadge, Field, formatUtc, QueryState } from "./common"
import { ExchangesHistory } from "./exchanges-history"
import { useSendOnce } from "./send-once"

type Record_ = Record<string, unknown>

/** The exchange bodies are not documented (spec §2.8): they are shown as sent. */
/** "to_amount" → "To amount": the gateway's exchange bodies are not documented, so every field it sends is shown. */
const fieldLabel = (key: string) => {
  const words = key.replace(/_utc$/, "").replace(/_/g, " ")
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const fieldValue = (key: string, value: unknown): string => {
  if (value === null || value === undefined || value === "") return "—"
  if (key.endsWith("_utc") && typeof value === "number") return formatUtc(value)
  if (typeof value === "object") return JSON.stringify(value)
  return String(value)
}

/** The gateway's answer as label/value rows, in the order the gateway sent them. */
const GatewayAnswer = ({ value }: { value: unknown }) => {
  const entries = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.entries(value) : [["answer", value] as const]
  return (
    <div className="rounded-md border px-4 py-3" aria-label="Gateway answer">
      {entries.map(([key, item]) => (
        <Field key={key} label={fieldLabel(key)}>{fieldValue(key, item)}</Field>
      ))}
    </div>
  )
}

export const ExchangeTab = () => {
  const [from, setFrom] = useState("")
  const [to, setTo] = useState("")
  const [amount, setAmount] = useState("")
  const [toAddress, setToAddress] = useState("")
  const [exchangeId, setExchangeId] = useState("")
  const [estimate, setEstimate] = useState<Record_ | null>(null)
  const [created, setCreated] = useState<RecordedExchange | null>(null)

  const currencies = useQuery({ queryKey: ["crypto", "exchange-currencies"], queryFn: () => cryptoApi.get<{ currencies: unknown }>("/exchanges/currencies"), retry: false })
  const params = { from_currency: from, to_currency: to, from_amount: amount }
  const ready = from !== "" && to !== "" && from !== to && isPositiveDecimal(amount)
  const addressOk = toAddress.trim() !== "" && !/[\s,;]/.test(toAddress.trim())

  const estimateMutation = useMutation({
    mutationFn: () => cryptoApi.post<{ estimate: Record_ }>("/exchanges/estimate", params),
    onSuccess: ({ estimate: e }) => setEstimate(e),
    onError: (error) => toast.error("No estimate", { description: errorMessage(error) }),
  })
  const createMutation = useSendOnce("exchange", {
    body: () => ({ ...params, to_address: toAddress.trim(), confirmed: true }),
    onRecorded: setCreated,
    onSettled: (exchange) => {
      if (exchange.exchange_id) setExchangeId(exchange.exchange_id)
      toast.success("Exchange created")
    },
    unknown: { title: "The gateway did not confirm the exchange", description: "It is not sent again. Check the gateway, then resolve it in the list below." },
    refusedTitle: "Exchange refused",
  })
  const status = useQuery({
    queryKey: ["crypto", "exchange", exchangeId],
    queryFn: () => cryptoApi.get<{ exchange: Record_ }>(`/exchanges/${encodeURIComponent(exchangeId.trim())}`),
    enabled: false,
    retry: false,
  })

  const confirmCreate = () =>
    createMutation.confirmAndSend({
      title: "Create this exchange?",
      description: `${amount} ${from} → ${to}, sent to ${toAddress.trim()}. The gateway executes it at its rate; this cannot be undone.`,
      confirmText: "Create exchange",
    })

  return (
    <div className="flex flex-col gap-y-4 px-6 py-4">
      <div>
        <Heading level="h2">Exchange</Heading>
        <Text size="small" className="text-ui-fg-subtle">Convert one coin into another through the gateway's exchange API.</Text>
      </div>
      <QueryState isLoading={currencies.isLoading} error={currencies.error ? errorMessage(currencies.error) : null} onRetry={() => currencies.refetch()}>
        <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="exchange-from">From</Label>
            <CoinSelect id="exchange-from" value={from} onChange={(v) => { setFrom(v); setEstimate(null) }} />
          </div>
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="exchange-to">To</Label>
            <CoinSelect id="exchange-to" value={to} onChange={(v) => { setTo(v); setEstimate(null) }} />
          </div>
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="exchange-amount">Amount ({from || "from coin"})</Label>
            <Input id="exchange-amount" value={amount} onChange={(e) => { setAmount(e.target.value.trim()); setEstimate(null) }} inputMode="decimal" placeholder="0.01" />
          </div>
        </div>
        {from !== "" && from === to ? <Text size="small" className="text-ui-fg-error">Pick two different coins.</Text> : null}
        {amount !== "" && !isPositiveDecimal(amount) ? <Text size="small" className="text-ui-fg-error">Write the amount like 0.015.</Text> : null}
        <div className="flex justify-end">
          <Button variant="secondary" disabled={!ready} isLoading={estimateMutation.isPending} onClick={() => estimateMutation.mutate()}>Estimate</Button>
        </div>
        {estimate ? (
          <div className="flex flex-col gap-y-3">
            <GatewayAnswer value={estimate} />
            <div className="flex flex-col gap-y-1">
              <Label htmlFor="exchange-address">Receiving address ({to})</Label>
              <Input id="exchange-address" value={toAddress} onChange={(e) => setToAddress(e.target.value)} autoComplete="off" />
            </div>
            <div className="flex justify-end">
              <Button disabled={!ready || !addressOk} isLoading={createMutation.isPending} onClick={confirmCreate}>Create exchange</Button>
            </div>
          </div>
        ) : null}
        {created ? (
          <div className="flex flex-col gap-y-2" aria-label="Exchange result">
            <CryptoStatusBadge status={created.status} />
            {created.error_message ? <Text size="small" className="text-ui-fg-subtle">{created.error_message}</Text> : null}
            <GatewayAnswer value={{ id: created.id, exchange_id: created.exchange_id, from_currency: created.from_currency, to_currency: created.to_currency, from_amount: created.from_amount, to_address: created.to_address, gateway_status: created.gateway_status }} />
          </div>
        ) : null}
        <form className="flex items-end gap-x-2" onSubmit={(e) => { e.preventDefault(); if (exchangeId.trim()) status.refetch() }}>
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="exchange-id">Exchange id</Label>
            <Input id="exchange-id" value={exchangeId} onChange={(e) => setExchangeId(e.target.value)} maxLength={100} />
          </div>
          <Button size="small" variant="secondary" type="submit" disabled={exchangeId.trim() === ""} isLoading={status.isFetching}>Check status</Button>
        </form>
        {status.error ? <Text size="small" className="text-ui-fg-error">{errorMessage(status.error)}</Text> : null}
        {status.data ? (
          <div className="flex flex-col gap-y-2">
            <CryptoStatusBadge status={typeof status.data.exchange.status === "string" ? status.data.exchange.status : null} />
            <GatewayAnswer value={status.data.exchange} />
          </div>
        ) : null}
      </QueryState>
      <ExchangesHistory />
    </div>
  )
}
