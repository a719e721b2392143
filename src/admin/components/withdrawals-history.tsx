import { Button, Heading, Select, Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { cryptoApi, errorMessage } from "../lib/api"
import { formatDecimal } from "../lib/money"
import type { Withdrawal } from "../lib/types"
import { CryptoStatusBadge, formatDate, QueryState } from "./common"
import { WithdrawalResolvePanel } from "./withdrawal-resolve-panel"

const PAGE = 20
const ALL = "all"

/** An unknown outcome, or a failure at the gateway that still blocks the same payment. */
const needsDecision = (w: Withdrawal) => w.status === "outcome_unknown" || (w.status === "error" && w.active_fingerprint !== null)

/**
 * The withdrawals recorded here — crypto refunds included — with their state, newest first, so an
 * unknown outcome can be found and resolved after a page reload.
 */
export const WithdrawalsHistory = () => {
  const [status, setStatus] = useState(ALL)
  const [purpose, setPurpose] = useState(ALL)
  const [offset, setOffset] = useState(0)
  const [open, setOpen] = useState<string | null>(null)
  const query = { limit: PAGE, offset, status: status === ALL ? undefined : status, purpose: purpose === ALL ? undefined : purpose }
  const list = useQuery({
    queryKey: ["crypto", "withdrawals", query],
    queryFn: () => cryptoApi.get<{ withdrawals: Withdrawal[]; count: number }>("/withdrawals", query),
  })
  const count = list.data?.count ?? 0

  return (
    <div className="flex flex-col gap-y-3" aria-label="Withdrawals history">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <Heading level="h2">Withdrawals and refunds</Heading>
          <Text size="small" className="text-ui-fg-subtle">Every withdrawal and crypto refund sent from here. An unknown outcome waits for your decision.</Text>
        </div>
        <div className="flex gap-x-2">
          <Select value={purpose} onValueChange={(v) => { setPurpose(v); setOffset(0) }}>
            <Select.Trigger aria-label="Purpose"><Select.Value /></Select.Trigger>
            <Select.Content>
              {[ALL, "withdrawal", "refund", "overpayment", "underpayment", "late_payment", "unexplained"].map((p) => (
                <Select.Item key={p} value={p}>{p === ALL ? "All purposes" : p.replace("_", " ")}</Select.Item>
              ))}
            </Select.Content>
          </Select>
          <Select value={status} onValueChange={(v) => { setStatus(v); setOffset(0) }}>
            <Select.Trigger aria-label="Status"><Select.Value /></Select.Trigger>
            <Select.Content>
              {[ALL, "outcome_unknown", "completed", "sending", "error", "rejected", "not_sent"].map((s) => (
                <Select.Item key={s} value={s}>{s === ALL ? "All statuses" : s.replace("_", " ")}</Select.Item>
              ))}
            </Select.Content>
          </Select>
        </div>
      </div>
      <QueryState isLoading={list.isLoading} error={list.error ? errorMessage(list.error) : null} isEmpty={count === 0} emptyText="No withdrawal recorded yet." onRetry={() => list.refetch()}>
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Requested</Table.HeaderCell>
              <Table.HeaderCell>Purpose</Table.HeaderCell>
              <Table.HeaderCell>Amount</Table.HeaderCell>
              <Table.HeaderCell>To</Table.HeaderCell>
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(list.data?.withdrawals ?? []).map((w) => (
              <Table.Row key={w.id}>
                <Table.Cell>{formatDate(w.requested_at)}</Table.Cell>
                <Table.Cell>{w.purpose.replace("_", " ")}</Table.Cell>
                <Table.Cell>{formatDecimal(w.total_amount)} {w.psys_cid}</Table.Cell>
                <Table.Cell className="max-w-[220px] truncate">{w.recipients.length === 1 ? w.recipients[0].address : `${w.recipients.length} recipients`}</Table.Cell>
                <Table.Cell>
                  <CryptoStatusBadge status={w.status} />
                  {w.status === "error" && w.operation_id ? <Text size="xsmall" className="text-ui-fg-subtle">Failed at the gateway: operation {w.operation_id}</Text> : null}
                </Table.Cell>
                <Table.Cell>
                  <Button size="small" variant={needsDecision(w) ? "primary" : "transparent"} onClick={() => setOpen(open === w.id ? null : w.id)}>
                    {needsDecision(w) ? "Resolve" : "Details"}
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
        <Table.Pagination count={count} pageSize={PAGE} pageIndex={Math.floor(offset / PAGE)} pageCount={Math.max(1, Math.ceil(count / PAGE))}
          canPreviousPage={offset > 0} canNextPage={offset + PAGE < count} previousPage={() => setOffset(Math.max(0, offset - PAGE))} nextPage={() => setOffset(offset + PAGE)} />
      </QueryState>
      {open ? <WithdrawalResolvePanel key={open} id={open} onClose={() => setOpen(null)} /> : null}
    </div>
  )
}
