import { Label, RadioGroup, Text, Textarea, toast } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import type { AdminCryptoAttentionItem } from "../../../api/admin/crypto/types"
import { cryptoApi, errorMessage } from "../../lib/api"
import { ActionDrawer } from "./action-drawer"
import { KIND_LABELS } from "./kinds"

/** The shortest note the server takes (src/api/admin/crypto/attention/validators.ts). */
const MIN_NOTE = 3

/**
 * The merchant's recorded decision on an item without a refund from here (docs/attention.md):
 * kept or other, with the required note saying why; who and when are recorded by the server.
 */
export const ResolveDrawer = ({ item }: { item: AdminCryptoAttentionItem }) => {
  const [open, setOpen] = useState(false)
  const [resolution, setResolution] = useState<"kept" | "other">("kept")
  const [note, setNote] = useState("")
  const queryClient = useQueryClient()
  const resolve = useMutation({
    mutationFn: () => cryptoApi.post(`/attention/${item.id}/resolve`, { resolution, note: note.trim() }),
    onSuccess: () => {
      setOpen(false)
      toast.success("Marked resolved", { description: KIND_LABELS[item.kind].title })
      void queryClient.invalidateQueries({ queryKey: ["crypto"] })
    },
    onError: (error) => toast.error("Could not resolve", { description: errorMessage(error) }),
  })
  const ready = note.trim().length >= MIN_NOTE
  const formId = `resolve-form-${item.id}`
  return (
    <ActionDrawer item={item} open={open} onOpenChange={setOpen} trigger="Mark resolved…" title="Mark resolved" formId={formId} submit="Mark resolved" isPending={resolve.isPending} disabled={!ready}>
      <form
        id={formId}
        className="flex flex-col gap-y-6"
        onSubmit={(event) => {
          event.preventDefault()
          if (ready && !resolve.isPending) resolve.mutate()
        }}
      >
        <div className="flex flex-col gap-y-2">
          <Label>What was decided</Label>
          <RadioGroup value={resolution} onValueChange={(value) => setResolution(value === "other" ? "other" : "kept")}>
            <RadioGroup.ChoiceBox value="kept" label="Kept" description="The money stays with the store (e.g. as credit the shopper agreed to)." />
            <RadioGroup.ChoiceBox value="other" label="Other" description="Something else was done: refunded outside this page, settled with the shopper, a test payment." />
          </RadioGroup>
        </div>
        <div className="flex flex-col gap-y-2">
          <Label htmlFor={`resolve-note-${item.id}`}>Why (required)</Label>
          <Textarea
            id={`resolve-note-${item.id}`}
            className="w-full"
            rows={5}
            maxLength={2000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder="e.g. The shopper asked to keep it as store credit (e-mail of 26 Nov)."
          />
          <Text size="xsmall" className="text-ui-fg-muted">Kept with the decision, your name and the time.</Text>
        </div>
      </form>
    </ActionDrawer>
  )
}
