import { Badge, Heading, Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { cryptoApi, errorMessage } from "../lib/api"
import type { MoneyOutAuditEntry } from "../lib/types"
import { QueryState, formatDate } from "./common"

/** Each decision in the merchant's words: one per action of the audit, checked by the compiler. */
const ACTIONS: Record<MoneyOutAuditEntry["action"], { text: string; color: "green" | "red" | "orange" | "blue" | "grey" }> = {
  address_added: { text: "address added", color: "blue" },
  address_removed: { text: "address removed", color: "grey" },
  policy_changed: { text: "policy changed", color: "blue" },
  policy_change_scheduled: { text: "policy loosening scheduled", color: "orange" },
  withdrawal_allowed: { text: "withdrawal allowed", color: "green" },
  withdrawal_refused: { text: "withdrawal refused", color: "red" },
  withdrawal_awaiting_approval: { text: "waiting for approval", color: "orange" },
  withdrawal_approved: { text: "approved", color: "green" },
  withdrawal_rejected: { text: "rejected at approval", color: "red" },
  exchange_allowed: { text: "exchange allowed", color: "green" },
  exchange_refused: { text: "exchange refused", color: "red" },
  refund_refused: { text: "refund refused", color: "red" },
}

/** What an entry's details say, briefly: the refusal's words, the note, the coin and amount, the address. */
function summary(entry: MoneyOutAuditEntry): string {
  const details = (entry.details ?? {}) as Record<string, unknown>
  const text = (key: string) => (typeof details[key] === "string" || typeof details[key] === "number" ? String(details[key]) : null)
  if (text("message")) return String(text("message"))
  const parts = [
    text("total_amount") && text("psys_cid") ? `${text("total_amount")} ${text("psys_cid")}` : null,
    text("address"),
    text("field") ? `${text("field")}: ${JSON.stringify(details.from)} → ${JSON.stringify(details.to)} from ${text("effective_at")}` : null,
    text("note") ? `note: ${text("note")}` : null,
  ]
  return parts.filter((part) => part !== null).join(" · ") || "—"
}

/**
 * Every decision of the money-out policy (docs/money-out.md#money-out-policy), newest first: who,
 * when, what, the rule of a refusal and the address-book entries a payment went through.
 */
export const MoneyOutAudit = () => {
  const audit = useQuery({ queryKey: ["crypto", "money-out", "audit"], queryFn: () => cryptoApi.get<{ entries: MoneyOutAuditEntry[]; count: number }>("/money-out/audit", { limit: 50 }) })
  const rows = audit.data?.entries ?? []
  return (
    <div className="flex flex-col gap-y-2" data-testid="money-out-audit">
      <Heading level="h2">Money-out decisions</Heading>
      <Text size="small" className="text-ui-fg-subtle">Who did what and when under the money-out policy: addresses, policy changes, approvals and refusals.</Text>
      <QueryState isLoading={audit.isLoading} error={audit.error ? errorMessage(audit.error) : null} onRetry={() => audit.refetch()} isEmpty={rows.length === 0} emptyText="No decision recorded yet.">
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>When</Table.HeaderCell>
              <Table.HeaderCell>Who</Table.HeaderCell>
              <Table.HeaderCell>What</Table.HeaderCell>
              <Table.HeaderCell>Rule</Table.HeaderCell>
              <Table.HeaderCell>Details</Table.HeaderCell>
              <Table.HeaderCell>Address-book entries</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((entry) => (
              <Table.Row key={entry.id}>
                <Table.Cell>{formatDate(entry.created_at)}</Table.Cell>
                <Table.Cell>{entry.actor ?? "—"}</Table.Cell>
                <Table.Cell><Badge size="2xsmall" color={ACTIONS[entry.action].color}>{ACTIONS[entry.action].text}</Badge>{entry.subject_id ? <Text size="xsmall" className="text-ui-fg-subtle">{entry.subject_id}</Text> : null}</Table.Cell>
                <Table.Cell>{entry.rule ?? "—"}</Table.Cell>
                <Table.Cell className="max-w-[360px] whitespace-normal">{summary(entry)}</Table.Cell>
                <Table.Cell>{entry.address_ids && entry.address_ids.length > 0 ? entry.address_ids.join(", ") : "—"}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      </QueryState>
    </div>
  )
}
