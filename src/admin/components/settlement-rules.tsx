import { Badge, Button, IconButton, Input, Label, Select, Switch, Text } from "@medusajs/ui"
import { Trash } from "@medusajs/icons"
import { POLICY_LABELS, emptySettlementRow, type SettlementRow, type SettlementRowErrors } from "../lib/money-out-policy"
import type { AddressBookEntry } from "../lib/types"
import { formatDate } from "./common"

/**
 * The settlement rules of the money-out policy (docs/money-out.md#settlement), inside the Money out
 * section's form: per received coin, convert each confirmed payment or deposit into another coin and
 * pay it out, and/or sweep the balance above a threshold, each to a saved address. Saved with the
 * rest of the policy (one Save); the server decides what loosens and when it takes effect.
 */
export const SettlementRules = ({
  rows,
  onChange,
  coins,
  addresses,
  errors,
}: {
  rows: SettlementRow[]
  onChange: (rows: SettlementRow[]) => void
  /** The coins to choose from, received and converted to (psys_cid). */
  coins: string[]
  /** The address book's entries; undefined while it loads. */
  addresses: readonly AddressBookEntry[] | undefined
  errors?: SettlementRowErrors[]
}) => {
  const setRow = (index: number, row: SettlementRow) => onChange(rows.map((old, i) => (i === index ? row : old)))
  return (
    <div className="flex flex-col gap-y-2" data-testid="settlement-rules">
      <Label>{POLICY_LABELS.settlement}</Label>
      <Text size="small" className="text-ui-fg-subtle">
        What the gateway does with a coin once a payment or deposit in it is confirmed: convert it into another coin and pay that out, and/or sweep the balance above a threshold. Amounts are in each
        coin, not the store currency. Conversions run after confirmation, one per payment at or above the minimum, and are skipped when the gateway&apos;s rate is further below market than the
        maximum difference. Addresses come from the address book below: save one there first.
      </Text>
      {rows.map((row, index) => (
        <SettlementRuleRow
          key={index}
          number={index + 1}
          row={row}
          coins={coins}
          addresses={addresses}
          errors={errors?.[index] ?? {}}
          onChange={(next) => setRow(index, next)}
          onRemove={() => onChange(rows.filter((_, i) => i !== index))}
        />
      ))}
      <div>
        <Button size="small" variant="secondary" onClick={() => onChange([...rows, emptySettlementRow()])}>Add a settlement rule</Button>
      </div>
    </div>
  )
}

const SettlementRuleRow = ({
  number,
  row,
  coins,
  addresses,
  errors,
  onChange,
  onRemove,
}: {
  number: number
  row: SettlementRow
  coins: string[]
  addresses: readonly AddressBookEntry[] | undefined
  errors: SettlementRowErrors
  onChange: (row: SettlementRow) => void
  onRemove: () => void
}) => {
  const name = `Settlement ${number}`
  const id = `money-out-settlement-${number}`
  return (
    <div className="flex flex-col gap-y-3 rounded-md border p-3">
      <div className="flex items-center gap-x-2">
        <Field error={errors.coin}>
          <CoinChoice label={`${name} coin`} coins={coins} value={row.coin} placeholder="Received coin" onChange={(coin) => onChange({ ...row, coin, sweepAddress: coin === row.coin ? row.sweepAddress : "" })} />
        </Field>
        <div className="flex-1" />
        <IconButton aria-label={`Remove settlement ${number}`} variant="transparent" onClick={onRemove}>
          <Trash />
        </IconButton>
      </div>
      <div className="flex flex-col gap-y-2">
        <div className="flex items-center gap-x-2">
          <Switch id={`${id}-convert`} aria-label={`${name} convert`} checked={row.convert} onCheckedChange={(convert) => onChange({ ...row, convert })} />
          <Label htmlFor={`${id}-convert`}>Convert each confirmed payment and pay it out</Label>
        </div>
        {row.convert ? (
          <div className="grid grid-cols-1 gap-2 md:grid-cols-4">
            <Field label="To coin" error={errors.convertTo}>
              <CoinChoice label={`${name} convert to`} coins={coins.filter((cid) => cid !== row.coin)} value={row.convertTo} placeholder="Coin" onChange={(convertTo) => onChange({ ...row, convertTo, convertAddress: "" })} />
            </Field>
            <Field label="Pay out to" error={errors.convertAddress}>
              <AddressChoice label={`${name} convert address`} coin={row.convertTo} addresses={addresses} value={row.convertAddress} onChange={(convertAddress) => onChange({ ...row, convertAddress })} />
            </Field>
            <Field label={`Minimum (${row.coin || "received coin"})`} error={errors.minAmount}>
              <Input aria-label={`${name} minimum`} value={row.minAmount} placeholder="0.001" inputMode="decimal" onChange={(e) => onChange({ ...row, minAmount: e.target.value.trim() })} />
            </Field>
            <Field label="Max % below market" error={errors.maxDifference}>
              <Input aria-label={`${name} max difference`} value={row.maxDifference} placeholder="2" inputMode="decimal" onChange={(e) => onChange({ ...row, maxDifference: e.target.value.trim() })} />
            </Field>
          </div>
        ) : null}
      </div>
      <div className="flex flex-col gap-y-2">
        <div className="flex items-center gap-x-2">
          <Switch id={`${id}-sweep`} aria-label={`${name} sweep`} checked={row.sweep} onCheckedChange={(sweep) => onChange({ ...row, sweep })} />
          <Label htmlFor={`${id}-sweep`}>Sweep the balance above a threshold</Label>
        </div>
        {row.sweep ? (
          <div className="grid grid-cols-1 gap-2 md:grid-cols-4">
            <Field label={`Threshold (${row.coin || "received coin"})`} error={errors.sweepThreshold}>
              <Input aria-label={`${name} sweep threshold`} value={row.sweepThreshold} placeholder="0.5" inputMode="decimal" onChange={(e) => onChange({ ...row, sweepThreshold: e.target.value.trim() })} />
            </Field>
            <Field label="Sweep to" error={errors.sweepAddress}>
              <AddressChoice label={`${name} sweep address`} coin={row.coin} addresses={addresses} value={row.sweepAddress} onChange={(sweepAddress) => onChange({ ...row, sweepAddress })} />
            </Field>
          </div>
        ) : null}
      </div>
      {row.coin !== "" && !row.convert && !row.sweep ? (
        <Text size="small" className="text-ui-fg-subtle">Nothing happens to {row.coin}: switch on a conversion or a sweep, or remove the rule.</Text>
      ) : null}
    </div>
  )
}

