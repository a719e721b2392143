import { Button, Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts"
import { cryptoApi, errorMessage } from "../../lib/api"
import { formatDecimal, formatFiat } from "../../lib/money"
import { ChartCard } from "./chart-card"
import { axisTick, CHART_THEME, legendStyle, plotValue, seriesColor, tooltipStyle } from "./theme"
import type { ChartInterval, VolumeChartResponse } from "./types"

const INTERVALS: Array<{ value: ChartInterval; label: string }> = [
  { value: "day", label: "Day" },
  { value: "week", label: "Week" },
  { value: "month", label: "Month" },
]

const PERIOD_TEXT: Record<ChartInterval, string> = { day: "the last 30 days", week: "the last 26 weeks", month: "the last 12 months" }

/** A bucket's label: its day, "week of" its Monday, or its month (all UTC). */
export function bucketLabel(bucket: string, interval: ChartInterval): string {
  const date = new Date(`${bucket}T00:00:00Z`)
  if (interval === "month") return date.toLocaleDateString(undefined, { month: "short", year: "numeric", timeZone: "UTC" })
  const day = date.toLocaleDateString(undefined, { day: "numeric", month: "short", timeZone: "UTC" })
  return interval === "week" ? `Week of ${day}` : day
}

/** Received volume per coin, valued in the store's currency, per day / week / month (docs/books.md). */
export const VolumeChart = () => {
  const [interval, setChosen] = useState<ChartInterval>("day")
  const { data, isLoading, error, refetch } = useQuery({
    queryKey: ["crypto", "charts", "volume", interval],
    queryFn: () => cryptoApi.get<VolumeChartResponse>("/charts/volume", { interval }),
  })
  const fiat = data?.fiat_currency ?? ""
  const rows = (data?.buckets ?? []).map((bucket, index) => {
    const row: Record<string, string | number | null> = { bucket: bucketLabel(bucket, interval) }
    for (const series of data?.series ?? []) {
      row[series.psys_cid] = plotValue(series.points[index].fiat_value)
      row[`${series.psys_cid}:text`] = series.points[index].fiat_value
    }
    return row
  })
  const unvalued = (data?.series ?? []).reduce((count, series) => count + series.points.reduce((sum, point) => sum + point.unvalued, 0), 0)
  return (
    <ChartCard
      title="Received volume"
      description={`Coins received on paid orders, valued in ${fiat || "the store's currency"} at each invoice's own rate, over ${PERIOD_TEXT[interval]} (UTC).`}
      testId="chart-volume"
      controls={
        <div className="flex items-center gap-x-1" role="group" aria-label="Interval">
          {INTERVALS.map((option) => (
            <Button key={option.value} size="small" variant={option.value === interval ? "secondary" : "transparent"} aria-pressed={option.value === interval} onClick={() => setChosen(option.value)}>
              {option.label}
            </Button>
          ))}
        </div>
      }
      isLoading={isLoading}
      error={error ? errorMessage(error) : null}
      onRetry={() => refetch()}
      isEmpty={(data?.series.length ?? 0) === 0}
      emptyText={`No crypto payments received in ${PERIOD_TEXT[interval]}.`}
      chart={() => (
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={CHART_THEME.grid} vertical={false} />
          <XAxis dataKey="bucket" tick={axisTick} stroke={CHART_THEME.grid} />
          <YAxis tick={axisTick} stroke={CHART_THEME.grid} width={72} />
          <Tooltip
            {...tooltipStyle}
            formatter={(_value, name, item) => [formatFiat(String((item.payload as Record<string, unknown>)[`${String(name)}:text`] ?? ""), fiat), String(name)]}
          />
          <Legend {...legendStyle} />
          {(data?.series ?? []).map((series, index) => (
            <Bar key={series.psys_cid} dataKey={series.psys_cid} name={series.psys_cid} stackId="volume" fill={seriesColor(index)} />
          ))}
        </BarChart>
      )}
      table={() => (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{interval === "day" ? "Day" : interval === "week" ? "Week" : "Month"} (UTC)</Table.HeaderCell>
              <Table.HeaderCell>Coin</Table.HeaderCell>
              <Table.HeaderCell className="text-right">Received</Table.HeaderCell>
              <Table.HeaderCell className="text-right">Value ({fiat})</Table.HeaderCell>
              <Table.HeaderCell className="text-right">Invoices</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(data?.buckets ?? []).flatMap((bucket, index) =>
              (data?.series ?? [])
                .filter((series) => series.points[index].invoices > 0)
                .map((series) => (
                  <Table.Row key={`${bucket}-${series.psys_cid}`} data-bucket={bucket} data-coin={series.psys_cid}>
                    <Table.Cell>{bucketLabel(bucket, interval)}</Table.Cell>
                    <Table.Cell>{series.psys_cid}</Table.Cell>
                    <Table.Cell className="text-right">{`${formatDecimal(series.points[index].received)} ${series.currency ?? series.psys_cid}`}</Table.Cell>
                    <Table.Cell className="text-right">{formatFiat(series.points[index].fiat_value, fiat)}</Table.Cell>
                    <Table.Cell className="text-right">{series.points[index].invoices}</Table.Cell>
                  </Table.Row>
                ))
            )}
          </Table.Body>
        </Table>
      )}
      footnote={
        unvalued > 0 ? (
          <Text size="small" className="text-ui-fg-muted">
            {unvalued} invoice(s) priced in another currency (or without a rate) are counted in coins but not in {fiat}.
          </Text>
        ) : null
      }
    />
  )
}
