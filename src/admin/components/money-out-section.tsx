import { Badge, Button, Heading, IconButton, Input, Label, Select, Switch, Table, Text, toast } from "@medusajs/ui"
import { Trash } from "@medusajs/icons"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { cryptoApi, errorMessage } from "../lib/api"
import { POLICY_LABELS, changedPolicy, policyForm, policyFormErrors, policyValue, type MoneyOutPolicyForm } from "../lib/money-out-policy"
import type { AddressBookEntry, MoneyOutPolicyChange, MoneyOutPolicyView } from "../lib/types"
import { QueryState, formatDate } from "./common"
import { SettlementRules } from "./settlement-rules"

const POLICY_KEY = ["crypto", "money-out", "policy"]
const ADDRESSES_KEY = ["crypto", "money-out", "addresses"]

/** A policy field's label, for a field name the server sent. */
const labelOf = (field: string): string => (field in POLICY_LABELS ? POLICY_LABELS[field as keyof typeof POLICY_LABELS] : field)

/** A change's `{ from, to }` in words. */
const changeText = (change: MoneyOutPolicyChange): string => {
  const value = change.change as { from?: unknown; to?: unknown } | null
  return `${labelOf(change.field)}: ${policyValue(value?.from, change.field)} → ${policyValue(value?.to, change.field)}`
}

/** The address book, saved entries only (the section's form checks settlement addresses against it). */
const useAddressBook = () => useQuery({ queryKey: ADDRESSES_KEY, queryFn: () => cryptoApi.get<{ addresses: AddressBookEntry[] }>("/money-out/addresses") })

/**
 * Settings → Crypto → Money out (docs/money-out.md#money-out-policy): the policy (address book,
 * cooling-off, approval threshold, daily limits, claimed-refund review, settlement rules), the
 * loosenings still waiting with when each takes effect, and the address book. The server enforces every rule; a
 * loosening saved here waits the cooling-off and every admin is told.
 */
