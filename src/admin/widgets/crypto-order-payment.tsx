import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Drawer, Heading, Input, Label, Select, Text, Textarea, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useRef, useState } from "react"
import { CryptoStatusBadge, Field, QueryState, TxLinks, formatDate } from "../components/common"
import { cryptoApi, errorMessage, newIdempotencyKey } from "../lib/api"
import { formatDecimal, isPositiveDecimal } from "../lib/money"
import type { AdminCryptoRefundClaim, AdminCryptoRefundClaimCreated, AdminCryptoRefundClaimsResponse, Serialized } from "../../api/admin/crypto/types"
import type { OrderCryptoResponse, RefundQuote, Withdrawal } from "../lib/types"

type Kind = "refund" | "overpayment" | "underpayment"
/** Who gives the address: the merchant types it, or the customer claims the refund with a link (docs/money-out.md#refunds-the-shopper-claims). */
type AddressFrom = "typed" | "customer"

/** A claim's status in the merchant's words. */
const CLAIM_STATUS_TEXT: Record<AdminCryptoRefundClaim["status"], string> = {
  waiting: "Waiting for the customer's address",
  sending: "Sent to the customer's address, not yet confirmed",
  sent: "Sent to the customer's address",
  unknown: "Sent, outcome unknown: check it under Crypto → Withdrawals",
  failed: "Failed at the gateway: check it under Crypto → Withdrawals",
  expired: "Expired: the customer did not claim it",
  revoked: "Revoked",
}

/**
 * An invoice as the merchant knows its order: "#12", "#12 · invoice 2" for a later one (a new cart
 * total); our order number (`cart_…-2`, what the gateway shows) is its tooltip, and the label when
 * the order carries no display id.
 */
const invoiceLabel = (displayId: number | undefined, attempt: number, orderNumber: string): string =>
  displayId === undefined ? orderNumber : attempt > 1 ? `#${displayId} · invoice ${attempt}` : `#${displayId}`

/** A titled list under the invoice's fields, shown only when it has items. */
const ListSection = <T,>({ title, items, children }: { title: string; items: readonly T[]; children: (item: T) => React.ReactNode }) =>
  items.length === 0 ? null : (
    <div className="pt-3">
      <Text size="small" weight="plus">{title}</Text>
      <ul className="flex flex-col gap-y-1 pt-1">{items.map((item) => children(item))}</ul>
    </div>
  )

