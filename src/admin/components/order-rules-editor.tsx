import { Badge, Button, Input, Label, Select, Switch, Text } from "@medusajs/ui"
import { useState } from "react"
import { isPositiveDecimal } from "../lib/money"
import type { OrderOutcome, OrderOutcomeRules, OrderRule } from "../lib/types"

/**
 * The merchant's order rules (docs/books.md#order-rules) as rows in words, first match wins:
 * add, edit, remove, reorder. The server checks them again (src/core/config/order-rules.ts); this form
 * only says early what it would refuse.
 */

type Placement = OrderRule["place"]

/** A rule as the merchant reads it: "Place the order on detection · for LTC, USDT_TRX · below 500 EUR". */
export function describeOrderRule(rule: OrderRule): string {
  const parts = [rule.place === "on_detection" ? "Place the order on detection" : "Wait for confirmation before placing the order"]
  parts.push(rule.coins.length === 0 ? "for any coin" : `for ${rule.coins.join(", ")}`)
  if (rule.below !== null) parts.push(`below ${rule.below.amount} ${rule.below.currency}`)
  return parts.join(" · ")
}

interface Draft {
  place: Placement
  coins: string[]
  limited: boolean
  amount: string
  currency: string
}

/** What is wrong with a draft, per field; empty when it can be saved. */
export function draftErrors(draft: Draft): Partial<Record<"amount" | "currency", string>> {
  const errors: Partial<Record<"amount" | "currency", string>> = {}
  if (!draft.limited) return errors
  if (!isPositiveDecimal(draft.amount)) errors.amount = "An amount above 0, like 500 or 499.99"
  if (!/^[A-Za-z]{3}$/.test(draft.currency)) errors.currency = "A 3-letter currency code, like EUR"
  return errors
}

const draftOf = (rule: OrderRule | null, currency: string): Draft => ({
  place: rule?.place ?? "on_detection",
  coins: rule?.coins ?? [],
  limited: rule === null ? true : rule.below !== null,
  amount: rule?.below?.amount ?? "",
  currency: rule?.below?.currency ?? currency.toUpperCase(),
})

const ruleOf = (draft: Draft): OrderRule => ({
  place: draft.place,
  coins: draft.coins,
  below: draft.limited ? { amount: draft.amount.trim(), currency: draft.currency.trim().toUpperCase() } : null,
})

export const MAX_RULES = 20

