import { Button, Drawer, Text } from "@medusajs/ui"
import type { AdminCryptoAttentionItem } from "../../../api/admin/crypto/types"
import { KIND_LABELS } from "./kinds"

/**
 * One action on an item, in Medusa's drawer: the trigger button, the item's kind and sentence on
 * top, the action's form (`children`, a `<form id={formId}>`), and Cancel / the submit button in the
 * footer.
 */
export const ActionDrawer = (props: {
  item: AdminCryptoAttentionItem
  open: boolean
  onOpenChange: (open: boolean) => void
  trigger: string
  title: string
  formId: string
  submit: string
  isPending: boolean
  disabled: boolean
  children: React.ReactNode
}) => (
  <Drawer open={props.open} onOpenChange={props.onOpenChange}>
    <Drawer.Trigger asChild>
      <Button size="small" variant="secondary">{props.trigger}</Button>
    </Drawer.Trigger>
    <Drawer.Content aria-describedby={undefined}>
      <Drawer.Header>
        <Drawer.Title>{props.title}</Drawer.Title>
      </Drawer.Header>
      <Drawer.Body className="flex flex-col gap-y-6 overflow-y-auto">
        <div className="flex flex-col gap-y-1">
          <Text weight="plus">{KIND_LABELS[props.item.kind].title}</Text>
          <Text size="small" className="text-ui-fg-subtle">{KIND_LABELS[props.item.kind].sentence(props.item)}</Text>
        </div>
        {props.children}
      </Drawer.Body>
      <Drawer.Footer>
        <Drawer.Close asChild>
          <Button size="small" variant="secondary">Cancel</Button>
        </Drawer.Close>
        <Button size="small" type="submit" form={props.formId} isLoading={props.isPending} disabled={props.disabled}>
          {props.submit}
        </Button>
      </Drawer.Footer>
    </Drawer.Content>
  </Drawer>
)