const RefundDrawer = ({ orderId, open, onClose, data }: { orderId: string; open: boolean; onClose: () => void; data: OrderCryptoResponse }) => {
  const queryClient = useQueryClient()
  const prompt = usePrompt()
  const current = data.invoices.find((i) => i.id === data.current_invoice_id)
  const payment = data.payments.find((p) => isPositiveDecimal(p.refundable)) ?? data.payments[0]
  const [kind, setKind] = useState<Kind>("refund")
  const [amount, setAmount] = useState("")
  const [address, setAddress] = useState("")
  const [note, setNote] = useState("")
  const [addressFrom, setAddressFrom] = useState<AddressFrom>("typed")
  const [link, setLink] = useState<string | null>(null)
  const [quote, setQuote] = useState<RefundQuote | null>(null)
  const key = useRef(newIdempotencyKey())
  const addressOk = address.trim() !== "" && !/[\s,;]/.test(address.trim())
  const amountOk = amount === "" || isPositiveDecimal(amount)

  const quoteMutation = useMutation({
    mutationFn: () => cryptoApi.post<{ quote: RefundQuote }>("/refunds/quote", { order_id: orderId, payment_id: payment?.payment_id, ...(amount ? { amount } : {}) }),
    onSuccess: ({ quote: q }) => setQuote(q),
    onError: (error) => toast.error("No quote", { description: errorMessage(error) }),
  })
  // What a refund and a claim link both send: the order, what to refund and how much (a claim has no address yet).
  const terms = (address?: string) => ({
    order_id: orderId,
    kind,
    ...(address === undefined ? {} : { address }),
    fee_plan: "normal",
    ...(note.trim() ? { note: note.trim() } : {}),
    ...(kind === "refund" && quote ? { payment_id: quote.payment_id, amount: quote.amount, rate: quote.rate } : amount ? { amount } : {}),
  })
  const refund = useMutation({
    mutationFn: () => cryptoApi.post<{ withdrawal: Withdrawal }>("/refunds", { idempotency_key: key.current, ...terms(address.trim()) }),
    onSuccess: ({ withdrawal }) => {
      queryClient.invalidateQueries({ queryKey: ["crypto", "order", orderId] })
      queryClient.invalidateQueries({ queryKey: ["orders"] })
      if (withdrawal.status !== "outcome_unknown") key.current = newIdempotencyKey()
      if (withdrawal.status === "completed") toast.success("Refund sent", { description: withdrawal.error_message ?? undefined })
      else toast.warning(`Refund ${withdrawal.status.replace("_", " ")}`, { description: withdrawal.error_message ?? undefined })
      onClose()
    },
    onError: (error) => {
      key.current = newIdempotencyKey()
      toast.error("Refund refused", { description: errorMessage(error) })
    },
  })

  const claim = useMutation({
    mutationFn: () => cryptoApi.post<Serialized<AdminCryptoRefundClaimCreated>>("/refund-claims", terms()),
    onSuccess: (created) => {
      queryClient.invalidateQueries({ queryKey: ["crypto", "refund-claims", orderId] })
      setLink(created.link)
      toast.success("Claim link created", { description: "Send it to the customer: it is shown only now." })
    },
    onError: (error) => toast.error("No claim link", { description: errorMessage(error) }),
  })

  const due = kind === "overpayment" ? current?.overpaid_amount : kind === "underpayment" ? current?.refund_due_amount : null
  const amountChosen = amountOk && (kind === "refund" ? quote !== null : due !== null && due !== undefined)
  const canSend = addressOk && amountChosen
  const confirm = async () => {
    const what =
      kind === "refund" && quote
        ? `${formatDecimal(quote.coin_amount)} ${quote.psys_cid} (${formatDecimal(quote.amount)} ${quote.fiat} at ${formatDecimal(quote.rate)} ${quote.fiat} per ${quote.psys_cid})`
        : `${formatDecimal(amount || due || "0")} ${current?.psys_cid ?? ""}`
    const ok = await prompt({ title: "Send this crypto refund?", description: `${what} to ${address.trim()}. The network fee is added. This cannot be undone.`, confirmText: "Send refund", cancelText: "Cancel" })
    if (ok) refund.mutate()
  }

  return (
    <Drawer open={open} onOpenChange={(o) => (o ? undefined : onClose())}>
      <Drawer.Content>
        <Drawer.Header><Drawer.Title>Refund in crypto</Drawer.Title></Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="refund-kind">What to refund</Label>
            <Select value={kind} onValueChange={(v) => { setKind(v === "overpayment" || v === "underpayment" ? v : "refund"); setQuote(null) }}>
              <Select.Trigger id="refund-kind"><Select.Value /></Select.Trigger>
              <Select.Content>
                <Select.Item value="refund">Order amount ({formatDecimal(payment?.refundable ?? "0")} {data.currency_code.toUpperCase()} refundable)</Select.Item>
                {current?.overpaid_amount ? <Select.Item value="overpayment">Overpayment ({formatDecimal(current.overpaid_amount)} {current.psys_cid})</Select.Item> : null}
                {current?.refund_due_amount ? <Select.Item value="underpayment">Underpaid amount received ({formatDecimal(current.refund_due_amount)} {current.psys_cid})</Select.Item> : null}
              </Select.Content>
            </Select>
          </div>
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="refund-amount">{kind === "refund" ? `Amount (${data.currency_code.toUpperCase()}, empty = all refundable)` : `Amount (${current?.psys_cid ?? "coin"}, empty = all due)`}</Label>
            <Input id="refund-amount" value={amount} onChange={(e) => { setAmount(e.target.value.trim()); setQuote(null) }} inputMode="decimal" />
            {!amountOk ? <Text size="small" className="text-ui-fg-error">Write the amount like 12.50</Text> : null}
          </div>
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="refund-address-from">Who gives the address</Label>
            <Select value={addressFrom} onValueChange={(v) => { setAddressFrom(v === "customer" ? "customer" : "typed"); setLink(null) }}>
              <Select.Trigger id="refund-address-from"><Select.Value /></Select.Trigger>
              <Select.Content>
                <Select.Item value="typed">I type the customer's address</Select.Item>
                <Select.Item value="customer">The customer enters it (send them a link)</Select.Item>
              </Select.Content>
            </Select>
          </div>
          {addressFrom === "typed" ? (
            <div className="flex flex-col gap-y-1">
              <Label htmlFor="refund-address">Customer's {current?.psys_cid ?? ""} address</Label>
              <Input id="refund-address" value={address} onChange={(e) => setAddress(e.target.value)} autoComplete="off" />
              {address !== "" && !addressOk ? <Text size="small" className="text-ui-fg-error">One address, without spaces or commas</Text> : null}
            </div>
          ) : link !== null ? (
            <div className="flex flex-col gap-y-1 rounded-md border px-4 py-3" data-testid="crypto-claim-link">
              <Label htmlFor="refund-claim-link">Link for the customer (shown only now)</Label>
              <Input id="refund-claim-link" value={link} readOnly onFocus={(e) => e.currentTarget.select()} />
              <Button size="small" variant="secondary" onClick={() => void navigator.clipboard?.writeText(link).then(() => toast.success("Link copied"))}>Copy link</Button>
              <Text size="small" className="text-ui-fg-subtle">The customer opens it, enters their address and confirms; the refund is then sent once. You see it below as waiting, then sent.</Text>
            </div>
          ) : (
            <Text size="small" className="text-ui-fg-subtle">You get a link for the customer. It works once, for a week, and you can revoke it while it waits.</Text>
          )}
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="refund-note">Note (optional)</Label>
            <Textarea id="refund-note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} />
          </div>
          {kind === "refund" ? (
            <div className="flex flex-col gap-y-2 rounded-md border px-4 py-3">
              <Button size="small" variant="secondary" disabled={!amountOk} isLoading={quoteMutation.isPending} onClick={() => quoteMutation.mutate()}>Get the rate</Button>
              {quote ? (
                <>
                  <Field label="Refund">{formatDecimal(quote.amount)} {quote.fiat}</Field>
                  <Field label="Rate">{formatDecimal(quote.rate)} {quote.fiat} per {quote.psys_cid}</Field>
                  <Field label="Sent">{formatDecimal(quote.coin_amount)} {quote.psys_cid}</Field>
                </>
              ) : <Text size="small" className="text-ui-fg-subtle">The amount is converted at the gateway's current rate; you confirm it before anything is sent.</Text>}
            </div>
          ) : null}
        </Drawer.Body>
        <Drawer.Footer>
          <Button variant="secondary" onClick={onClose}>Cancel</Button>
          {addressFrom === "typed" ? (
            <Button disabled={!canSend} isLoading={refund.isPending} onClick={confirm}>Send refund</Button>
          ) : (
            <Button disabled={!amountChosen || link !== null} isLoading={claim.isPending} onClick={() => claim.mutate()}>Create claim link</Button>
          )}
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  )
}

/** The order's refunds the customer claims: waiting for their address, sent, expired, revoked. */
const RefundClaims = ({ orderId }: { orderId: string }) => {
  const queryClient = useQueryClient()
  const { data } = useQuery({
    queryKey: ["crypto", "refund-claims", orderId],
    queryFn: () => cryptoApi.get<AdminCryptoRefundClaimsResponse>(`/refund-claims?order_id=${encodeURIComponent(orderId)}`),
  })
  const revoke = useMutation({
    mutationFn: (id: string) => cryptoApi.post(`/refund-claims/${encodeURIComponent(id)}/revoke`, {}),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ["crypto", "refund-claims", orderId] })
      toast.success("Claim link revoked")
    },
    onError: (error) => toast.error("Not revoked", { description: errorMessage(error) }),
  })
  if (!data || data.claims.length === 0) return null
  return (
    <div className="flex flex-col px-6 py-4" data-testid="crypto-refund-claims">
      <Text size="small" weight="plus">Refunds the customer claims</Text>
      <ul className="flex flex-col gap-y-2 pt-1">
        {data.claims.map((c) => (
          <li key={c.id} className="flex flex-col gap-y-1 txt-compact-small" data-status={c.status}>
            <div className="flex items-center justify-between gap-x-2">
              <span>{formatDecimal(c.amount)} {c.psys_cid}</span>
              <span className="text-ui-fg-subtle">{CLAIM_STATUS_TEXT[c.status]}{c.status === "waiting" ? ` until ${formatDate(c.expires_at)}` : ""}</span>
            </div>
            {c.address ? <span className="text-ui-fg-subtle break-all">To {c.address}</span> : null}
            {c.error && c.status === "waiting" ? <span className="text-ui-fg-error">Last address refused: {c.error}</span> : null}
            {c.status === "waiting" ? (
              <Button size="small" variant="transparent" className="self-start" isLoading={revoke.isPending && revoke.variables === c.id} onClick={() => revoke.mutate(c.id)}>Revoke link</Button>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  )
}

const CryptoOrderPaymentWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const [refundOpen, setRefundOpen] = useState(false)
  const { data, isLoading, error, refetch, isFetching } = useQuery({
    queryKey: ["crypto", "order", order.id],
    queryFn: () => cryptoApi.get<OrderCryptoResponse>(`/orders/${encodeURIComponent(order.id)}`),
  })
  if (data && !data.is_crypto) return null
  const invoice = data?.invoices.find((i) => i.id === data.current_invoice_id)
  const op = data?.operation
  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Crypto payment</Heading>
        <div className="flex items-center gap-x-2">
          <Button size="small" variant="transparent" onClick={() => refetch()} isLoading={isFetching}>Refresh</Button>
          {data && data.payments.length + data.invoices.length > 0 ? <Button size="small" variant="secondary" onClick={() => setRefundOpen(true)}>Refund in crypto</Button> : null}
        </div>
      </div>
      <QueryState isLoading={isLoading} error={error ? errorMessage(error) : null} onRetry={() => refetch()} isEmpty={!invoice} emptyText="No crypto invoice for this order.">
        {data && invoice ? (
          <div className="flex flex-col px-6 py-4">
            <div className="flex flex-wrap gap-2 pb-2">
              <CryptoStatusBadge status={op?.status ?? invoice.gateway_status} />
              {invoice.overpaid_amount ? <Badge color="purple">Overpaid +{formatDecimal(invoice.overpaid_amount)} {invoice.psys_cid}</Badge> : null}
              {invoice.refund_due_amount ? <Badge color="red">Underpaid: {formatDecimal(invoice.refund_due_amount)} {invoice.psys_cid} received, refund due</Badge> : null}
              {invoice.underpaid_amount ? <Badge color="orange">Underpaid within tolerance: {formatDecimal(invoice.underpaid_amount)} {invoice.psys_cid} short</Badge> : null}
              {data.attention.filter((item) => item.status === "open").length > 0 ? (
                <a href="/app/crypto" className="txt-compact-small text-ui-fg-interactive">{data.attention.filter((item) => item.status === "open").length} item(s) need attention</a>
              ) : null}
            </div>
            <Field label="Coin">{invoice.psys_cid ?? "—"}{invoice.currency && invoice.currency !== invoice.psys_cid ? ` (${invoice.currency})` : ""}</Field>
            <Field label="Amount due">{formatDecimal(invoice.expected_amount)} {invoice.psys_cid ?? ""}</Field>
            <Field label="Received">{formatDecimal(op?.amount ?? invoice.received_amount)} {invoice.psys_cid ?? ""}</Field>
            <Field label="Pending">{formatDecimal(op?.pending_sum ?? null)}</Field>
            <Field label="Confirmations">{op?.confirmations ?? "—"}</Field>
            <Field label="Order total">{formatDecimal(invoice.source_amount)} {invoice.source_currency}</Field>
            <Field label="Invoice">{invoice.invoice_url && /^https?:\/\//.test(invoice.invoice_url) ? <a className="text-ui-fg-interactive" href={invoice.invoice_url} target="_blank" rel="noreferrer noopener">{invoice.active_txn_id ?? invoice.txn_id}</a> : invoice.txn_id ?? "—"}</Field>
            <Field label="Transactions"><TxLinks urls={op?.tx_url ?? data.history.flatMap((h) => h.tx_urls)} /></Field>
            {data.operation_error ? <Text size="small" className="text-ui-fg-error">{data.operation_error}</Text> : null}
            <ListSection title="Account of every invoice" items={data.accounts}>
              {(a) => (
                <li key={a.invoice_id} className="txt-compact-small" data-testid="crypto-account">
                  <span className="text-ui-fg-subtle" title={a.order_number}>{invoiceLabel(order.display_id, a.attempt, a.order_number)}{a.holds_order_money ? " (this order's money)" : a.superseded ? " (abandoned)" : ""}: </span>
                  received {formatDecimal(a.received)}, confirmed {formatDecimal(a.confirmed)}, sent back {formatDecimal(a.sent_back)}, refunded {formatDecimal(a.refunded)}, held {formatDecimal(a.held)} {a.currency ?? a.psys_cid ?? ""}
                </li>
              )}
            </ListSection>
            <ListSection title="Status history" items={data.history}>
              {(h) => (
                <li key={h.id} className="flex items-center justify-between gap-x-2 txt-compact-small">
                  <CryptoStatusBadge status={h.status} />
                  <span>{formatDecimal(h.amount)} {h.currency ?? ""}</span>
                  <span className="text-ui-fg-subtle">{formatDate(h.received_at)}</span>
                </li>
              )}
            </ListSection>
            <ListSection title="Crypto refunds" items={data.withdrawals}>
              {(w) => (
                <li key={w.id} className="flex flex-col gap-y-1 txt-compact-small">
                  <div className="flex items-center justify-between gap-x-2">
                    <CryptoStatusBadge status={w.status} />
                    <span>{formatDecimal(w.total_amount)} {w.psys_cid}{w.source_amount ? ` (${formatDecimal(w.source_amount)} ${w.source_currency ?? ""})` : ""}</span>
                  </div>
                  <TxLinks urls={w.tx_urls} />
                  {w.error_message ? <span className="text-ui-fg-subtle">{w.error_message}</span> : null}
                </li>
              )}
            </ListSection>
          </div>
        ) : null}
      </QueryState>
      {data ? <RefundClaims orderId={order.id} /> : null}
      {data ? <RefundDrawer orderId={order.id} open={refundOpen} onClose={() => setRefundOpen(false)} data={data} /> : null}
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "order.details.side.after",
})

export default CryptoOrderPaymentWidget
