import { Button, Table, toast } from "@medusajs/ui"
import { useMutation, useQuery } from "@tanstack/react-query"
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts"
import { cryptoApi, errorMessage } from "../../lib/api"
import { formatDecimal, formatFiat } from "../../lib/money"
import { ChartCard } from "./chart-card"
import { axisTick, CHART_THEME, legendStyle, plotValue, seriesColor, tooltipStyle } from "./theme"
import type { BalanceChartResponse, BalanceSnapshotResponse } from "./types"
import { bucketLabel } from "./volume-chart"

/** Each coin's balance at the daily snapshot, valued at that day's rate (docs/books.md#balances-over-time). */
export const BalancesChart = () => {
  const { data, isLoading, error, refetch } = useQuery({
    queryKey: ["crypto", "charts", "balances"],
    queryFn: () => cryptoApi.get<BalanceChartResponse>("/charts/balances"),
  })
  const series = data?.series ?? []
  // Today's snapshot on demand (the daily job's own workflow): a fresh install need not wait a night.
  const today = data?.days[data.days.length - 1]
  const takenToday = today !== undefined && series.some((coin) => coin.points.some((point) => point.day === today))
  const snapshot = useMutation({
    mutationFn: () => cryptoApi.post<BalanceSnapshotResponse>("/charts/balances", {}),
    onSuccess: ({ snapshots }) => {
      const failed = snapshots.find((entry) => entry.error !== null)
      if (failed) toast.error("The gateway's balances could not be read", { description: failed.error ?? undefined })
      else toast.success("Today's balances recorded")
      void refetch()
    },
    onError: (failure) => toast.error("Could not record the balances", { description: errorMessage(failure) }),
  })
  const fiat = series.flatMap((s) => s.points).find((point) => point.fiat_currency !== null)?.fiat_currency ?? ""
  const rows = (data?.days ?? []).map((day) => {
    const row: Record<string, string | number | null> = { day: bucketLabel(day, "day") }
    for (const coin of series) {
      const point = coin.points.find((p) => p.day === day)
      row[coin.psys_cid] = plotValue(point?.fiat_value)
      row[`${coin.psys_cid}:text`] = point?.fiat_value ?? null
      row[`${coin.psys_cid}:balance`] = point === undefined ? null : `${formatDecimal(point.balance)} ${coin.currency ?? coin.psys_cid}`
    }
    return row
  })
  return (
    <ChartCard
      title="Balances over time"
      description={`Each coin's gateway balance at the daily snapshot (shortly after 00:00 UTC), valued in ${fiat || "the store's currency"} at that day's rate, over the last 30 days.`}
      testId="chart-balances"
      isLoading={isLoading}
      error={error ? errorMessage(error) : null}
      onRetry={() => refetch()}
      isEmpty={series.length === 0}
      emptyText="No balance snapshot yet: the first is taken at the next daily run (00:05 UTC), or now with Record today's balances."
      controls={
        data !== undefined && !takenToday ? (
          <Button size="small" variant="secondary" isLoading={snapshot.isPending} onClick={() => snapshot.mutate()}>
            Record today's balances
          </Button>
        ) : null
      }
      chart={() => (
        <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={CHART_THEME.grid} vertical={false} />
          <XAxis dataKey="day" tick={axisTick} stroke={CHART_THEME.grid} />
          <YAxis tick={axisTick} stroke={CHART_THEME.grid} width={72} />
          <Tooltip
            {...tooltipStyle}
            cursor={{ stroke: CHART_THEME.grid }}
            formatter={(_value, name, item) => {
              const payload = item.payload as Record<string, unknown>
              return [`${formatFiat(String(payload[`${String(name)}:text`] ?? ""), fiat)} (${String(payload[`${String(name)}:balance`] ?? "—")})`, String(name)]
            }}
          />
          <Legend {...legendStyle} />
          {series.map((coin, index) => (
            <Line key={coin.psys_cid} type="monotone" dataKey={coin.psys_cid} name={coin.psys_cid} stroke={seriesColor(index)} strokeWidth={2} dot={rows.length < 2} connectNulls />
          ))}
        </LineChart>
      )}
      table={() => (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Day (UTC)</Table.HeaderCell>
              <Table.HeaderCell>Coin</Table.HeaderCell>
              <Table.HeaderCell className="text-right">Balance</Table.HeaderCell>
              <Table.HeaderCell className="text-right">Value</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(data?.days ?? []).flatMap((day) =>
              series.flatMap((coin) =>
                coin.points
                  .filter((point) => point.day === day)
                  .map((point) => (
                    <Table.Row key={`${day}-${coin.psys_cid}`} data-day={day} data-coin={coin.psys_cid}>
                      <Table.Cell>{bucketLabel(day, "day")}</Table.Cell>
                      <Table.Cell>{coin.psys_cid}</Table.Cell>
                      <Table.Cell className="text-right">{`${formatDecimal(point.balance)} ${coin.currency ?? coin.psys_cid}`}</Table.Cell>
                      <Table.Cell className="text-right">{point.fiat_currency === null ? "—" : formatFiat(point.fiat_value, point.fiat_currency)}</Table.Cell>
                    </Table.Row>
                  ))
              )
            )}
          </Table.Body>
        </Table>
      )}
    />
  )
}
