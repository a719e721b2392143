import { Button, Heading, Input, Label, Table, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { cryptoApi, errorMessage } from "../lib/api"
import { formatDecimal } from "../lib/money"
import type { Deposit, DepositCallbacksResponse, DepositsResponse } from "../lib/types"
import { CoinSelect } from "./coin-select"
import { CryptoStatusBadge, QueryState, TxLinks, formatDate } from "./common"

export const DepositsTab = () => {
  const queryClient = useQueryClient()
  const [uid, setUid] = useState("")
  const [coin, setCoin] = useState("")
  const [filterUid, setFilterUid] = useState("")
  const trimmed = uid.trim()
  const uidError = trimmed.length > 255 ? "At most 255 characters" : null

  const deposits = useQuery({
    queryKey: ["crypto", "deposits", filterUid],
    queryFn: () => cryptoApi.get<DepositsResponse>("/deposits", { uid: filterUid || undefined, limit: 50 }),
    retry: false,
  })
  const callbacks = useQuery({
    queryKey: ["crypto", "deposit-callbacks", filterUid],
    queryFn: () => cryptoApi.get<DepositCallbacksResponse>("/deposits/callbacks", { uid: filterUid || undefined, limit: 50 }),
  })
  const create = useMutation({
    mutationFn: () => cryptoApi.post<{ deposits: Deposit[] }>("/deposits", { uid: trimmed, psys_cid: coin }),
    onSuccess: ({ deposits: created }) => {
      toast.success("Deposit address ready", { description: created.map((d) => `${d.psys_cid}: ${d.hash}`).join(", ") })
      queryClient.invalidateQueries({ queryKey: ["crypto", "deposits"] })
    },
    onError: (error) => toast.error("Could not create the address", { description: errorMessage(error) }),
  })

  return (
    <div className="flex flex-col">
      <div className="flex flex-col gap-y-3 px-6 py-4">
        <Heading level="h2">Deposit addresses</Heading>
        <Text size="small" className="text-ui-fg-subtle">White-label shops: a permanent address per customer. Use the Medusa customer id (cus_…) or any id of yours.</Text>
        <form
          className="grid grid-cols-1 items-end gap-2 md:grid-cols-4"
          onSubmit={(e) => {
            e.preventDefault()
            if (trimmed !== "" && coin !== "" && uidError === null) create.mutate()
          }}
        >
          <div className="flex flex-col gap-y-1 md:col-span-2">
            <Label htmlFor="deposit-uid">Customer id (uid)</Label>
            <Input id="deposit-uid" value={uid} onChange={(e) => setUid(e.target.value)} maxLength={300} placeholder="cus_01H…" />
            {uidError ? <Text size="small" className="text-ui-fg-error">{uidError}</Text> : null}
          </div>
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="deposit-coin">Coin</Label>
            <CoinSelect id="deposit-coin" value={coin} onChange={setCoin} />
          </div>
          <Button type="submit" disabled={trimmed === "" || coin === "" || uidError !== null} isLoading={create.isPending}>Create address</Button>
        </form>
        <form className="flex gap-x-2" onSubmit={(e) => { e.preventDefault(); setFilterUid(uid.trim().slice(0, 255)) }}>
          <Button size="small" variant="secondary" type="submit">Show this customer's addresses</Button>
          {filterUid ? <Button size="small" variant="transparent" type="button" onClick={() => setFilterUid("")}>Show all</Button> : null}
        </form>
      </div>
      <QueryState isLoading={deposits.isLoading} error={deposits.error ? errorMessage(deposits.error) : null} onRetry={() => deposits.refetch()} isEmpty={deposits.data?.deposits.length === 0} emptyText="No deposit addresses yet.">
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Customer (uid)</Table.HeaderCell>
              <Table.HeaderCell>Coin</Table.HeaderCell>
              <Table.HeaderCell>Address</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(deposits.data?.deposits ?? []).map((d) => (
              <Table.Row key={`${d.uid}-${d.psys_cid}-${d.hash}`}>
                <Table.Cell>{d.uid}</Table.Cell>
                <Table.Cell>{d.psys_cid}</Table.Cell>
                <Table.Cell className="font-mono">{d.hash}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      </QueryState>
      <div className="px-6 pb-2 pt-6">
        <Heading level="h3">Received deposits (pay_in callbacks)</Heading>
      </div>
      <QueryState isLoading={callbacks.isLoading} error={callbacks.error ? errorMessage(callbacks.error) : null} onRetry={() => callbacks.refetch()} isEmpty={callbacks.data?.callbacks.length === 0} emptyText="No deposit has been received yet.">
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Received</Table.HeaderCell>
              <Table.HeaderCell>Customer (uid)</Table.HeaderCell>
              <Table.HeaderCell className="text-right">Amount</Table.HeaderCell>
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell>Confirmations</Table.HeaderCell>
              <Table.HeaderCell>Tx</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(callbacks.data?.callbacks ?? []).map((c) => (
              <Table.Row key={c.id}>
                <Table.Cell>{formatDate(c.received_at)}</Table.Cell>
                <Table.Cell>{c.deposit_uid ?? "—"}</Table.Cell>
                <Table.Cell className="text-right">{formatDecimal(c.amount)} {c.currency ?? c.psys_cid ?? ""}</Table.Cell>
                <Table.Cell><CryptoStatusBadge status={c.status} /></Table.Cell>
                <Table.Cell>{c.confirmations ?? "—"}</Table.Cell>
                <Table.Cell><TxLinks urls={c.tx_urls} /></Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      </QueryState>
    </div>
  )
}
