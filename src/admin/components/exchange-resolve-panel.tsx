import { Button, Heading, Input, Label, Text, Textarea, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { cryptoApi, errorMessage } from "../lib/api"
import type { RecordedExchange } from "../lib/types"

/**
 * The merchant's decision on an exchange whose outcome the gateway did not confirm: the gateway's
 * exchange id that is it (read back and checked), or "confirmed not sent" with a required note.
 * The gateway has no list of exchanges to search (spec §4.11): the merchant looks in its dashboard.
 */
export const ExchangeResolvePanel = ({ exchange, onClose }: { exchange: RecordedExchange; onClose: () => void }) => {
  const prompt = usePrompt()
  const queryClient = useQueryClient()
  const [exchangeId, setExchangeId] = useState("")
  const [note, setNote] = useState("")
  const resolve = useMutation({
    mutationFn: (body: Record<string, unknown>) => cryptoApi.post<{ exchange: RecordedExchange }>(`/exchanges/${exchange.id}/resolve`, body),
    onSuccess: ({ exchange: resolved }) => {
      queryClient.invalidateQueries({ queryKey: ["crypto"] })
      toast.success(`Exchange ${resolved.status.replace("_", " ")}`)
      onClose()
    },
    onError: (error) => toast.error("Not resolved", { description: errorMessage(error) }),
  })
  const chooseExchange = async () => {
    const ok = await prompt({
      title: "This gateway exchange is it?",
      description: `Exchange ${exchangeId.trim()} will be recorded as ${exchange.id}, with you as the one who decided.`,
      confirmText: "Yes, this is it",
      cancelText: "Cancel",
    })
    if (ok) resolve.mutate({ resolution: "exchange", exchange_id: exchangeId.trim(), ...(note.trim() ? { note: note.trim() } : {}) })
  }
  const confirmNotSent = async () => {
    const ok = await prompt({
      title: "Confirm it was not created?",
      description: "Only if the gateway's dashboard shows no such exchange. If it was in fact created, a new one exchanges the coins twice.",
      confirmText: "Confirmed not sent",
      cancelText: "Cancel",
    })
    if (ok) resolve.mutate({ resolution: "not_sent", note: note.trim() })
  }
  return (
    <div className="flex flex-col gap-y-3 rounded-md border px-4 py-3" aria-label="Resolve exchange">
      <div className="flex items-center justify-between">
        <Heading level="h3">Exchange {exchange.id}</Heading>
        <Button size="small" variant="transparent" onClick={onClose}>Close</Button>
      </div>
      <Text size="small" className="text-ui-fg-subtle">
        {exchange.from_amount ?? exchange.to_amount} {exchange.from_amount ? exchange.from_currency : exchange.to_currency} · {exchange.from_currency} → {exchange.to_currency} to {exchange.to_address}. {exchange.error_message}
      </Text>
      <div className="flex items-end gap-x-2">
        <div className="flex flex-col gap-y-1">
          <Label htmlFor={`exchange-resolve-id-${exchange.id}`}>Gateway exchange id</Label>
          <Input id={`exchange-resolve-id-${exchange.id}`} value={exchangeId} onChange={(e) => setExchangeId(e.target.value)} maxLength={128} />
        </div>
        <Button size="small" variant="secondary" disabled={exchangeId.trim() === ""} isLoading={resolve.isPending} onClick={chooseExchange}>This exchange is it</Button>
      </div>
      <div className="flex flex-col gap-y-1">
        <Label htmlFor={`exchange-resolve-note-${exchange.id}`}>Note (required to confirm it was not sent)</Label>
        <Textarea id={`exchange-resolve-note-${exchange.id}`} rows={2} value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} />
      </div>
      <div className="flex justify-end">
        <Button size="small" variant="danger" disabled={note.trim() === ""} isLoading={resolve.isPending} onClick={confirmNotSent}>Confirmed not sent</Button>
      </div>
    </div>
  )
}
