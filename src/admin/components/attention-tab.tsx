import { Badge, Button, Heading, Input, Label, Select, Text, Textarea, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useRef, useState } from "react"
import { cryptoApi, errorMessage, newIdempotencyKey } from "../lib/api"
import { formatDecimal } from "../lib/money"
import { QueryState, formatDate } from "./common"

/** One item of GET /admin/crypto/attention (src/core/attention-queue.ts). */
export interface AttentionItem {
  id: string
  kind: string
  source: "attention" | "withdrawal" | "exchange"
  provider_id: string
  subject_id: string
  order_id: string | null
  psys_cid: string | null
  currency: string | null
  amount: string | null
  evidence: Record<string, unknown>
  status: "open" | "resolved"
  withdrawal_id: string | null
  created_at: string
}

/** What each kind means for the merchant, in a sentence. */
const KIND_LABELS: Record<string, { title: string; help: string }> = {
  late_payment: { title: "Late payment", help: "Money arrived on an invoice whose order was already canceled (expired or cancelled, then paid)." },
  underpaid: { title: "Underpayment", help: "The shopper sent less than asked. Within the tolerance the order was kept (the amount is the shortfall); beyond it the amount is what to send back." },
  overpaid: { title: "Overpayment", help: "The shopper sent more than asked; the amount is the surplus." },
  duplicate_invoice_payment: { title: "Paid twice (another coin)", help: "Money on an invoice of a currency switch that the order does not use." },
  abandoned_invoice_payment: { title: "Paid an abandoned invoice", help: "Money on an invoice the cart replaced when its contents changed." },
  invoice_error: { title: "Invoice in error", help: "The gateway reported an error. It is still polled for 72 hours: a later payment captures the order." },
  unmatched_pay_in: { title: "Unmatched deposit", help: "A pay_in to a deposit address whose uid is no customer." },
  callback_failed: { title: "Callback not processed", help: "A verified callback failed processing several times." },
  withdrawal_unknown: { title: "Withdrawal: outcome unknown", help: "The gateway did not confirm it. Resolve it in the withdrawals list before sending again." },
  refund_unknown: { title: "Refund: outcome unknown", help: "The gateway did not confirm it. Resolve it in the withdrawals list before sending again." },
  withdrawal_failed: { title: "Withdrawal: failed at the gateway", help: "The gateway answered with status error. It is not sent again until you decide: open it in the withdrawals list, check the operation, then allow sending again." },
  refund_failed: { title: "Refund: failed at the gateway", help: "The gateway answered with status error. It is not sent again until you decide: open it in the withdrawals list, check the operation, then allow sending again." },
  exchange_unknown: { title: "Exchange: outcome unknown", help: "The gateway did not confirm it. Resolve it in the exchanges list." },
}

const refundable = (item: AttentionItem) =>
  item.source === "attention" && item.psys_cid !== null && item.amount !== null && !(item.kind === "underpaid" && item.evidence.within_tolerance === true)

const evidenceText = (value: unknown): string => (value === null || value === undefined ? "—" : typeof value === "object" ? JSON.stringify(value) : String(value))

/** The attention count for the tab's badge (GET /admin/crypto/attention/count). */
export function useAttentionCount(): number | undefined {
  const { data } = useQuery({
    queryKey: ["crypto", "attention", "count"],
    queryFn: () => cryptoApi.get<{ count: number }>("/attention/count"),
    refetchInterval: 60_000,
  })
  return data?.count
}

