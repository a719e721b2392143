import { Heading, Label, Switch, Text } from "@medusajs/ui"
import { useId, useState } from "react"
import { ResponsiveContainer } from "recharts"
import { QueryState } from "../common"

/**
 * One chart of the Charts tab: its heading, a sentence of what it shows, controls, and either the
 * chart or the same numbers as a table ("Show as table"), inside the loading / error (retry) /
 * empty states every admin list has.
 */
export const ChartCard = (props: {
  title: string
  description: string
  testId: string
  controls?: React.ReactNode
  isLoading: boolean
  error: string | null
  onRetry: () => void
  isEmpty: boolean
  emptyText: string
  /** The chart itself, drawn to fill the card's plot area. */
  chart: () => React.ReactElement
  table: () => React.ReactNode
  footnote?: React.ReactNode
}) => {
  const [asTable, setAsTable] = useState(false)
  const switchId = useId()
  const headingId = useId()
  return (
    <section className="flex flex-col gap-y-3 px-6 py-5" aria-labelledby={headingId} data-testid={props.testId}>
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div>
          <Heading level="h2" id={headingId}>{props.title}</Heading>
          <Text size="small" className="text-ui-fg-subtle">{props.description}</Text>
        </div>
        <div className="flex items-center gap-x-4">
          {props.controls}
          <div className="flex items-center gap-x-2">
            <Switch id={switchId} checked={asTable} onCheckedChange={setAsTable} />
            <Label htmlFor={switchId} size="small">Show as table</Label>
          </div>
        </div>
      </div>
      <QueryState isLoading={props.isLoading} error={props.error} onRetry={props.onRetry} isEmpty={props.isEmpty} emptyText={props.emptyText}>
        {asTable ? (
          <div data-testid={`${props.testId}-table`} className="overflow-x-auto">{props.table()}</div>
        ) : (
          // The picture is decoration for screen readers: the same numbers are one switch away as a table.
          // Its height is set inline: the chart fills its container and must find a height to measure.
          <div data-testid={`${props.testId}-plot`} style={{ width: "100%", height: 288 }} role="img" aria-label={`${props.title} chart; switch on "Show as table" for its numbers`}>
            <ResponsiveContainer width="100%" height="100%">{props.chart()}</ResponsiveContainer>
          </div>
        )}
        {props.footnote}
      </QueryState>
    </section>
  )
}
