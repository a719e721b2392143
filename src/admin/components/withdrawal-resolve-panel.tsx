import { Button, Heading, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { cryptoApi, errorMessage } from "../lib/api"
import { formatDecimal } from "../lib/money"
import type { WithdrawalDetail } from "../lib/types"
import { CryptoStatusBadge, Field, formatDate, QueryState, TxLinks } from "./common"
import { NoteAndDecision, optionalNote, useResolveDecision } from "./resolve-decision"

/**
 * One recorded withdrawal (or crypto refund) in detail. While its outcome is unknown: the
 * operations that could be it, each with why, and the merchant's two decisions — "this operation
 * is it" or "confirmed not sent" with a required note — each confirmed first. A withdrawal that
 * failed at the gateway shows its operation and each read of it, and, while it blocks the same
 * payment, the decision "failed: allow sending again" with a required note
 * (docs/money-out.md#failed-at-the-gateway).
 */
export const WithdrawalResolvePanel = ({ id, onClose }: { id: string; onClose: () => void }) => {
  const queryClient = useQueryClient()
  const [note, setNote] = useState("")
  const detail = useQuery({ queryKey: ["crypto", "withdrawal", id], queryFn: () => cryptoApi.get<WithdrawalDetail>(`/withdrawals/${id}`), retry: false })
  const resolve = useResolveDecision("withdrawal", id)
  const reconcile = useMutation({
    mutationFn: () => cryptoApi.post<WithdrawalDetail>(`/withdrawals/${id}/reconcile`, {}),
    onSuccess: ({ withdrawal }) => {
      queryClient.invalidateQueries({ queryKey: ["crypto"] })
      toast.info(`Withdrawal status: ${withdrawal.status.replace("_", " ")}`)
    },
    onError: (error) => toast.error("Could not check the withdrawal", { description: errorMessage(error) }),
  })

  const withdrawal = detail.data?.withdrawal
  const candidates = detail.data?.candidates ?? []
  const unknown = withdrawal !== undefined && withdrawal.operation_id === null && ["outcome_unknown", "requested", "sending"].includes(withdrawal.status)
  // Failed at the gateway (spec §2.3 status error): the same payment stays blocked until the merchant decides.
  const failedUndecided = withdrawal !== undefined && withdrawal.status === "error" && withdrawal.active_fingerprint !== null
  const evidence = withdrawal?.gateway_evidence ?? null

  const allowAgain = () =>
    resolve.decide(
      {
        title: "Allow sending this payment again?",
        description: `The gateway answered operation ${withdrawal?.operation_id ?? ""} with status error. Only if its dashboard shows that nothing left the balance: if it was in fact sent, the recipient is paid twice.`,
        confirmText: "Failed: allow sending again",
      },
      { resolution: "failed", note: note.trim() },
    )
  const chooseOperation = (operationId: string) =>
    resolve.decide(
      {
        title: "This operation is the withdrawal?",
        description: `Operation ${operationId} will be recorded as withdrawal ${id}, with you as the one who decided. Check it in the gateway's dashboard first.`,
        confirmText: "Yes, this is it",
      },
      { resolution: "operation", operation_id: operationId, ...optionalNote(note) },
    )
  const confirmNotSent = () =>
    resolve.confirmNotSent(
      "Confirm it was not sent?",
      "Only if the gateway's dashboard shows no such payment. The same payment can then be sent again: if it was in fact sent, the recipient is paid twice.",
      note,
    )

  return (
    <div className="flex flex-col gap-y-3 rounded-md border px-4 py-3" aria-label="Withdrawal detail">
      <div className="flex items-center justify-between">
        <Heading level="h3">Withdrawal {id}</Heading>
        <Button size="small" variant="transparent" onClick={onClose}>Close</Button>
      </div>
      <QueryState isLoading={detail.isLoading} error={detail.error ? errorMessage(detail.error) : null} onRetry={() => detail.refetch()}>
        {withdrawal ? (
          <div>
            <Field label="Status"><CryptoStatusBadge status={withdrawal.status} /></Field>
            <Field label="Purpose">{withdrawal.purpose}{withdrawal.order_id ? ` (order ${withdrawal.order_id})` : ""}</Field>
            <Field label="Amount">{formatDecimal(withdrawal.total_amount)} {withdrawal.psys_cid}</Field>
            {withdrawal.source_amount ? <Field label="Refund value">{formatDecimal(withdrawal.source_amount)} {withdrawal.source_currency}</Field> : null}
            <Field label="Recipients">{withdrawal.recipients.map((r) => `${r.address} ${formatDecimal(r.amount)}`).join(", ")}</Field>
            <Field label="Requested">{formatDate(withdrawal.requested_at)}{withdrawal.requested_by ? ` by ${withdrawal.requested_by}` : ""}</Field>
            <Field label="Operation">{withdrawal.operation_id ?? "—"}</Field>
            <Field label="Transaction"><TxLinks urls={withdrawal.tx_urls} /></Field>
            {withdrawal.resolution ? (
              <Field label="Resolved">{`${withdrawal.resolution === "operation" ? "this operation is it" : withdrawal.resolution === "failed" ? "failed at the gateway: sending again allowed" : "confirmed not sent"}, by ${withdrawal.resolved_by ?? "—"} on ${formatDate(withdrawal.resolved_at)}${withdrawal.resolution_note ? `: ${withdrawal.resolution_note}` : ""}`}</Field>
            ) : null}
            {withdrawal.error_message ? <Field label="Note"><span className="text-ui-fg-subtle">{withdrawal.error_message}</span></Field> : null}
          </div>
        ) : null}
        {evidence !== null ? (
          <div className="flex flex-col gap-y-2 rounded-md border px-3 py-2" aria-label="Gateway evidence">
            <Text size="small" weight="plus" className="text-ui-fg-error">Failed at the gateway: operation {evidence.operation_id}, status {evidence.answered_status}</Text>
            <Text size="xsmall" className="text-ui-fg-subtle">Answered {formatDate(evidence.answered_at)}. Reads of the operation:</Text>
            <ul className="flex flex-col gap-y-1" aria-label="Operation reads">
              {evidence.reads.map((read) => (
                <li key={read.at}>
                  <Text size="xsmall">
                    {formatDate(read.at)}:{" "}
                    {read.ok
                      ? `status ${read.status}${read.amount ? `, ${formatDecimal(read.amount)} ${withdrawal?.psys_cid ?? ""}` : ""}${read.fee ? `, fee ${formatDecimal(read.fee)}` : ""}${read.tx_urls.length > 0 ? `, ${read.tx_urls.length} tx link(s)` : ", no transaction"}`
                      : `could not be read (${read.error})`}
                  </Text>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {failedUndecided ? (
          <div className="flex flex-col gap-y-3">
            <Text size="small" className="text-ui-fg-subtle">
              The same payment is blocked so it is not sent twice. Check the operation in the gateway's dashboard; if nothing left the balance, allow sending it again.
            </Text>
            <div className="flex justify-end">
              <Button size="small" variant="secondary" isLoading={reconcile.isPending} onClick={() => reconcile.mutate()}>Check status</Button>
            </div>
            <NoteAndDecision id={`failed-note-${id}`} label="Note (required)" note={note} onNote={setNote} placeholder="Checked operation … on …: status error, balance not debited"
              action="Failed: allow sending again" isPending={resolve.isPending} onDecide={allowAgain} />
          </div>
        ) : null}
        {unknown ? (
          <div className="flex flex-col gap-y-3">
            <div className="flex items-center justify-between">
              <Text size="small" weight="plus">Operations that could be it ({candidates.length})</Text>
              <Button size="small" variant="secondary" isLoading={reconcile.isPending} onClick={() => reconcile.mutate()}>Check status</Button>
            </div>
            {candidates.length === 0 ? (
              <Text size="small" className="text-ui-fg-subtle">The gateway shows no operation that could be this withdrawal. That does not prove it was not sent: check the gateway's dashboard.</Text>
            ) : (
              <ul className="flex flex-col gap-y-2" aria-label="Candidate operations">
                {candidates.map((candidate) => (
                  <li key={candidate.operation_id} className="flex items-start justify-between gap-x-4 rounded-md border px-3 py-2">
                    <div className="flex flex-col gap-y-1">
                      <Text size="small" weight="plus">{candidate.operation_id} <CryptoStatusBadge status={candidate.status} /></Text>
                      <Text size="small" className="text-ui-fg-subtle">
                        {candidate.amount ? `${formatDecimal(candidate.amount)} ${candidate.psys_cid ?? ""}` : "amount not shown"} · {candidate.address ?? "address not shown"} · {candidate.created_at ? formatDate(candidate.created_at) : "time not shown"}
                      </Text>
                      <Text size="xsmall" className="text-ui-fg-muted">{candidate.reasons.join("; ")}</Text>
                    </div>
                    <Button size="small" variant="secondary" isLoading={resolve.isPending} onClick={() => chooseOperation(candidate.operation_id)}>This operation is it</Button>
                  </li>
                ))}
              </ul>
            )}
            <NoteAndDecision id={`resolve-note-${id}`} label="Note (required to confirm it was not sent)" note={note} onNote={setNote} placeholder="Checked the gateway's operations on …: no such payment"
              action="Confirmed not sent" isPending={resolve.isPending} onDecide={confirmNotSent} />
          </div>
        ) : null}
      </QueryState>
    </div>
  )
}