const AttentionCard = ({ item }: { item: AttentionItem }) => {
  const queryClient = useQueryClient()
  const prompt = usePrompt()
  const [address, setAddress] = useState("")
  const [feePlan, setFeePlan] = useState<"normal" | "priority">("normal")
  const [note, setNote] = useState("")
  const [resolution, setResolution] = useState<"kept" | "other">("kept")
  // One key per refund form of this item: a double click or a retry after a lost answer sends once.
  const refundKey = useRef(newIdempotencyKey())
  const label = KIND_LABELS[item.kind] ?? { title: item.kind, help: "" }
  const unit = item.currency ?? item.psys_cid ?? ""
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ["crypto", "attention"] })

  const refund = useMutation({
    mutationFn: () => cryptoApi.post<{ withdrawal: { status: string; id: string } }>(`/attention/${item.id}/refund`, { address: address.trim(), fee_plan: feePlan, idempotency_key: refundKey.current }),
    onSuccess: ({ withdrawal }) => {
      if (withdrawal.status === "outcome_unknown") toast.warning("The gateway did not confirm the refund", { description: "It is not sent again; the item stays open until the withdrawal is resolved." })
      else toast.success("Refund sent")
      refundKey.current = newIdempotencyKey()
      void invalidate()
    },
    onError: (error) => toast.error("Refund refused", { description: errorMessage(error) }),
  })
  const resolve = useMutation({
    mutationFn: () => cryptoApi.post(`/attention/${item.id}/resolve`, { resolution, note: note.trim() }),
    onSuccess: () => {
      toast.success("Resolved")
      void invalidate()
    },
    onError: (error) => toast.error("Could not resolve", { description: errorMessage(error) }),
  })

  const confirmRefund = async () => {
    const ok = await prompt({
      title: "Send this refund?",
      description: `${formatDecimal(item.amount)} ${unit} to ${address.trim()}. This cannot be undone.`,
      confirmText: "Send",
      cancelText: "Cancel",
    })
    if (ok) refund.mutate()
  }

  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="attention-item" data-kind={item.kind}>
      <div className="flex items-center justify-between gap-x-4">
        <div>
          <Heading level="h3">{label.title}</Heading>
          <Text size="small" className="text-ui-fg-subtle">{label.help}</Text>
        </div>
        <Text size="large" weight="plus">{item.amount === null ? "amount unknown" : `${formatDecimal(item.amount)} ${unit}`}</Text>
      </div>
      <div className="grid grid-cols-2 gap-x-4 gap-y-1">
        {Object.entries(item.evidence).map(([key, value]) => (
          <Text key={key} size="small" className="break-all"><span className="text-ui-fg-subtle">{key}: </span>{evidenceText(value)}</Text>
        ))}
        <Text size="small"><span className="text-ui-fg-subtle">raised: </span>{formatDate(item.created_at)}</Text>
      </div>
      <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
        {item.order_id ? <a href={`/app/orders/${item.order_id}`} className="txt-compact-small text-ui-fg-interactive">Open the order</a> : null}
        {item.source === "attention" ? (
          <>
            {refundable(item) ? (
              <form className="flex items-end gap-x-2" onSubmit={(event) => { event.preventDefault(); if (address.trim() !== "") void confirmRefund() }}>
                <div className="flex flex-col gap-y-1">
                  <Label htmlFor={`refund-address-${item.id}`} size="small">Refund in crypto to</Label>
                  <Input id={`refund-address-${item.id}`} size="small" value={address} onChange={(e) => setAddress(e.target.value)} placeholder={`${unit} address`} />
                </div>
                <Select size="small" value={feePlan} onValueChange={(value) => setFeePlan(value === "priority" ? "priority" : "normal")}>
                  <Select.Trigger><Select.Value /></Select.Trigger>
                  <Select.Content>
                    <Select.Item value="normal">Normal fee</Select.Item>
                    <Select.Item value="priority">Priority fee</Select.Item>
                  </Select.Content>
                </Select>
                <Button size="small" variant="secondary" type="submit" isLoading={refund.isPending} disabled={address.trim() === ""}>Refund</Button>
              </form>
            ) : null}
            <form className="flex items-end gap-x-2" onSubmit={(event) => { event.preventDefault(); if (note.trim().length >= 3) resolve.mutate() }}>
              <Select size="small" value={resolution} onValueChange={(value) => setResolution(value === "other" ? "other" : "kept")}>
                <Select.Trigger><Select.Value /></Select.Trigger>
                <Select.Content>
                  <Select.Item value="kept">Kept</Select.Item>
                  <Select.Item value="other">Other</Select.Item>
                </Select.Content>
              </Select>
              <div className="flex flex-col gap-y-1">
                <Label htmlFor={`resolve-note-${item.id}`} size="small">Why (required)</Label>
                <Textarea id={`resolve-note-${item.id}`} rows={1} value={note} onChange={(e) => setNote(e.target.value)} placeholder="e.g. the shopper agreed to keep it as credit" />
              </div>
              <Button size="small" variant="secondary" type="submit" isLoading={resolve.isPending} disabled={note.trim().length < 3}>Mark resolved</Button>
            </form>
          </>
        ) : (
          <Text size="small" className="text-ui-fg-subtle">Resolve it in the {item.source === "exchange" ? "exchanges" : "withdrawals"} list ({item.id}).</Text>
        )}
      </div>
    </div>
  )
}

/** Crypto → Needs attention: what the merchant must decide, each with its evidence and its actions. */
export const AttentionTab = () => {
  const { data, isLoading, error, refetch } = useQuery({
    queryKey: ["crypto", "attention", "list"],
    queryFn: () => cryptoApi.get<{ items: AttentionItem[]; count: number }>("/attention", { limit: 100 }),
  })
  return (
    <div className="divide-y">
      <div className="flex items-center gap-x-2 px-6 py-4">
        <Heading level="h2">Needs attention</Heading>
        {data ? <Badge size="2xsmall">{data.count}</Badge> : null}
      </div>
      <QueryState
        isLoading={isLoading}
        error={error ? errorMessage(error) : null}
        isEmpty={(data?.items.length ?? 0) === 0}
        emptyText="Nothing needs your decision: every crypto amount is explained."
        onRetry={() => void refetch()}
      >
        {data?.items.map((item) => <AttentionCard key={item.id} item={item} />)}
      </QueryState>
    </div>
  )
}
