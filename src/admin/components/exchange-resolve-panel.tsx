import { Button, Heading, Input, Label, Text } from "@medusajs/ui"
import { useState } from "react"
import type { RecordedExchange } from "../lib/types"
import { NoteAndDecision, optionalNote, useResolveDecision } from "./resolve-decision"

/**
 * The merchant's decision on an exchange whose outcome the gateway did not confirm: the gateway's
 * exchange id that is it (read back and checked), or "confirmed not sent" with a required note.
 * The gateway has no list of exchanges to search (spec §4.11): the merchant looks in its dashboard.
 */
export const ExchangeResolvePanel = ({ exchange, onClose }: { exchange: RecordedExchange; onClose: () => void }) => {
  const [exchangeId, setExchangeId] = useState("")
  const [note, setNote] = useState("")
  const resolve = useResolveDecision("exchange", exchange.id, onClose)
  const chooseExchange = () =>
    resolve.decide(
      { title: "This gateway exchange is it?", description: `Exchange ${exchangeId.trim()} will be recorded as ${exchange.id}, with you as the one who decided.`, confirmText: "Yes, this is it" },
      { resolution: "exchange", exchange_id: exchangeId.trim(), ...optionalNote(note) },
    )
  const confirmNotSent = () =>
    resolve.confirmNotSent(
      "Confirm it was not created?",
      "Only if the gateway's dashboard shows no such exchange. If it was in fact created, a new one exchanges the coins twice.",
      note,
    )
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
      <NoteAndDecision id={`exchange-resolve-note-${exchange.id}`} label="Note (required to confirm it was not sent)" note={note} onNote={setNote}
        action="Confirmed not sent" isPending={resolve.isPending} onDecide={confirmNotSent} />
    </div>
  )
}
