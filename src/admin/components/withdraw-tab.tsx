import { Button, Heading, Input, Label, Switch, Text, Textarea, toast } from "@medusajs/ui"
import { useMutation, useQuery } from "@tanstack/react-query"
import { useEffect, useMemo, useState } from "react"
import { cryptoApi, errorMessage } from "../lib/api"
import { decimalPlaces, parseMassPayoutList } from "../lib/mass-payout"
import { formatDecimal, isPositiveDecimal, totalDebited } from "../lib/money"
import type { CommissionEstimateResponse, FeeEstimateResponse, Recipient, Withdrawal, WithdrawalDetail } from "../lib/types"
import { CoinSelect, useCurrencies } from "./coin-select"
import { CryptoStatusBadge, Field, TxLinks } from "./common"
import { FeePlanSelect } from "./fee-plan-select"
import { useSendOnce } from "./send-once"

type FeePlan = "normal" | "priority"

/** Waits until the inputs stop changing, so the live preview does not call the gateway per keystroke. */
function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return debounced
}

export const WithdrawTab = () => {
  const [coin, setCoin] = useState("")
  const [mass, setMass] = useState(false)
  const [address, setAddress] = useState("")
  const [amount, setAmount] = useState("")
  const [list, setList] = useState("")
  const [feePlan, setFeePlan] = useState<FeePlan>("normal")
  const [result, setResult] = useState<Withdrawal | null>(null)

  const { data: currencies } = useCurrencies()
  const precisionText = currencies?.currencies.find((c) => c.cid === coin)?.precision
  const precision = precisionText && /^\d+$/.test(precisionText) ? Number.parseInt(precisionText, 10) : undefined

  const parsed = useMemo(() => (mass ? parseMassPayoutList(list, { precision }) : null), [mass, list, precision])
  const singleError =
    !mass && amount !== "" && !isPositiveDecimal(amount)
      ? "Write the amount like 0.015 (a dot for decimals, above 0)"
      : !mass && precision !== undefined && decimalPlaces(amount) > precision
        ? `At most ${precision} decimal places for ${coin}`
      : !mass && address !== "" && /[\s,;]/.test(address.trim())
        ? "One address, without spaces or commas"
        : null
  const recipients: Recipient[] = mass
    ? (parsed?.recipients ?? []).map(({ address: a, amount: m }) => ({ address: a, amount: m }))
    : address.trim() !== "" && isPositiveDecimal(amount) && singleError === null
      ? [{ address: address.trim(), amount }]
      : []
  const valid = coin !== "" && recipients.length > 0 && (mass ? parsed?.errors.length === 0 : singleError === null)

  const previewInput = useDebounced(valid ? { psys_cid: coin, recipients, fee_plan: feePlan } : null, 500)
  const previewKey = JSON.stringify(previewInput)
  const fee = useQuery({
    queryKey: ["crypto", "fee", previewKey],
    queryFn: () => cryptoApi.post<FeeEstimateResponse>("/fee-estimate", previewInput ?? {}),
    enabled: previewInput !== null,
    retry: false,
  })
  const commission = useQuery({
    queryKey: ["crypto", "commission", previewKey],
    queryFn: () => cryptoApi.post<CommissionEstimateResponse>("/commission-estimate", previewInput ?? {}),
    enabled: previewInput !== null,
    retry: false,
  })
  const feeValue = fee.data?.fee.fee ?? null
  const commissionValue = commission.data?.commission.commission ?? null
  const total = totalDebited(recipients.map((r) => r.amount), feeValue, commissionValue)
  const unit = currencies?.currencies.find((c) => c.cid === coin)?.currency ?? coin

  const submit = useSendOnce("withdrawal", {
    body: () => ({ psys_cid: coin, recipients, fee_plan: feePlan }),
    onRecorded: setResult,
    onSettled: (withdrawal) => {
      if (withdrawal.status === "completed") toast.success("Withdrawal sent")
      else if (withdrawal.status === "error") toast.error(`Failed at the gateway: operation ${withdrawal.operation_id ?? "?"}, status error`, { description: "The same payment stays blocked until you decide in History." })
      // Above the money-out policy's approval threshold (docs/money-out.md#money-out-policy).
      else if (withdrawal.status === "awaiting_approval") toast.info("Waiting for another admin's approval", { description: "It is sent once another admin approves it under To approve." })
      else toast.error(`Withdrawal ${withdrawal.status}`)
    },
    unknown: { title: "The gateway did not confirm the withdrawal", description: "It is not sent again. Use Check status in a moment, or resolve it in History." },
    refusedTitle: "Withdrawal refused",
  })

  const reconcile = useMutation({
    mutationFn: (id: string) => cryptoApi.post<WithdrawalDetail>(`/withdrawals/${id}/reconcile`, {}),
    // Still unknown: the operations that could be it are in History, where the merchant resolves it.
    onSuccess: ({ withdrawal }) => {
      setResult(withdrawal)
      if (withdrawal.status !== "outcome_unknown") submit.settledLater()
      toast.info(`Withdrawal status: ${withdrawal.status.replace("_", " ")}`)
    },
    onError: (error) => toast.error("Could not check the withdrawal", { description: errorMessage(error) }),
  })

  const confirmAndSend = () => {
    if (!valid) return
    void submit.confirmAndSend({
      title: "Send this withdrawal?",
      description: `${recipients.length === 1 ? `${formatDecimal(recipients[0].amount)} ${unit} to ${recipients[0].address}` : `${recipients.length} payments, ${formatDecimal(parsed?.total ?? "0")} ${unit} in all`}. Total debited from the balance: ${formatDecimal(total)} ${unit}${feeValue === null || commissionValue === null ? " plus fees not yet estimated" : ""}. This cannot be undone.`,
      confirmText: "Send",
    })
  }

  return (
    <div className="flex flex-col gap-y-4 px-6 py-4">
      <div>
        <Heading level="h2">Withdraw</Heading>
        <Text size="small" className="text-ui-fg-subtle">Send coins to one address, or to many at once (mass payout).</Text>
      </div>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <div className="flex flex-col gap-y-2">
          <Label htmlFor="withdraw-coin">Coin</Label>
          <CoinSelect id="withdraw-coin" value={coin} onChange={setCoin} />
        </div>
        <div className="flex flex-col gap-y-2">
          <Label htmlFor="withdraw-plan">Fee plan</Label>
          <FeePlanSelect id="withdraw-plan" coin={coin} unit={unit} value={feePlan} onChange={setFeePlan} />
        </div>
      </div>
      <div className="flex items-center gap-x-2">
        <Switch id="withdraw-mass" checked={mass} onCheckedChange={setMass} />
        <Label htmlFor="withdraw-mass">Mass payout (paste a list)</Label>
      </div>
      {mass ? (
        <div className="flex flex-col gap-y-2">
          <Label htmlFor="withdraw-list">Recipients: one "address amount" per line</Label>
          <Textarea id="withdraw-list" rows={8} value={list} onChange={(e) => setList(e.target.value)} placeholder={"bc1q...abc 0.01\nbc1q...def 0.025"} className="font-mono" />
          {parsed && parsed.errors.length > 0 ? (
            <ul className="flex flex-col gap-y-1" aria-label="List errors">
              {parsed.errors.slice(0, 20).map((e) => (
                <li key={`${e.line}-${e.message}`} className="txt-compact-small text-ui-fg-error">Line {e.line}: {e.message}</li>
              ))}
            </ul>
          ) : null}
          <Text size="small" className="text-ui-fg-subtle">{parsed?.recipients.length ?? 0} valid recipients, {formatDecimal(parsed?.total ?? "0")} {unit}</Text>
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <div className="flex flex-col gap-y-2">
            <Label htmlFor="withdraw-address">Address</Label>
            <Input id="withdraw-address" value={address} onChange={(e) => setAddress(e.target.value)} autoComplete="off" />
          </div>
          <div className="flex flex-col gap-y-2">
            <Label htmlFor="withdraw-amount">Amount</Label>
            <Input id="withdraw-amount" value={amount} onChange={(e) => setAmount(e.target.value.trim())} inputMode="decimal" placeholder="0.01" autoComplete="off" />
          </div>
          {singleError ? <Text size="small" className="text-ui-fg-error md:col-span-2">{singleError}</Text> : null}
        </div>
      )}
      <div className="rounded-md border px-4 py-3" aria-label="Preview">
        <Field label="Amount sent">{formatDecimal(mass ? parsed?.total ?? "0" : recipients[0]?.amount ?? "0")} {unit}</Field>
        <Field label="Network fee">{fee.isFetching ? "estimating…" : fee.error ? <span className="text-ui-fg-error">{errorMessage(fee.error)}</span> : feeValue ? `${formatDecimal(feeValue)} ${unit}` : "—"}</Field>
        <Field label="Commission">{commission.isFetching ? "estimating…" : commission.error ? <span className="text-ui-fg-error">{errorMessage(commission.error)}</span> : commissionValue ? `${formatDecimal(commissionValue)} ${unit}` : "—"}</Field>
        <Field label="Total debited"><span className="txt-compact-small-plus">{formatDecimal(total)} {unit}</span></Field>
      </div>
      <div className="flex justify-end">
        <Button onClick={confirmAndSend} disabled={!valid} isLoading={submit.isPending}>Review and send</Button>
      </div>
      {result ? (
        <div className="rounded-md border px-4 py-3" aria-label="Withdrawal result">
          <Field label="Status"><CryptoStatusBadge status={result.status} /></Field>
          <Field label="Withdrawal">{result.id}</Field>
          <Field label="Operation">{result.operation_id ?? "—"}</Field>
          <Field label="Amount">{formatDecimal(result.total_amount)} {result.psys_cid}</Field>
          <Field label="Transaction"><TxLinks urls={result.tx_urls} /></Field>
          {result.error_message ? <Field label="Note"><span className="text-ui-fg-subtle">{result.error_message}</span></Field> : null}
          {result.status === "outcome_unknown" || result.status === "sending" ? (
            <div className="flex justify-end pt-2">
              <Button size="small" variant="secondary" isLoading={reconcile.isPending} onClick={() => reconcile.mutate(result.id)}>Check status</Button>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}
