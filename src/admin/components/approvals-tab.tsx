import { Button, Input, Table, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { cryptoApi, errorMessage } from "../lib/api"
import { formatDecimal, formatFiat } from "../lib/money"
import type { Withdrawal } from "../lib/types"
import { QueryState, formatDate } from "./common"

const KEY = ["crypto", "withdrawals", "awaiting_approval"]

/** How many withdrawals wait for approval (the tab's badge). */
export function useApprovalCount(): number {
  const waiting = useQuery({ queryKey: KEY, queryFn: () => cryptoApi.get<{ withdrawals: Withdrawal[]; count: number }>("/withdrawals", { status: "awaiting_approval", limit: 100 }) })
  return waiting.data?.count ?? 0
}

/**
 * "To approve" (docs/money-out.md#money-out-policy): withdrawals above the approval threshold and
 * claimed refunds above the review threshold, waiting for an admin. Approve sends it once (the admin
 * who asked cannot approve their own: the server refuses it); reject needs a note and sends nothing.
 */
export const ApprovalsTab = () => {
  const queryClient = useQueryClient()
  const waiting = useQuery({ queryKey: KEY, queryFn: () => cryptoApi.get<{ withdrawals: Withdrawal[]; count: number }>("/withdrawals", { status: "awaiting_approval", limit: 100 }) })
  const [notes, setNotes] = useState<Record<string, string>>({})
  const done = () => queryClient.invalidateQueries({ queryKey: ["crypto", "withdrawals"] })
  const approve = useMutation({
    mutationFn: (id: string) => cryptoApi.post<{ withdrawal: Withdrawal }>(`/withdrawals/${id}/approve`, notes[id] ? { note: notes[id] } : {}),
    onSuccess: (data) => {
      done()
      toast.success("Approved", { description: `Withdrawal ${data.withdrawal.id}: ${data.withdrawal.status.replace("_", " ")}.` })
    },
    onError: (error) => toast.error("Not approved", { description: errorMessage(error) }),
  })
  const reject = useMutation({
    mutationFn: (id: string) => cryptoApi.post<{ withdrawal: Withdrawal }>(`/withdrawals/${id}/reject`, { note: notes[id] ?? "" }),
    onSuccess: () => {
      done()
      toast.success("Rejected", { description: "Nothing was sent." })
    },
    onError: (error) => toast.error("Not rejected", { description: errorMessage(error) }),
  })
  const rows = waiting.data?.withdrawals ?? []
  return (
    <div className="flex flex-col gap-y-2 px-6 py-4" data-testid="approvals">
      <Text size="small" className="text-ui-fg-subtle">Withdrawals above the approval threshold wait here until another admin approves them; claimed refunds above the review threshold wait for your review. Rejecting needs a note.</Text>
      <QueryState isLoading={waiting.isLoading} error={waiting.error ? errorMessage(waiting.error) : null} onRetry={() => waiting.refetch()} isEmpty={rows.length === 0} emptyText="Nothing waits for approval.">
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Asked</Table.HeaderCell>
              <Table.HeaderCell>Purpose</Table.HeaderCell>
              <Table.HeaderCell>Amount</Table.HeaderCell>
              <Table.HeaderCell>Worth</Table.HeaderCell>
              <Table.HeaderCell>To</Table.HeaderCell>
              <Table.HeaderCell>Note</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((w) => (
              <Table.Row key={w.id}>
                <Table.Cell>{formatDate(w.requested_at)}{w.requested_by ? ` · ${w.requested_by}` : ""}</Table.Cell>
                <Table.Cell>{w.purpose.replace("_", " ")}</Table.Cell>
                <Table.Cell>{formatDecimal(w.total_amount)} {w.psys_cid}</Table.Cell>
                <Table.Cell>{w.value_currency ? formatFiat(w.value_amount, w.value_currency) : "—"}</Table.Cell>
                <Table.Cell className="max-w-[220px] truncate">{w.recipients.length === 1 ? w.recipients[0].address : `${w.recipients.length} recipients`}</Table.Cell>
                <Table.Cell>
                  <Input aria-label={`Note for ${w.id}`} placeholder="Note (required to reject)" value={notes[w.id] ?? ""} onChange={(e) => setNotes({ ...notes, [w.id]: e.target.value })} />
                </Table.Cell>
                <Table.Cell>
                  <div className="flex gap-x-2">
                    <Button size="small" isLoading={approve.isPending && approve.variables === w.id} onClick={() => approve.mutate(w.id)}>Approve</Button>
                    <Button size="small" variant="danger" disabled={(notes[w.id] ?? "").trim() === ""} isLoading={reject.isPending && reject.variables === w.id} onClick={() => reject.mutate(w.id)}>Reject</Button>
                  </div>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      </QueryState>
    </div>
  )
}
