import { Button, Drawer, Input, Label, RadioGroup, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { errorMessage } from "../lib/api"
import { sdk } from "../lib/sdk"

type Period = "this_month" | "last_month" | "custom"
type Format = "csv" | "json" | "journal"
const FORMATS: readonly Format[] = ["csv", "json", "journal"]

const day = (date: Date): string => date.toISOString().slice(0, 10)
const monthStart = (year: number, month: number): Date => new Date(Date.UTC(year, month, 1))

/**
 * The period's `[from, to)` in UTC days, as the route takes it (docs/books.md#accounting-export).
 * The custom "To" the merchant picks is included, so the route's `to` is the day after it.
 */
export function exportRange(period: Period, customFrom: string, customTo: string, now = new Date()): { from: string; to: string } | string {
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth()
  if (period === "this_month") return { from: day(monthStart(year, month)), to: day(monthStart(year, month + 1)) }
  if (period === "last_month") return { from: day(monthStart(year, month - 1)), to: day(monthStart(year, month)) }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(customFrom)) return "Pick the first day of the period"
  if (!/^\d{4}-\d{2}-\d{2}$/.test(customTo)) return "Pick the last day of the period"
  const last = new Date(`${customTo}T00:00:00.000Z`)
  if (customTo < customFrom) return "The last day is before the first day"
  return { from: customFrom, to: day(new Date(last.getTime() + 24 * 60 * 60 * 1000)) }
}

/** Saves a downloaded file under `filename` (the browser's own download). */
function save(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement("a")
  link.href = url
  link.download = filename
  document.body.appendChild(link)
  link.click()
  link.remove()
  URL.revokeObjectURL(url)
}

/**
 * "Export for accounting" (docs/books.md#accounting-export): every crypto amount of a period, one
 * row each with its value in the store currency when it moved, then totals per coin, as CSV or JSON,
 * or as a double-entry journal (date, account, debit, credit, currency, reference). The
 * file is fetched through the JS SDK so the admin's session (cookie or token) authenticates it.
 */
export const BooksExportButton = () => {
  const [open, setOpen] = useState(false)
  const [period, setPeriod] = useState<Period>("last_month")
  const [format, setFormat] = useState<Format>("csv")
  const [customFrom, setCustomFrom] = useState("")
  const [customTo, setCustomTo] = useState("")
  const [busy, setBusy] = useState(false)
  const range = exportRange(period, customFrom, customTo)

  const download = async () => {
    if (typeof range === "string") {
      toast.error("Choose the period", { description: range })
      return
    }
    setBusy(true)
    try {
      const response = await sdk.client.fetch<Response>("/admin/crypto/exports/books", {
        method: "GET",
        query: { format, from: range.from, to: range.to },
        headers: { accept: format === "json" ? "application/octet-stream" : "text/csv" },
      })
      const blob = await response.blob()
      save(blob, format === "journal" ? `crypto-journal-${range.from}-${range.to}.csv` : `crypto-books-${range.from}-${range.to}.${format}`)
      toast.success("Export downloaded", { description: `${range.from} to ${range.to} (to not included), ${format.toUpperCase()}` })
      setOpen(false)
    } catch (error) {
      toast.error("Could not export", { description: errorMessage(error) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Drawer open={open} onOpenChange={setOpen}>
      <Drawer.Trigger asChild>
        <Button size="small" variant="secondary" data-testid="books-export">
          Export for accounting
        </Button>
      </Drawer.Trigger>
      <Drawer.Content aria-describedby={undefined}>
        <Drawer.Header>
          <Drawer.Title>Export for accounting</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-6 overflow-y-auto">
          <Text size="small" className="text-ui-fg-subtle">
            One row per crypto amount of the period (payments with their fiat value at the gateway's rate, over- and underpayments, late payments, refunds,
            send-backs, withdrawals, exchanges, deposits), then totals per coin. Dates and the period are in UTC.
          </Text>
          <div className="flex flex-col gap-y-2">
            <Label>Period</Label>
            <RadioGroup value={period} onValueChange={(value) => setPeriod(value === "this_month" || value === "custom" ? value : "last_month")}>
              <RadioGroup.ChoiceBox value="last_month" label="Last month" description="The whole previous calendar month (UTC)." />
              <RadioGroup.ChoiceBox value="this_month" label="This month" description="The current calendar month so far (UTC)." />
              <RadioGroup.ChoiceBox value="custom" label="Custom" description="From one day through another, both included (at most 366 days)." />
            </RadioGroup>
            {period === "custom" ? (
              <div className="grid grid-cols-2 gap-x-4">
                <div className="flex flex-col gap-y-1">
                  <Label htmlFor="books-export-from">From</Label>
                  <Input id="books-export-from" type="date" value={customFrom} onChange={(e) => setCustomFrom(e.target.value)} />
                </div>
                <div className="flex flex-col gap-y-1">
                  <Label htmlFor="books-export-to">To (included)</Label>
                  <Input id="books-export-to" type="date" value={customTo} onChange={(e) => setCustomTo(e.target.value)} />
                </div>
              </div>
            ) : null}
          </div>
          <div className="flex flex-col gap-y-2">
            <Label>Format</Label>
            <RadioGroup value={format} onValueChange={(value) => setFormat(FORMATS.find((format) => format === value) ?? "csv")}>
              <RadioGroup.ChoiceBox value="csv" label="CSV" description="For a spreadsheet or your accounting software; totals as the last rows." />
              <RadioGroup.ChoiceBox value="json" label="JSON" description="For a script: rows and totals, every amount an exact decimal string." />
              <RadioGroup.ChoiceBox value="journal" label="Journal" description="Double entry for accounting tools: date, account, debit, credit, currency, reference; debits equal credits per currency." />
            </RadioGroup>
          </div>
          {typeof range === "string" ? (
            <Text size="small" className="text-ui-fg-error">{range}</Text>
          ) : (
            <Text size="small" className="text-ui-fg-muted">
              {range.from} 00:00 UTC up to {range.to} 00:00 UTC (not included).
            </Text>
          )}
        </Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary">Cancel</Button>
          </Drawer.Close>
          <Button size="small" onClick={() => void download()} isLoading={busy} disabled={typeof range === "string"}>
            Download
          </Button>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  )
}
