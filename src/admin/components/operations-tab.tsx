import { Button, Drawer, Heading, Input, Select, Table, Text } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { INVOICE_STATUSES, OPERATION_TYPES } from "../../gateway/types/common"
import { cryptoApi, errorMessage } from "../lib/api"
import { formatDecimal } from "../lib/money"
import type { Operation, OperationsResponse } from "../lib/types"
import { CoinSelect } from "./coin-select"
import { CryptoStatusBadge, Field, QueryState, TxLinks, formatUtc } from "./common"

// The gateway client's vocabulary (spec §2.2, §3): a module of declarations only, safe in the admin bundle.
const TYPES = OPERATION_TYPES
const STATUSES = INVOICE_STATUSES
const ALL = "__all"
const PAGE_SIZE = 20

const OperationDrawer = ({ id, onClose }: { id: string | null; onClose: () => void }) => {
  const { data, isLoading, error, refetch } = useQuery({
    queryKey: ["crypto", "operation", id],
    queryFn: () => cryptoApi.get<{ operation: Operation }>(`/operations/${encodeURIComponent(id ?? "")}`),
    enabled: id !== null,
  })
  const op = data?.operation
  return (
    <Drawer open={id !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Drawer.Content>
        <Drawer.Header>
          <Drawer.Title>Operation {id}</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="overflow-y-auto">
          <QueryState isLoading={isLoading} error={error ? errorMessage(error) : null} onRetry={() => refetch()}>
            {op ? (
              <div className="flex flex-col">
                <Field label="Type">{op.type}</Field>
                <Field label="Status"><CryptoStatusBadge status={op.status} /></Field>
                <Field label="Coin">{op.psys_cid ?? "—"} {op.currency && op.currency !== op.psys_cid ? `(${op.currency})` : ""}</Field>
                <Field label="Amount">{formatDecimal(op.amount ?? null)}</Field>
                <Field label="Sum">{formatDecimal(op.sum ?? null)}</Field>
                <Field label="Pending">{formatDecimal(op.pending_sum ?? null)}</Field>
                <Field label="Fee">{formatDecimal(op.fee ?? null)}</Field>
                <Field label="Commission">{formatDecimal(op.commission ?? null)}</Field>
                <Field label="Confirmations">{op.confirmations ?? "—"}</Field>
                <Field label="Address">{op.wallet_hash ?? "—"}</Field>
                {op.sendmany ? (
                  <Field label="Recipients">
                    {Object.entries(op.sendmany).map(([address, amount]) => (
                      <div key={address}>{address}: {formatDecimal(amount)}</div>
                    ))}
                  </Field>
                ) : null}
                <Field label="Created">{formatUtc(op.created_at_utc)}</Field>
                <Field label="Finished">{formatUtc(op.finished_at_utc)}</Field>
                <Field label="Transactions"><TxLinks urls={op.tx_url} /></Field>
              </div>
            ) : null}
          </QueryState>
        </Drawer.Body>
      </Drawer.Content>
    </Drawer>
  )
}

export const OperationsTab = () => {
  const [page, setPage] = useState(1)
  const [type, setType] = useState(ALL)
  const [status, setStatus] = useState(ALL)
  const [coin, setCoin] = useState("")
  const [searchText, setSearchText] = useState("")
  const [search, setSearch] = useState("")
  const [selected, setSelected] = useState<string | null>(null)
  const filters = { page, limit: PAGE_SIZE, type: type === ALL ? undefined : type, status: status === ALL ? undefined : status, currency: coin || undefined, search: search || undefined }
  const { data, isLoading, error, refetch, isFetching } = useQuery({
    queryKey: ["crypto", "operations", filters],
    queryFn: () => cryptoApi.get<OperationsResponse>("/operations", filters),
    placeholderData: keepPreviousData,
  })
  const reset = (apply: () => void) => {
    apply()
    setPage(1)
  }
  const meta = data?.meta
  return (
    <div className="flex flex-col">
      <div className="flex flex-col gap-y-3 px-6 py-4">
        <div className="flex items-center justify-between">
          <Heading level="h2">Operations</Heading>
          <Button size="small" variant="secondary" onClick={() => refetch()} isLoading={isFetching}>Refresh</Button>
        </div>
        <div className="grid grid-cols-1 gap-2 md:grid-cols-4">
          <Select value={type} onValueChange={(v) => reset(() => setType(v))}>
            <Select.Trigger aria-label="Type"><Select.Value /></Select.Trigger>
            <Select.Content>
              <Select.Item value={ALL}>All types</Select.Item>
              {TYPES.map((t) => <Select.Item key={t} value={t}>{t}</Select.Item>)}
            </Select.Content>
          </Select>
          <Select value={status} onValueChange={(v) => reset(() => setStatus(v))}>
            <Select.Trigger aria-label="Status"><Select.Value /></Select.Trigger>
            <Select.Content>
              <Select.Item value={ALL}>All statuses</Select.Item>
              {STATUSES.map((s) => <Select.Item key={s} value={s}>{s}</Select.Item>)}
            </Select.Content>
          </Select>
          <CoinSelect value={coin} onChange={(v) => reset(() => setCoin(v))} placeholder="All coins" />
          <form className="flex gap-x-2" onSubmit={(e) => { e.preventDefault(); reset(() => setSearch(searchText.trim().slice(0, 200))) }}>
            <Input type="search" placeholder="Tx id, order number, #order, e-mail" value={searchText} onChange={(e) => setSearchText(e.target.value)} maxLength={200} />
            <Button size="small" variant="secondary" type="submit">Search</Button>
          </form>
        </div>
        {coin || search || type !== ALL || status !== ALL ? (
          <div><Button size="small" variant="transparent" onClick={() => { setType(ALL); setStatus(ALL); setCoin(""); setSearch(""); setSearchText(""); setPage(1) }}>Clear filters</Button></div>
        ) : null}
      </div>
      <QueryState isLoading={isLoading} error={error ? errorMessage(error) : null} onRetry={() => refetch()} isEmpty={data?.operations.length === 0} emptyText="No operations match these filters.">
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Operation</Table.HeaderCell>
              <Table.HeaderCell>Type</Table.HeaderCell>
              <Table.HeaderCell>Order</Table.HeaderCell>
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell className="text-right">Amount</Table.HeaderCell>
              <Table.HeaderCell>Created</Table.HeaderCell>
              <Table.HeaderCell>Tx</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(data?.operations ?? []).map((op) => {
              const order = data?.orders[op.id]
              return (
                <Table.Row key={op.id} className="cursor-pointer" onClick={() => setSelected(op.id)}>
                  <Table.Cell className="font-mono">{op.id}</Table.Cell>
                  <Table.Cell>{op.type}</Table.Cell>
                  <Table.Cell onClick={(e) => e.stopPropagation()}>
                    {order ? <a className="text-ui-fg-interactive" href={`/app/orders/${encodeURIComponent(order.order_id)}`}>#{order.display_id}</a> : "—"}
                  </Table.Cell>
                  <Table.Cell><CryptoStatusBadge status={op.status} /></Table.Cell>
                  <Table.Cell className="text-right">{formatDecimal(op.amount ?? op.sum ?? null)} {op.currency ?? op.psys_cid ?? ""}</Table.Cell>
                  <Table.Cell>{formatUtc(op.created_at_utc)}</Table.Cell>
                  <Table.Cell onClick={(e) => e.stopPropagation()}><TxLinks urls={op.tx_url} /></Table.Cell>
                </Table.Row>
              )
            })}
          </Table.Body>
        </Table>
        {meta ? (
          <Table.Pagination
            count={meta.totalCount}
            pageSize={meta.perPage || PAGE_SIZE}
            pageIndex={Math.max(0, meta.currentPage - 1)}
            pageCount={Math.max(1, meta.pageCount)}
            canPreviousPage={meta.currentPage > 1}
            canNextPage={meta.currentPage < meta.pageCount}
            previousPage={() => setPage((p) => Math.max(1, p - 1))}
            nextPage={() => setPage((p) => p + 1)}
          />
        ) : null}
      </QueryState>
      {data && data.operations.length === 0 && page > 1 ? <Text size="small" className="px-6">Page {page} is empty.</Text> : null}
      <OperationDrawer id={selected} onClose={() => setSelected(null)} />
    </div>
  )
}
