import { Badge, Button, Heading, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery } from "@tanstack/react-query"
import type { AdminCryptoAttentionCountResponse, AdminCryptoAttentionItem, AdminCryptoAttentionResponse, AdminCryptoReconcileResponse, Serialized } from "../../api/admin/crypto/types"
import { cryptoApi, errorMessage } from "../lib/api"
import { AttentionDetails, AttentionFactsList, headlineMoney } from "./attention/facts"
import { KIND_LABELS } from "./attention/kinds"
import { RefundDrawer } from "./attention/refund-drawer"
import { ResolveDrawer } from "./attention/resolve-drawer"
import { QueryState } from "./common"

/** The attention count for the tab's badge (GET /admin/crypto/attention/count). */
export function useAttentionCount(): number | undefined {
  const { data } = useQuery({
    queryKey: ["crypto", "attention", "count"],
    queryFn: () => cryptoApi.get<AdminCryptoAttentionCountResponse>("/attention/count"),
    refetchInterval: 60_000,
  })
  return data?.count
}

/** One item: what happened in a sentence, its facts, its actions; the raw record behind "Details". */
const AttentionCard = ({ item }: { item: AdminCryptoAttentionItem }) => {
  const label = KIND_LABELS[item.kind]
  const headline = headlineMoney(item)
  return (
    <section className="flex flex-col gap-y-4 px-6 py-4" data-testid="attention-item" data-kind={item.kind} aria-label={label.title}>
      <div className="flex items-start justify-between gap-x-6">
        <div className="flex flex-col gap-y-1">
          <Heading level="h3">{label.title}</Heading>
          <Text size="small" className="text-ui-fg-subtle">{label.sentence(item)}</Text>
        </div>
        {headline !== null ? (
          <div className="flex shrink-0 flex-col items-end">
            <Text size="large" weight="plus" className="whitespace-nowrap">{headline.coin}</Text>
            {headline.fiat !== null ? <Text size="small" className="text-ui-fg-subtle whitespace-nowrap">{headline.fiat}</Text> : null}
          </div>
        ) : null}
      </div>
      <AttentionFactsList item={item} />
      {item.source === "attention" ? (
        <div className="flex flex-wrap items-center gap-2">
          {item.facts.refundable ? <RefundDrawer item={item} /> : null}
          <ResolveDrawer item={item} />
        </div>
      ) : (
        <Text size="small" className="text-ui-fg-subtle">Decide it in the History tab, under {item.source === "exchange" ? "exchanges" : "withdrawals"}.</Text>
      )}
      <AttentionDetails item={item} />
    </section>
  )
}

/**
 * **Reconcile now** (POST /admin/crypto/reconcile): every pending invoice and unprocessed callback
 * re-read from the gateway on a worker, as the job does every minute for the older ones.
 */
const ReconcileNow = () => {
  const reconcile = useMutation({
    mutationFn: () => cryptoApi.post<AdminCryptoReconcileResponse>("/reconcile", {}),
    onSuccess: () =>
      toast.success("Reconciliation started", { description: "Every pending invoice and unprocessed gateway message is read again from the gateway; what it finds shows here within a minute." }),
    onError: (error) => toast.error("Could not start the reconciliation", { description: errorMessage(error) }),
  })
  return (
    <Button size="small" variant="secondary" isLoading={reconcile.isPending} onClick={() => reconcile.mutate()} data-testid="reconcile-now">
      Reconcile now
    </Button>
  )
}

/** Crypto → Needs attention: what the merchant must decide, each in words, with its facts and its actions. */
export const AttentionTab = () => {
  const { data, isLoading, error, refetch } = useQuery({
    queryKey: ["crypto", "attention", "list"],
    queryFn: () => cryptoApi.get<Serialized<AdminCryptoAttentionResponse>>("/attention", { limit: 100 }),
  })
  return (
    <div className="divide-y">
      <div className="flex items-center justify-between gap-x-2 px-6 py-4">
        <div className="flex items-center gap-x-2">
          <Heading level="h2">Needs attention</Heading>
          {data ? <Badge size="2xsmall">{data.count}</Badge> : null}
        </div>
        <ReconcileNow />
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
