import { Button, Heading, Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { cryptoApi, errorMessage } from "../lib/api"
import { formatDecimal } from "../lib/money"
import type { RecordedExchange } from "../lib/types"
import { CryptoStatusBadge, formatDate, QueryState } from "./common"
import { ExchangeResolvePanel } from "./exchange-resolve-panel"

const PAGE = 20

/** The exchanges recorded here with their state, newest first; an unknown outcome can be resolved. */
export const ExchangesHistory = () => {
  const [offset, setOffset] = useState(0)
  const [open, setOpen] = useState<RecordedExchange | null>(null)
  const list = useQuery({
    queryKey: ["crypto", "exchanges", offset],
    queryFn: () => cryptoApi.get<{ exchanges: RecordedExchange[]; count: number }>("/exchanges", { limit: PAGE, offset }),
  })
  const count = list.data?.count ?? 0
  return (
    <div className="flex flex-col gap-y-3" aria-label="Exchanges history">
      <div>
        <Heading level="h2">Exchanges</Heading>
        <Text size="small" className="text-ui-fg-subtle">Every exchange created from here, with its state.</Text>
      </div>
      <QueryState isLoading={list.isLoading} error={list.error ? errorMessage(list.error) : null} isEmpty={count === 0} emptyText="No exchange recorded yet." onRetry={() => list.refetch()}>
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Requested</Table.HeaderCell>
              <Table.HeaderCell>Exchange</Table.HeaderCell>
              <Table.HeaderCell>Gateway id</Table.HeaderCell>
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(list.data?.exchanges ?? []).map((e) => (
              <Table.Row key={e.id}>
                <Table.Cell>{formatDate(e.requested_at)}</Table.Cell>
                <Table.Cell>
                  {e.from_amount ? `${formatDecimal(e.from_amount)} ${e.from_currency} → ${e.to_currency}` : `${e.from_currency} → ${formatDecimal(e.to_amount)} ${e.to_currency}`}
                </Table.Cell>
                <Table.Cell>{e.exchange_id ?? "—"}</Table.Cell>
                <Table.Cell><CryptoStatusBadge status={e.status} /></Table.Cell>
                <Table.Cell>
                  {e.status === "outcome_unknown" ? <Button size="small" onClick={() => setOpen(open?.id === e.id ? null : e)}>Resolve</Button> : null}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
        <Table.Pagination count={count} pageSize={PAGE} pageIndex={Math.floor(offset / PAGE)} pageCount={Math.max(1, Math.ceil(count / PAGE))}
          canPreviousPage={offset > 0} canNextPage={offset + PAGE < count} previousPage={() => setOffset(Math.max(0, offset - PAGE))} nextPage={() => setOffset(offset + PAGE)} />
      </QueryState>
      {open ? <ExchangeResolvePanel key={open.id} exchange={open} onClose={() => setOpen(null)} /> : null}
    </div>
  )
}