export const OrderRulesEditor = ({
  rules,
  onChange,
  coins,
  storeCurrency,
  defaultOnDetection,
}: {
  rules: OrderRule[]
  onChange: (rules: OrderRule[]) => void
  /** The gateway's coins (psys_cid). */
  coins: readonly string[]
  /** The store's currency: a new rule's amount is in it. */
  storeCurrency: string
  /** The order-on-detection setting: what happens when no rule matches. */
  defaultOnDetection: boolean
}) => {
  // The row being edited (its index, or rules.length for a new one) and its draft.
  const [editing, setEditing] = useState<{ index: number; draft: Draft } | null>(null)
  const move = (from: number, to: number) => {
    const next = [...rules]
    const [rule] = next.splice(from, 1)
    next.splice(to, 0, rule)
    onChange(next)
  }
  const save = () => {
    if (editing === null || Object.keys(draftErrors(editing.draft)).length > 0) return
    const next = [...rules]
    next.splice(editing.index, editing.index < rules.length ? 1 : 0, ruleOf(editing.draft))
    onChange(next)
    setEditing(null)
  }

  return (
    <div className="flex flex-col gap-y-2" data-testid="order-rules">
      <Text size="small" className="text-ui-fg-subtle">
        The first rule that fits an invoice decides; when none fits, the switch above does ({defaultOnDetection ? "on detection" : "on confirmation"}). An amount
        limit only fits invoices in its own currency, and a coin rule only fits once the shopper has chosen the coin.
      </Text>
      {rules.length === 0 ? <Text size="small" className="text-ui-fg-muted">No rules: every order follows the switch above.</Text> : null}
      <ol className="flex flex-col gap-y-2">
        {rules.map((rule, index) =>
          editing?.index === index ? (
            <li key={index}>
              <RuleForm draft={editing.draft} onDraft={(draft) => setEditing({ index, draft })} coins={coins} onSave={save} onCancel={() => setEditing(null)} />
            </li>
          ) : (
            <li key={index} data-testid="order-rule" className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2">
              <div className="flex items-center gap-x-2">
                <Badge size="2xsmall" color="grey">{index + 1}</Badge>
                <Text size="small">{describeOrderRule(rule)}</Text>
              </div>
              <div className="flex gap-x-1">
                <Button size="small" variant="transparent" disabled={index === 0} onClick={() => move(index, index - 1)} aria-label={`Move rule ${index + 1} up`}>↑</Button>
                <Button size="small" variant="transparent" disabled={index === rules.length - 1} onClick={() => move(index, index + 1)} aria-label={`Move rule ${index + 1} down`}>↓</Button>
                <Button size="small" variant="secondary" onClick={() => setEditing({ index, draft: draftOf(rule, storeCurrency) })}>Edit</Button>
                <Button size="small" variant="secondary" onClick={() => onChange(rules.filter((_, at) => at !== index))}>Remove</Button>
              </div>
            </li>
          )
        )}
      </ol>
      {editing !== null && editing.index === rules.length ? (
        <RuleForm draft={editing.draft} onDraft={(draft) => setEditing({ index: rules.length, draft })} coins={coins} onSave={save} onCancel={() => setEditing(null)} />
      ) : (
        <div>
          <Button size="small" variant="secondary" disabled={editing !== null || rules.length >= MAX_RULES} onClick={() => setEditing({ index: rules.length, draft: draftOf(null, storeCurrency) })}>
            Add rule
          </Button>
        </div>
      )}
    </div>
  )
}

const RuleForm = ({
  draft,
  onDraft,
  coins,
  onSave,
  onCancel,
}: {
  draft: Draft
  onDraft: (draft: Draft) => void
  coins: readonly string[]
  onSave: () => void
  onCancel: () => void
}) => {
  const errors = draftErrors(draft)
  const toggle = (cid: string) => onDraft({ ...draft, coins: draft.coins.includes(cid) ? draft.coins.filter((c) => c !== cid) : [...draft.coins, cid] })
  return (
    <div className="flex flex-col gap-y-3 rounded-md border p-3" data-testid="order-rule-form">
      <div className="flex flex-col gap-y-1">
        <Label htmlFor="rule-place">Place the order</Label>
        <Select value={draft.place} onValueChange={(value) => onDraft({ ...draft, place: value === "on_confirmation" ? "on_confirmation" : "on_detection" })}>
          <Select.Trigger id="rule-place"><Select.Value /></Select.Trigger>
          <Select.Content>
            <Select.Item value="on_detection">On detection (payment seen, not yet confirmed)</Select.Item>
            <Select.Item value="on_confirmation">On confirmation (invoice completed)</Select.Item>
          </Select.Content>
        </Select>
      </div>
      <div className="flex flex-col gap-y-1">
        <Label>For coins {draft.coins.length === 0 ? "(none selected: any coin)" : `(${draft.coins.join(", ")})`}</Label>
        <div className="grid grid-cols-2 gap-2 md:grid-cols-4">
          {coins.map((cid) => (
            <label key={cid} className="flex items-center gap-x-2 txt-compact-small">
              <Switch checked={draft.coins.includes(cid)} onCheckedChange={() => toggle(cid)} aria-label={`Rule for ${cid}`} />
              {cid}
            </label>
          ))}
        </div>
      </div>
      <div className="flex flex-col gap-y-1">
        <label className="flex items-center gap-x-2 txt-compact-small">
          <Switch checked={draft.limited} onCheckedChange={(limited) => onDraft({ ...draft, limited })} aria-label="Only below an amount" />
          Only for orders below an amount
        </label>
        {draft.limited ? (
          <div className="grid grid-cols-2 gap-2 md:max-w-md">
            <div className="flex flex-col gap-y-1">
              <Label htmlFor="rule-amount">Below</Label>
              <Input id="rule-amount" value={draft.amount} inputMode="decimal" placeholder="500" onChange={(e) => onDraft({ ...draft, amount: e.target.value.trim() })} />
              {errors.amount ? <Text size="small" className="text-ui-fg-error">{errors.amount}</Text> : null}
            </div>
            <div className="flex flex-col gap-y-1">
              <Label htmlFor="rule-currency">Currency</Label>
              <Input id="rule-currency" value={draft.currency} maxLength={3} onChange={(e) => onDraft({ ...draft, currency: e.target.value.trim().toUpperCase() })} />
              {errors.currency ? <Text size="small" className="text-ui-fg-error">{errors.currency}</Text> : null}
            </div>
          </div>
        ) : null}
      </div>
      <Text size="small" className="text-ui-fg-muted">{describeOrderRule(ruleOf(draft))}</Text>
      <div className="flex gap-x-2">
        <Button size="small" disabled={Object.keys(errors).length > 0} onClick={onSave}>Keep rule</Button>
        <Button size="small" variant="secondary" onClick={onCancel}>Cancel</Button>
      </div>
    </div>
  )
}

