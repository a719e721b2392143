/**
 * The charts' colours: Medusa UI's CSS variables, which the admin redefines under its `dark` class
 * on `<html>`, so every chart follows the light and the dark theme without reading it.
 */
export const CHART_THEME = {
  text: "var(--fg-subtle)",
  grid: "var(--border-base)",
  tooltipBackground: "var(--bg-base)",
  tooltipBorder: "var(--border-base)",
  tooltipText: "var(--fg-base)",
}

/** One colour per series, in order (Medusa UI's tag icon colours). */
export const SERIES_COLORS = [
  "var(--tag-blue-icon)",
  "var(--tag-green-icon)",
  "var(--tag-orange-icon)",
  "var(--tag-purple-icon)",
  "var(--tag-red-icon)",
  "var(--tag-neutral-icon)",
]

export const seriesColor = (index: number): string => SERIES_COLORS[index % SERIES_COLORS.length]

export const axisTick = { fill: CHART_THEME.text, fontSize: 12 }

export const tooltipStyle = {
  contentStyle: { background: CHART_THEME.tooltipBackground, border: `1px solid ${CHART_THEME.tooltipBorder}`, borderRadius: 8, color: CHART_THEME.tooltipText, fontSize: 12 },
  labelStyle: { color: CHART_THEME.tooltipText },
  itemStyle: { color: CHART_THEME.tooltipText },
  cursor: { fill: "var(--bg-subtle-hover)" },
}

/**
 * A decimal string as the chart library's y value. The ONE place an amount becomes a JS number:
 * a chart needs numbers to draw, and a pixel does not need every digit. Every figure shown as text
 * (tooltip, axis labels, tables) is formatted from the decimal string (src/admin/lib/money.ts).
 */
export function plotValue(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^-?\d+(\.\d+)?$/.test(value)) return null
  return Number(value)
}

/** Every chart's legend: the subtle text colour of the theme. */
export const legendStyle = { wrapperStyle: { color: CHART_THEME.text, fontSize: 12 } }
