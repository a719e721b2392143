import { Button, Label, Textarea, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { cryptoApi, errorMessage } from "../lib/api"

/** The question asked before a decision is sent (each decision is confirmed first). */
export interface DecisionQuestion {
  title: string
  description: string
  confirmText: string
}

/**
 * The merchant's decision on a withdrawal or an exchange whose outcome the gateway did not confirm
 * (docs/money-out.md): POST `/<resource>s/:id/resolve` with the body, once the merchant confirmed
 * the question; the answer's record names its new status.
 */
export function useResolveDecision<Key extends "withdrawal" | "exchange">(key: Key, id: string, onDone?: () => void) {
  const prompt = usePrompt()
  const queryClient = useQueryClient()
  const resolve = useMutation({
    mutationFn: (body: Record<string, unknown>) => cryptoApi.post<{ [K in Key]: { status: string } }>(`/${key}s/${id}/resolve`, body),
    onSuccess: (answer) => {
      queryClient.invalidateQueries({ queryKey: ["crypto"] })
      toast.success(`${key === "withdrawal" ? "Withdrawal" : "Exchange"} ${answer[key].status.replace("_", " ")}`)
      onDone?.()
    },
    onError: (error) => toast.error("Not resolved", { description: errorMessage(error) }),
  })
  const decide = async (question: DecisionQuestion, body: Record<string, unknown>) => {
    if (await prompt({ ...question, cancelText: "Cancel" })) resolve.mutate(body)
  }
  /** "Confirmed not sent": the record is settled as never sent, with the merchant's required note. */
  const confirmNotSent = (title: string, description: string, note: string) =>
    decide({ title, description, confirmText: "Confirmed not sent" }, { resolution: "not_sent", note: note.trim() })
  return { decide, confirmNotSent, isPending: resolve.isPending }
}

/** The merchant's note as an optional field of a decision's body (left out when blank). */
export const optionalNote = (note: string): { note?: string } => (note.trim() ? { note: note.trim() } : {})

/** The note a decision carries, required for the one `action` button under it. */
export const NoteAndDecision = (props: {
  id: string
  label: string
  note: string
  onNote: (note: string) => void
  placeholder?: string
  action: string
  isPending: boolean
  onDecide: () => void
}) => (
  <>
    <div className="flex flex-col gap-y-1">
      <Label htmlFor={props.id}>{props.label}</Label>
      <Textarea id={props.id} rows={2} value={props.note} onChange={(e) => props.onNote(e.target.value)} placeholder={props.placeholder} maxLength={500} />
    </div>
    <div className="flex justify-end">
      <Button size="small" variant="danger" disabled={props.note.trim() === ""} isLoading={props.isPending} onClick={props.onDecide}>{props.action}</Button>
    </div>
  </>
)
