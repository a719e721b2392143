import { Button, Heading, Select, Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { cryptoApi, errorMessage } from "../lib/api"
import { formatDecimal, formatFiat } from "../lib/money"
import type { BalancesResponse } from "../lib/types"
import { QueryState } from "./common"

const FIATS = ["USD", "EUR", "GBP", "CHF", "CAD", "AUD", "JPY"]

export const BalancesTab = () => {
  const [fiat, setFiat] = useState("USD")
  const { data, isLoading, error, refetch, isFetching } = useQuery({
    queryKey: ["crypto", "balances", fiat],
    queryFn: () => cryptoApi.get<BalancesResponse>("/balances", { fiat }),
  })
  return (
    <div className="flex flex-col">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Balances</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            {data ? `Total ${formatFiat(data.total_fiat_value, data.fiat)} · updated ${new Date(data.fetched_at).toLocaleTimeString()}` : "Per coin, valued at the gateway's current rate"}
          </Text>
        </div>
        <div className="flex items-center gap-x-2">
          <Select value={fiat} onValueChange={setFiat}>
            <Select.Trigger className="w-24" aria-label="Fiat currency">
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              {FIATS.map((code) => (
                <Select.Item key={code} value={code}>{code}</Select.Item>
              ))}
            </Select.Content>
          </Select>
          <Button size="small" variant="secondary" onClick={() => refetch()} isLoading={isFetching}>Refresh</Button>
        </div>
      </div>
      <QueryState isLoading={isLoading} error={error ? errorMessage(error) : null} onRetry={() => refetch()} isEmpty={data?.balances.length === 0} emptyText="No coins are enabled for this shop.">
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Coin</Table.HeaderCell>
              <Table.HeaderCell className="text-right">Balance</Table.HeaderCell>
              <Table.HeaderCell className="text-right">Rate</Table.HeaderCell>
              <Table.HeaderCell className="text-right">Value</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(data?.balances ?? []).map((b) => (
              <Table.Row key={b.psys_cid}>
                <Table.Cell>
                  <div className="flex flex-col">
                    <span className="txt-compact-small-plus">{b.psys_cid}</span>
                    <span className="txt-compact-small text-ui-fg-subtle">{b.name ?? b.currency ?? ""}</span>
                  </div>
                </Table.Cell>
                <Table.Cell className="text-right">
                  {b.error ? <span className="text-ui-fg-error txt-compact-small">{b.error}</span> : `${formatDecimal(b.balance)} ${b.currency ?? ""}`}
                </Table.Cell>
                <Table.Cell className="text-right">{b.fiat_rate ? formatFiat(b.fiat_rate, b.fiat) : "—"}</Table.Cell>
                <Table.Cell className="text-right">{formatFiat(b.fiat_value, b.fiat)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      </QueryState>
    </div>
  )
}
