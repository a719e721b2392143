import { toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useRef } from "react"
import { cryptoApi, errorMessage, newIdempotencyKey } from "../lib/api"
import type { RecordedExchange, Withdrawal } from "../lib/types"
import type { DecisionQuestion } from "./resolve-decision"

/** What POST /admin/crypto/withdrawals and /exchanges record and answer. */
interface Recorded {
  withdrawal: Withdrawal
  exchange: RecordedExchange
}

/**
 * The one way money leaves from the admin forms (withdrawals and exchanges, docs/money-out.md):
 * the merchant confirms the question, then the form is posted with one idempotency key per filled-in
 * form, so a double click or a retry after a lost answer reuses it and the server records and sends
 * once. An unknown outcome keeps the key (it is not sent again; the merchant checks or resolves it);
 * a definitive answer or a refusal starts a new key; a network failure keeps it.
 */
export function useSendOnce<Key extends keyof Recorded>(
  key: Key,
  options: {
    body: () => Record<string, unknown>
    /** Every answer, whatever its status. */
    onRecorded: (record: Recorded[Key]) => void
    /** A definitive answer (not an unknown outcome). */
    onSettled: (record: Recorded[Key]) => void
    unknown: { title: string; description: string }
    refusedTitle: string
  },
) {
  const prompt = usePrompt()
  const queryClient = useQueryClient()
  const idempotencyKey = useRef(newIdempotencyKey())
  const send = useMutation({
    mutationFn: () => cryptoApi.post<Record<Key, Recorded[Key]>>(`/${key}s`, { ...options.body(), idempotency_key: idempotencyKey.current }),
    onSuccess: (answer) => {
      const record: Recorded[Key] = answer[key]
      options.onRecorded(record)
      queryClient.invalidateQueries({ queryKey: ["crypto"] })
      if (record.status === "outcome_unknown") {
        toast.warning(options.unknown.title, { description: options.unknown.description })
        return
      }
      idempotencyKey.current = newIdempotencyKey()
      options.onSettled(record)
    },
    onError: (error) => {
      // A refusal is final (a new attempt gets a new key); a network failure keeps the key.
      if (!(error instanceof TypeError)) idempotencyKey.current = newIdempotencyKey()
      toast.error(options.refusedTitle, { description: errorMessage(error) })
    },
  })
  const confirmAndSend = async (question: DecisionQuestion) => {
    if (send.isPending) return
    if (await prompt({ ...question, cancelText: "Cancel" })) send.mutate()
  }
  /** The outcome became known later (Check status): the next form gets a new key. */
  const settledLater = () => {
    idempotencyKey.current = newIdempotencyKey()
  }
  return { confirmAndSend, settledLater, isPending: send.isPending }
}