export const MoneyOutSection = ({ coins, storeCurrency }: { coins: string[]; storeCurrency: string }) => {
  const queryClient = useQueryClient()
  const policy = useQuery({ queryKey: POLICY_KEY, queryFn: () => cryptoApi.get<{ policy: MoneyOutPolicyView }>("/money-out/policy") })
  const [form, setForm] = useState<MoneyOutPolicyForm | null>(null)
  const addresses = useAddressBook().data?.addresses
  const effective = policy.data?.policy.effective
  useEffect(() => {
    if (effective && form === null) setForm(policyForm(effective))
  }, [effective, form])

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => cryptoApi.post<{ changes: MoneyOutPolicyChange[]; policy: MoneyOutPolicyView }>("/money-out/policy", body),
    onSuccess: (data) => {
      queryClient.setQueryData(POLICY_KEY, { policy: data.policy })
      setForm(policyForm(data.policy.effective))
      const waiting = data.changes.filter((change) => new Date(change.effective_at).getTime() > Date.now())
      toast.success("Money-out policy saved", {
        description: waiting.length > 0 ? `Loosening waits the cooling-off: in effect from ${formatDate(waiting[0].effective_at)}. Every admin is told.` : "In effect now.",
      })
    },
    onError: (error) => toast.error("Policy not saved", { description: errorMessage(error) }),
  })

  const errors = form ? policyFormErrors(form, addresses) : {}
  const patch = form && effective ? changedPolicy(form, effective) : {}
  const setLimit = (index: number, row: { coin: string; amount: string }) => form && setForm({ ...form, dailyLimits: form.dailyLimits.map((old, i) => (i === index ? row : old)) })

  return (
    <div className="flex flex-col gap-y-4" data-testid="money-out-section">
      <div>
        <Heading level="h2">Money out</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Rules every withdrawal, mass payout, exchange payout and refund obeys, on the server. Tightening takes effect at once; loosening waits the cooling-off and every admin is told. Amounts are in {storeCurrency}, except the settlement rules&apos; (in each coin).
        </Text>
      </div>
      <QueryState isLoading={policy.isLoading} error={policy.error ? errorMessage(policy.error) : null} onRetry={() => policy.refetch()}>
        {form && policy.data ? (
          <div className="flex flex-col gap-y-4">
            <div className="flex items-center gap-x-2">
              <Switch id="money-out-address-book" checked={form.addressBook} onCheckedChange={(v) => setForm({ ...form, addressBook: v })} />
              <Label htmlFor="money-out-address-book">Withdrawals and exchange payouts go only to saved addresses (address book)</Label>
            </div>
            <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
              <PolicyInput id="money-out-cooling-off" label={POLICY_LABELS.cooling_off_minutes} value={form.coolingOffMinutes} error={errors.coolingOffMinutes} onChange={(v) => setForm({ ...form, coolingOffMinutes: v })} />
              <PolicyInput id="money-out-approval" label={`${POLICY_LABELS.approval_threshold} (${storeCurrency}, empty: none)`} value={form.approvalThreshold} error={errors.approvalThreshold} onChange={(v) => setForm({ ...form, approvalThreshold: v })} />
              <PolicyInput id="money-out-claim-review" label={`${POLICY_LABELS.claim_review_threshold} (${storeCurrency}, empty: none)`} value={form.claimReviewThreshold} error={errors.claimReviewThreshold} onChange={(v) => setForm({ ...form, claimReviewThreshold: v })} />
            </div>
            <div className="flex flex-col gap-y-2">
              <Label>{POLICY_LABELS.daily_limits} ({storeCurrency} per coin, last 24 hours)</Label>
              {form.dailyLimits.map((row, index) => (
                <div key={index} className="flex items-center gap-x-2">
                  <CoinChoice coins={coins} value={row.coin} onChange={(coin) => setLimit(index, { ...row, coin })} label={`Daily limit ${index + 1} coin`} />
                  <Input aria-label={`Daily limit ${index + 1} amount`} value={row.amount} onChange={(e) => setLimit(index, { ...row, amount: e.target.value.trim() })} inputMode="decimal" />
                  <IconButton aria-label={`Remove daily limit ${index + 1}`} variant="transparent" onClick={() => setForm({ ...form, dailyLimits: form.dailyLimits.filter((_, i) => i !== index) })}>
                    <Trash />
                  </IconButton>
                </div>
              ))}
              <div>
                <Button size="small" variant="secondary" onClick={() => setForm({ ...form, dailyLimits: [...form.dailyLimits, { coin: "", amount: "" }] })}>Add a daily limit</Button>
              </div>
              {errors.dailyLimits ? <Text size="small" className="text-ui-fg-error">{errors.dailyLimits}</Text> : null}
            </div>
            <SettlementRules rows={form.settlement} onChange={(settlement) => setForm({ ...form, settlement })} coins={coins} addresses={addresses} errors={errors.settlement} />
            <div className="flex justify-end">
              <Button disabled={Object.keys(errors).length > 0 || Object.keys(patch).length === 0} isLoading={save.isPending} onClick={() => save.mutate(patch)}>Save money-out policy</Button>
            </div>
            <PendingChanges pending={policy.data.policy.pending} />
          </div>
        ) : null}
      </QueryState>
      <AddressBook coins={coins} coolingOff={effective?.cooling_off_minutes ?? null} />
    </div>
  )
}

const PolicyInput = ({ id, label, value, error, onChange }: { id: string; label: string; value: string; error?: string; onChange: (value: string) => void }) => (
  <div className="flex flex-col gap-y-1">
    <Label htmlFor={id}>{label}</Label>
    <Input id={id} value={value} onChange={(e) => onChange(e.target.value.trim())} inputMode="decimal" />
    {error ? <Text size="small" className="text-ui-fg-error">{error}</Text> : null}
  </div>
)

const CoinChoice = ({ coins, value, onChange, label }: { coins: string[]; value: string; onChange: (coin: string) => void; label: string }) => (
  <Select value={value} onValueChange={onChange}>
    <Select.Trigger aria-label={label} className="w-40"><Select.Value placeholder="Coin" /></Select.Trigger>
    <Select.Content>
      {coins.map((cid) => <Select.Item key={cid} value={cid}>{cid}</Select.Item>)}
    </Select.Content>
  </Select>
)

/** The loosenings still waiting their cooling-off, each with when it takes effect. */
const PendingChanges = ({ pending }: { pending: MoneyOutPolicyChange[] }) =>
  pending.length === 0 ? null : (
    <div className="flex flex-col gap-y-2" data-testid="money-out-pending">
      <Text size="small" weight="plus">Waiting for the cooling-off</Text>
      <ul className="flex flex-col gap-y-1">
        {pending.map((change) => (
          <li key={change.id} className="flex items-center gap-x-2">
            <Badge size="2xsmall" color="orange">from {formatDate(change.effective_at)}</Badge>
            <Text size="small">{changeText(change)}{change.requested_by ? ` · asked by ${change.requested_by}` : ""}</Text>
          </li>
        ))}
      </ul>
    </div>
  )

