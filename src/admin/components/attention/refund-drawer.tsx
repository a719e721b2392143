import { Input, Label, Text, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useRef, useState } from "react"
import type { AdminCryptoAttentionItem, AdminCryptoAttentionRefundResponse, Serialized } from "../../../api/admin/crypto/types"
import { cryptoApi, errorMessage, newIdempotencyKey } from "../../lib/api"
import { FeePlanSelect } from "../fee-plan-select"
import { ActionDrawer } from "./action-drawer"
import { moneyText } from "./facts"
import { orderName } from "./kinds"

type FeePlan = "normal" | "priority"

/**
 * Sends an item's money back in crypto (docs/attention.md#refunding-in-crypto): the merchant fills
 * the shopper's address and a fee plan, confirms the prompt, and the refund is posted with one
 * idempotency key per filled-in form, so a double click or a retry after a lost answer sends once.
 * An unknown outcome keeps the key (it is never sent again from here; the item stays open until the
 * withdrawal is resolved); a definitive answer or a refusal starts a new key; a network failure
 * keeps it.
 */
export const RefundDrawer = ({ item }: { item: AdminCryptoAttentionItem }) => {
  const [open, setOpen] = useState(false)
  const [address, setAddress] = useState("")
  const [feePlan, setFeePlan] = useState<FeePlan>("normal")
  const prompt = usePrompt()
  const queryClient = useQueryClient()
  const key = useRef(newIdempotencyKey())
  const coin = item.psys_cid ?? ""
  const due = item.facts.invoice?.due ?? null
  const amount = moneyText(due) ?? `${item.amount ?? "?"} ${coin}`
  const to = item.order_id !== null ? `the shopper of ${orderName(item)}` : "the sender"

  const send = useMutation({
    mutationFn: () => cryptoApi.post<Serialized<AdminCryptoAttentionRefundResponse>>(`/attention/${item.id}/refund`, { address: address.trim(), fee_plan: feePlan, idempotency_key: key.current }),
    onSuccess: ({ withdrawal }) => {
      void queryClient.invalidateQueries({ queryKey: ["crypto"] })
      setOpen(false)
      if (withdrawal.status === "outcome_unknown") {
        toast.warning("The gateway did not confirm the refund", {
          description: `It is not sent again. The item stays open until withdrawal ${withdrawal.id} is resolved in the withdrawals list.`,
        })
        return
      }
      key.current = newIdempotencyKey()
      toast.success("Refund sent", { description: amount })
    },
    onError: (error) => {
      // A refusal is final (a new attempt gets a new key); a network failure keeps the key.
      if (!(error instanceof TypeError)) key.current = newIdempotencyKey()
      toast.error("Refund refused", { description: errorMessage(error) })
    },
  })

  const review = async () => {
    if (send.isPending || address.trim() === "") return
    const ok = await prompt({
      title: "Send this refund?",
      description: `${amount} to ${address.trim()}, ${feePlan === "priority" ? "priority" : "normal"} fee. Money sent on the blockchain cannot be taken back.`,
      confirmText: "Send",
      cancelText: "Cancel",
    })
    if (ok) send.mutate()
  }

  const formId = `refund-form-${item.id}`
  return (
    <ActionDrawer item={item} open={open} onOpenChange={setOpen} trigger="Refund in crypto…" title="Refund in crypto" formId={formId} submit="Review and send" isPending={send.isPending} disabled={address.trim() === ""}>
      <div className="bg-ui-bg-subtle flex flex-col gap-y-1 rounded-lg px-4 py-3">
        <Text size="small" className="text-ui-fg-subtle">Sends back to {to}</Text>
        <Text size="large" weight="plus">{amount}</Text>
        <Text size="xsmall" className="text-ui-fg-muted">The network fee and the gateway's commission come on top, from your {coin} balance.</Text>
      </div>
      {item.facts.rest_due_until !== null ? (
        <Text size="small" className="text-ui-fg-error" data-testid="refund-rest-warning">
          The shopper may still pay the rest until {new Date(item.facts.rest_due_until).toLocaleString()}, and the order waits for it. Refund now only if the shopper asked for it.
        </Text>
      ) : null}
      <form
        id={formId}
        className="flex flex-col gap-y-4"
        onSubmit={(event) => {
          event.preventDefault()
          void review()
        }}
      >
        <div className="flex flex-col gap-y-2">
          <Label htmlFor={`refund-address-${item.id}`}>The shopper's {coin} address</Label>
          <Input id={`refund-address-${item.id}`} value={address} onChange={(e) => setAddress(e.target.value)} placeholder={`${coin} address the shopper gave you`} autoComplete="off" spellCheck={false} />
          <Text size="xsmall" className="text-ui-fg-muted">Ask the shopper for it. A refund to a wrong address is lost.</Text>
        </div>
        <div className="flex flex-col gap-y-2">
          <Label htmlFor={`refund-plan-${item.id}`}>Fee plan</Label>
          <FeePlanSelect id={`refund-plan-${item.id}`} coin={coin} unit={coin} value={feePlan} onChange={setFeePlan} />
        </div>
      </form>
    </ActionDrawer>
  )
}