const Field = ({ label, error, children }: { label?: string; error?: string; children: React.ReactNode }) => (
  <div className="flex flex-col gap-y-1">
    {label ? <Text size="small" className="text-ui-fg-subtle">{label}</Text> : null}
    {children}
    {error ? <Text size="small" className="text-ui-fg-error">{error}</Text> : null}
  </div>
)

const CoinChoice = ({ label, coins, value, placeholder, onChange }: { label: string; coins: string[]; value: string; placeholder: string; onChange: (coin: string) => void }) => (
  <Select value={value} onValueChange={onChange}>
    <Select.Trigger aria-label={label} className="w-40"><Select.Value placeholder={placeholder} /></Select.Trigger>
    <Select.Content>
      {coins.map((cid) => <Select.Item key={cid} value={cid}>{cid}</Select.Item>)}
    </Select.Content>
  </Select>
)

const isCoolingOff = (entry: AddressBookEntry): boolean => new Date(entry.usable_from).getTime() > Date.now()

/**
 * The saved, not removed addresses of `coin`, each with whether it is still in its cooling-off. A
 * chosen address no longer in the book stays listed, marked, so the merchant sees what the rule
 * holds (the form refuses to save it).
 */
const AddressChoice = ({ label, coin, addresses, value, onChange }: { label: string; coin: string; addresses: readonly AddressBookEntry[] | undefined; value: string; onChange: (address: string) => void }) => {
  const entries = (addresses ?? []).filter((entry) => entry.psys_cid === coin && entry.removed_at === null)
  const chosen = entries.find((entry) => entry.address === value)
  const placeholder = coin === "" ? "Choose the coin first" : addresses === undefined ? "Loading addresses…" : entries.length === 0 ? `No saved ${coin} address` : "Saved address"
  return (
    <div className="flex flex-col gap-y-1">
      <Select value={value} onValueChange={onChange} disabled={coin === "" || (entries.length === 0 && value === "")}>
        <Select.Trigger aria-label={label} className="min-w-[240px]"><Select.Value placeholder={placeholder} /></Select.Trigger>
        <Select.Content>
          {entries.map((entry) => (
            <Select.Item key={entry.id} value={entry.address}>
              {entry.label ? `${entry.label} — ` : ""}{entry.address}{isCoolingOff(entry) ? ` (cooling-off until ${formatDate(entry.usable_from)})` : " (usable)"}
            </Select.Item>
          ))}
          {value !== "" && chosen === undefined ? <Select.Item value={value}>{addresses === undefined ? value : `${value} (not in the address book)`}</Select.Item> : null}
        </Select.Content>
      </Select>
      {chosen && isCoolingOff(chosen) ? (
        <div>
          <Badge size="2xsmall" color="orange">Cooling-off until {formatDate(chosen.usable_from)}</Badge>
        </div>
      ) : null}
    </div>
  )
}