/** The address book: each entry with when it is usable; add one (usable after the cooling-off), remove one (at once). */
const AddressBook = ({ coins, coolingOff }: { coins: string[]; coolingOff: number | null }) => {
  const queryClient = useQueryClient()
  const addresses = useAddressBook()
  const [entry, setEntry] = useState({ psys_cid: "", address: "", label: "" })
  const refresh = () => queryClient.invalidateQueries({ queryKey: ADDRESSES_KEY })
  const add = useMutation({
    mutationFn: () => cryptoApi.post<{ address: AddressBookEntry; created: boolean }>("/money-out/addresses", { psys_cid: entry.psys_cid, address: entry.address, ...(entry.label ? { label: entry.label } : {}) }),
    onSuccess: (data) => {
      refresh()
      setEntry({ psys_cid: entry.psys_cid, address: "", label: "" })
      toast.success(data.created ? "Address saved" : "Address already in the book", { description: `Usable from ${formatDate(data.address.usable_from)}.` })
    },
    onError: (error) => toast.error("Address not saved", { description: errorMessage(error) }),
  })
  const remove = useMutation({
    mutationFn: (id: string) => cryptoApi.delete<{ address: AddressBookEntry }>(`/money-out/addresses/${id}`),
    onSuccess: () => {
      refresh()
      toast.success("Address removed")
    },
    onError: (error) => toast.error("Address not removed", { description: errorMessage(error) }),
  })
  const rows = addresses.data?.addresses ?? []
  return (
    <div className="flex flex-col gap-y-2" data-testid="address-book">
      <Text size="small" weight="plus">Address book</Text>
      <Text size="small" className="text-ui-fg-subtle">A new address is usable after the cooling-off{coolingOff === null ? "" : ` (${coolingOff} minutes)`}; every admin is told when one is added.</Text>
      <div className="flex flex-wrap items-end gap-2">
        <CoinChoice coins={coins} value={entry.psys_cid} onChange={(psys_cid) => setEntry({ ...entry, psys_cid })} label="Address coin" />
        <Input aria-label="Address" placeholder="Address" value={entry.address} onChange={(e) => setEntry({ ...entry, address: e.target.value.trim() })} className="min-w-[320px]" />
        <Input aria-label="Label" placeholder="Label (optional)" value={entry.label} onChange={(e) => setEntry({ ...entry, label: e.target.value })} />
        <Button size="small" variant="secondary" disabled={entry.psys_cid === "" || entry.address === ""} isLoading={add.isPending} onClick={() => add.mutate()}>Save address</Button>
      </div>
      <QueryState isLoading={addresses.isLoading} error={addresses.error ? errorMessage(addresses.error) : null} onRetry={() => addresses.refetch()} isEmpty={rows.length === 0} emptyText="No saved address: withdrawals are refused while the address book is on.">
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Coin</Table.HeaderCell>
              <Table.HeaderCell>Address</Table.HeaderCell>
              <Table.HeaderCell>Label</Table.HeaderCell>
              <Table.HeaderCell>Added</Table.HeaderCell>
              <Table.HeaderCell>Usable from</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => {
              const waiting = new Date(row.usable_from).getTime() > Date.now()
              return (
                <Table.Row key={row.id}>
                  <Table.Cell>{row.psys_cid}</Table.Cell>
                  <Table.Cell className="max-w-[280px] truncate" title={row.address}>{row.address}</Table.Cell>
                  <Table.Cell>{row.label ?? "—"}</Table.Cell>
                  <Table.Cell>{formatDate(row.added_at)}{row.added_by ? ` · ${row.added_by}` : ""}</Table.Cell>
                  <Table.Cell>{waiting ? <Badge size="2xsmall" color="orange">{formatDate(row.usable_from)}</Badge> : <Badge size="2xsmall" color="green">usable</Badge>}</Table.Cell>
                  <Table.Cell>
                    <Button size="small" variant="transparent" isLoading={remove.isPending && remove.variables === row.id} onClick={() => remove.mutate(row.id)}>Remove</Button>
                  </Table.Cell>
                </Table.Row>
              )
            })}
          </Table.Body>
        </Table>
      </QueryState>
    </div>
  )
}
