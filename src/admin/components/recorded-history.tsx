import { Button, Heading, Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { useState, type ReactNode } from "react"
import { cryptoApi, errorMessage } from "../lib/api"
import { CryptoStatusBadge, formatDate, QueryState } from "./common"

const PAGE = 20

/** A money-out record the admin lists: crypto_withdrawal or crypto_exchange (docs/money-out.md). */
export interface RecordedRow {
  id: string
  requested_at: string
  status: string
}

/** One column between "Requested" and "Status". */
export interface HistoryColumn<Row> {
  header: string
  cell: (row: Row) => ReactNode
  className?: string
}

/**
 * The one history screen of money sent out from here (withdrawals and refunds, exchanges): the
 * records of `resource`, newest first, a page at a time, each with its status and a button opening
 * its panel — "Resolve" while it waits for the merchant's decision, else `detailsLabel` if given.
 * Changing `filters` starts again at the first page.
 */
export function RecordedHistory<Resource extends "withdrawals" | "exchanges", Row extends RecordedRow>(props: {
  resource: Resource
  label: string
  title: string
  description: string
  emptyText: string
  filters?: Record<string, string | undefined>
  toolbar?: ReactNode
  columns: ReadonlyArray<HistoryColumn<Row>>
  /** Under the status badge, e.g. why it failed. */
  statusNote?: (row: Row) => ReactNode
  needsDecision: (row: Row) => boolean
  /** Without it, only records that need a decision have a button. */
  detailsLabel?: string
  panel: (row: Row, close: () => void) => ReactNode
}) {
  const { resource, filters } = props
  const [page, setPage] = useState({ filters, offset: 0 })
  // Filters changed: back to the first page (React's "adjusting state when a prop changes").
  const offset = page.filters === filters ? page.offset : 0
  if (page.filters !== filters) setPage({ filters, offset: 0 })
  const setOffset = (next: number) => setPage({ filters, offset: next })
  const [open, setOpen] = useState<Row | null>(null)
  const query = { ...filters, limit: PAGE, offset }
  const list = useQuery({
    queryKey: ["crypto", resource, query],
    queryFn: () => cryptoApi.get<{ count: number } & { [Key in Resource]?: Row[] }>(`/${resource}`, query),
  })
  const count = list.data?.count ?? 0
  const rows: Row[] = list.data?.[resource] ?? []

  return (
    <div className="flex flex-col gap-y-3" aria-label={props.label}>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <Heading level="h2">{props.title}</Heading>
          <Text size="small" className="text-ui-fg-subtle">{props.description}</Text>
        </div>
        {props.toolbar}
      </div>
      <QueryState isLoading={list.isLoading} error={list.error ? errorMessage(list.error) : null} isEmpty={count === 0} emptyText={props.emptyText} onRetry={() => list.refetch()}>
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Requested</Table.HeaderCell>
              {props.columns.map((column) => <Table.HeaderCell key={column.header}>{column.header}</Table.HeaderCell>)}
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => {
              const decide = props.needsDecision(row)
              return (
                <Table.Row key={row.id}>
                  <Table.Cell>{formatDate(row.requested_at)}</Table.Cell>
                  {props.columns.map((column) => <Table.Cell key={column.header} className={column.className}>{column.cell(row)}</Table.Cell>)}
                  <Table.Cell>
                    <CryptoStatusBadge status={row.status} />
                    {props.statusNote?.(row)}
                  </Table.Cell>
                  <Table.Cell>
                    {decide || props.detailsLabel !== undefined ? (
                      <Button size="small" variant={decide ? "primary" : "transparent"} onClick={() => setOpen(open?.id === row.id ? null : row)}>
                        {decide ? "Resolve" : props.detailsLabel}
                      </Button>
                    ) : null}
                  </Table.Cell>
                </Table.Row>
              )
            })}
          </Table.Body>
        </Table>
        <Table.Pagination count={count} pageSize={PAGE} pageIndex={Math.floor(offset / PAGE)} pageCount={Math.max(1, Math.ceil(count / PAGE))}
          canPreviousPage={offset > 0} canNextPage={offset + PAGE < count} previousPage={() => setOffset(Math.max(0, offset - PAGE))} nextPage={() => setOffset(offset + PAGE)} />
      </QueryState>
      {open ? <div key={open.id}>{props.panel(open, () => setOpen(null))}</div> : null}
    </div>
  )
}
