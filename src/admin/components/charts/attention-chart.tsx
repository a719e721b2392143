import { Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts"
import { cryptoApi, errorMessage } from "../../lib/api"
import { KIND_LABELS } from "../attention/kinds"
import { ChartCard } from "./chart-card"
import { axisTick, CHART_THEME, legendStyle, tooltipStyle } from "./theme"
import type { AttentionAge, AttentionChartResponse } from "./types"

/** Age buckets, youngest first, each with the tag colour of its urgency. */
const AGES: Array<{ age: AttentionAge; label: string; color: string }> = [
  { age: "under_1_day", label: "Under 1 day", color: "var(--tag-blue-icon)" },
  { age: "1_to_7_days", label: "1–7 days", color: "var(--tag-green-icon)" },
  { age: "7_to_30_days", label: "7–30 days", color: "var(--tag-orange-icon)" },
  { age: "over_30_days", label: "Over 30 days", color: "var(--tag-red-icon)" },
]

/** The legend in the buckets' own order, youngest first (Recharts sorts by label otherwise). */
const ageOrder = (item: { dataKey?: unknown }): number => AGES.findIndex((age) => age.age === item.dataKey)

/** The queue's name for a kind (src/admin/components/attention/kinds.ts), else the kind itself. */
const kindTitle = (kind: string): string => (kind in KIND_LABELS ? KIND_LABELS[kind as keyof typeof KIND_LABELS].title : kind)

/** Open Needs-attention items per kind, split by how long they have waited (docs/books.md#needs-attention). */
export const AttentionChart = () => {
  const { data, isLoading, error, refetch } = useQuery({
    queryKey: ["crypto", "charts", "attention"],
    queryFn: () => cryptoApi.get<AttentionChartResponse>("/charts/attention"),
  })
  const kinds = data?.kinds ?? []
  // Counts of items, not amounts: plain numbers.
  const rows = kinds.map((row) => ({ kind: kindTitle(row.kind), ...row.ages }))
  return (
    <ChartCard
      title="Needs attention"
      description="Items waiting for your decision, by kind and by how long they have waited."
      testId="chart-attention"
      isLoading={isLoading}
      error={error ? errorMessage(error) : null}
      onRetry={() => refetch()}
      isEmpty={kinds.length === 0}
      emptyText="Nothing needs your attention."
      chart={() => (
        <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={CHART_THEME.grid} horizontal={false} />
          <XAxis type="number" allowDecimals={false} tick={axisTick} stroke={CHART_THEME.grid} />
          <YAxis type="category" dataKey="kind" tick={axisTick} stroke={CHART_THEME.grid} width={180} />
          <Tooltip {...tooltipStyle} />
          <Legend {...legendStyle} itemSorter={ageOrder} />
          {AGES.map((age) => (
            <Bar key={age.age} dataKey={age.age} name={age.label} stackId="age" fill={age.color} />
          ))}
        </BarChart>
      )}
      table={() => (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Kind</Table.HeaderCell>
              {AGES.map((age) => (
                <Table.HeaderCell key={age.age} className="text-right">{age.label}</Table.HeaderCell>
              ))}
              <Table.HeaderCell className="text-right">Total</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {kinds.map((row) => (
              <Table.Row key={row.kind} data-kind={row.kind}>
                <Table.Cell>{kindTitle(row.kind)}</Table.Cell>
                {AGES.map((age) => (
                  <Table.Cell key={age.age} className="text-right">{row.ages[age.age]}</Table.Cell>
                ))}
                <Table.Cell className="text-right">{row.total}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
      footnote={
        data?.truncated ? <Text size="small" className="text-ui-fg-muted">The queue holds more items than the chart counts; the Needs attention tab lists them all.</Text> : null
      }
    />
  )
}