/** Each outcome's name and each action's one-line meaning (docs/books.md#order-rules); the compiler checks the actions are the server's. */
const OUTCOME_TEXT: { [K in OrderOutcome]: { label: string; actions: Record<OrderOutcomeRules[K], string> } } = {
  expired_unpaid: {
    label: "Expired unpaid",
    actions: { cancel: "Cancel the order placed on detection", wait: "Keep the order waiting; raise it in Needs attention" },
  },
  underpaid: {
    label: "Underpaid beyond the tolerance",
    actions: {
      cancel: "Cancel the order (after the pay-the-rest time); owe the money back",
      wait: "Keep the order waiting, nothing captured; raise it in Needs attention",
      capture_received: "Capture what arrived (its share of the total); the rest stays outstanding",
    },
  },
  overpaid: {
    label: "Overpaid",
    actions: { capture: "Capture the order; the surplus goes to Needs attention", wait: "Place the order with its payment awaiting for your review" },
  },
  error: {
    label: "Gateway error",
    actions: { wait: "Keep it open for a manual check (a later payment still captures)", cancel: "Cancel the order and the payment" },
  },
}

/** What each invoice outcome does to its order: a select per outcome, each action explained in one line. */
export function OrderOutcomesEditor({ outcomes, onChange }: { outcomes: OrderOutcomeRules; onChange: (outcomes: OrderOutcomeRules) => void }) {
  const outcomeKeys = Object.keys(OUTCOME_TEXT) as OrderOutcome[]
  return (
    <div className="flex flex-col gap-y-2" data-testid="order-outcomes">
      <Text size="small" weight="plus">When an invoice ends</Text>
      {outcomeKeys.map((outcome) => {
        const actions = OUTCOME_TEXT[outcome].actions as Record<string, string>
        const id = `order-outcome-${outcome}`
        return (
          <div key={outcome} className="flex flex-col gap-y-1">
            <Label htmlFor={id}>{OUTCOME_TEXT[outcome].label}</Label>
            <select
              id={id}
              className="bg-ui-bg-field txt-compact-small rounded-md border px-2 py-1"
              value={outcomes[outcome]}
              onChange={(event) => onChange({ ...outcomes, [outcome]: event.target.value })}
            >
              {Object.keys(actions).map((action) => (
                <option key={action} value={action}>
                  {action.replace("_", " ")}
                </option>
              ))}
            </select>
            <Text size="xsmall" className="text-ui-fg-subtle">{actions[outcomes[outcome]]}</Text>
          </div>
        )
      })}
    </div>
  )
}
