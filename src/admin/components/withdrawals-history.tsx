import { Select, Text } from "@medusajs/ui"
import { useMemo, useState } from "react"
import { formatDecimal } from "../lib/money"
import type { Withdrawal } from "../lib/types"
import { RecordedHistory } from "./recorded-history"
import { WithdrawalResolvePanel } from "./withdrawal-resolve-panel"

const ALL = "all"
const PURPOSES = [ALL, "withdrawal", "refund", "overpayment", "underpayment", "late_payment", "unexplained"]
const STATUSES = [ALL, "awaiting_approval", "outcome_unknown", "completed", "sending", "error", "rejected", "not_sent"]

/** An unknown outcome, or a failure at the gateway that still blocks the same payment. */
const needsDecision = (w: Withdrawal) => w.status === "outcome_unknown" || (w.status === "error" && w.active_fingerprint !== null)

const FilterSelect = ({ label, value, values, allText, onChange }: { label: string; value: string; values: string[]; allText: string; onChange: (v: string) => void }) => (
  <Select value={value} onValueChange={onChange}>
    <Select.Trigger aria-label={label}><Select.Value /></Select.Trigger>
    <Select.Content>
      {values.map((v) => <Select.Item key={v} value={v}>{v === ALL ? allText : v.replace("_", " ")}</Select.Item>)}
    </Select.Content>
  </Select>
)

/**
 * The withdrawals recorded here — crypto refunds included — with their state, newest first, so an
 * unknown outcome can be found and resolved after a page reload.
 */
export const WithdrawalsHistory = () => {
  const [status, setStatus] = useState(ALL)
  const [purpose, setPurpose] = useState(ALL)
  const filters = useMemo(() => ({ status: status === ALL ? undefined : status, purpose: purpose === ALL ? undefined : purpose }), [status, purpose])
  return (
    <RecordedHistory<"withdrawals", Withdrawal>
      resource="withdrawals"
      label="Withdrawals history"
      title="Withdrawals and refunds"
      description="Every withdrawal and crypto refund sent from here. An unknown outcome waits for your decision."
      emptyText="No withdrawal recorded yet."
      filters={filters}
      toolbar={
        <div className="flex gap-x-2">
          <FilterSelect label="Purpose" value={purpose} values={PURPOSES} allText="All purposes" onChange={setPurpose} />
          <FilterSelect label="Status" value={status} values={STATUSES} allText="All statuses" onChange={setStatus} />
        </div>
      }
      columns={[
        { header: "Purpose", cell: (w) => w.purpose.replace("_", " ") },
        { header: "Amount", cell: (w) => `${formatDecimal(w.total_amount)} ${w.psys_cid}` },
        { header: "To", cell: (w) => (w.recipients.length === 1 ? w.recipients[0].address : `${w.recipients.length} recipients`), className: "max-w-[220px] truncate" },
      ]}
      statusNote={(w) => (w.status === "error" && w.operation_id ? <Text size="xsmall" className="text-ui-fg-subtle">Failed at the gateway: operation {w.operation_id}</Text> : null)}
      needsDecision={needsDecision}
      detailsLabel="Details"
      panel={(w, close) => <WithdrawalResolvePanel id={w.id} onClose={close} />}
    />
  )
}
